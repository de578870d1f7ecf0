/**
 * How Teebox is compiled into one executable (decision 194), shared by scripts/build.ts and the
 * release benchmark's contender, so the benchmark measures Teebox as it is deployed.
 */

/** Start-up code runs once: a JIT this many times more reluctant compiles almost none of it (main.ts puts it back). */
export const JIT_POLICY = 8;

/** `bun build` flags: one minified executable, bytecode compiled ahead, the JIT reluctant at start. */
export function compileFlags(options: { bytecodeOrder?: string } = {}): string[] {
  return [
    "--compile",
    "--minify",
    "--sourcemap",
    "--bytecode",
    "--format=esm",
    `--compile-jit-policy=${JIT_POLICY}`,
    ...(options.bytecodeOrder ? [`--bytecode-order=${options.bytecodeOrder}`] : []),
  ];
}
