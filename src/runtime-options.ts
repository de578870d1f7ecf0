/**
 * The JavaScriptCore options the binary runs with (decision 208). The runtime reads them from the
 * environment once, as it starts and before any of Teebox's code, so they cannot be set from here;
 * when one is missing, the binary starts itself again in place with it set: the same process (its
 * id, its files, what supervises it), about 5 ms later. `src/binary-start.ts`, the first module the
 * binary's entry imports, does that before the other modules load. An option already set in the
 * environment is left as it is, so an operator can turn one back.
 */

/**
 * - No FTL, JavaScriptCore's last and heaviest compiler tier. Compiling with it is what made the
 *   memory peak of a 1,000-member release (30 MB of it), while the reads and the posts at the
 *   instant were as fast without it (decision 208).
 * - The heap grows to at most 1.5 times what it held after a collection before the next, where
 *   Bun lets it reach 3 times on a machine with 16 GB or more and twice on a smaller one. A
 *   release's answers are garbage within moments; with the heap allowed to triple, they were 20
 *   of the 100-member peak's MB (decision 215). The first option sets the growth on big machines,
 *   the second on small ones.
 */
export const RUNTIME_OPTIONS: Readonly<Record<string, string>> = {
  BUN_JSC_useFTLJIT: "0",
  BUN_JSC_heapGrowthMaxIncrease: "0.5",
  BUN_JSC_smallHeapGrowthFactor: "1.5",
};

/** The options the environment lacks (none: the runtime already runs with them). */
export function missingRuntimeOptions(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(RUNTIME_OPTIONS).filter(([name]) => env[name] === undefined));
}

/**
 * Starts the binary again in place with the missing options, if any; returns only when nothing was
 * missing or the restart could not be made (then Teebox runs as it is: only its memory differs).
 * The arguments after the binary's own two (the executable and its embedded entry) are passed on.
 */
export function restartWithRuntimeOptions(): void {
  const missing = missingRuntimeOptions(process.env);
  if (Object.keys(missing).length === 0) return;
  try {
    process.execve?.(process.execPath, [process.execPath, ...process.argv.slice(2)], { ...process.env, ...missing });
  } catch {
    // Left as it is: the options save memory, they are not needed to run.
  }
}
