/**
 * The web app's boundaries (design.md 'Habits', issue 15): it reads server code only from the domain
 * and the schema modules, names every /v1 path in one module, and its features never import each other.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const WEB = join(ROOT, "web");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file imports or re-exports from, resolved to a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|^import\s+"([^"]+)"/gm)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
  return specifiers.filter((s) => s.startsWith(".")).map((s) => relative(ROOT, resolve(dirname(file), s)));
}

const files = sourceFiles(WEB);

describe("the web app's imports", () => {
  test("finds the web app's files", () => {
    expect(files.length).toBeGreaterThan(50);
  });

  test("server code only from src/domain and src/features/*/*.schemas.ts", () => {
    const crossings = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith("src/"))
        .filter((target) => !target.startsWith("src/domain/") && !/^src\/features\/[^/]+\/[^/]+\.schemas\.ts$/.test(target))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  test("no feature imports another feature", () => {
    const crossings = files.flatMap((file) => {
      const own = relative(WEB, file).match(/^features\/([^/]+)\//)?.[1];
      if (!own) return [];
      return importsOf(file)
        .filter((target) => target.startsWith("web/features/") && !target.startsWith(`web/features/${own}/`))
        .map((target) => `${relative(ROOT, file)} → ${target}`);
    });
    expect(crossings).toEqual([]);
  });

  test('"/v1/ is written only in web/lib/api-paths.ts', () => {
    const writers = files.filter((file) => /["'`]\/v1\//.test(readFileSync(file, "utf8"))).map((file) => relative(ROOT, file));
    expect(writers).toEqual(["web/lib/api-paths.ts"]);
  });
});
