/** No import cycle in src/ (type-only imports included): the graph is built from the top, never around. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function importGraph(): Map<string, string[]> {
  const files = new Set(sourceFiles(ROOT));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']/g)].map((m) => resolve(dirname(file), m[1]));
    graph.set(file, targets.filter((t) => files.has(t)));
  }
  return graph;
}

function findCycles(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.push([...path.slice(at), next].map((f) => relative(ROOT, f)).join(" → "));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return cycles;
}

test("the checker finds a cycle when there is one", () => {
  const graph = new Map([["/a", ["/b"]], ["/b", ["/c"]], ["/c", ["/a"]], ["/d", []]]);
  expect(findCycles(graph)).toHaveLength(1);
});

test("src/ has no import cycle", () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(100);
  expect(findCycles(graph)).toEqual([]);
});
