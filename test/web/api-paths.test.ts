/**
 * Every /v1 path of the web app is named once, in web/lib/api-paths.ts. The import
 * rules (server code only through the domain and schema modules, no feature importing another,
 * no cycle) are checked for the whole tree by scripts/check-imports.ts in the test command.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const WEB = join(ROOT, "web");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

describe("the web app's API paths", () => {
  test('"/v1/ is written only in web/lib/api-paths.ts', () => {
    const files = sourceFiles(WEB);
    expect(files.length).toBeGreaterThan(50);
    const writers = files.filter((file) => /["'`]\/v1\//.test(readFileSync(file, "utf8"))).map((file) => relative(ROOT, file));
    expect(writers).toEqual(["web/lib/api-paths.ts"]);
  });
});
