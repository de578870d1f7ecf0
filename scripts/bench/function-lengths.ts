/**
 * Prints the longest functions of the server's code, for the code-shape figures of a refactor:
 * each named function (a declaration, a `const name = (…) => {…}`, a method) with its length in
 * lines, from its first line to its closing brace. Comments and strings are masked first (the
 * import checker's `maskSource`), so braces inside them do not count.
 *
 *   bun scripts/bench/function-lengths.ts [--top N] [paths…]   (default: the 15 longest under src/)
 *
 * A function inside another is listed on its own and counted in its parent's lines too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { maskSource } from "../check-imports.ts";

interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

const ROOT = join(import.meta.dir, "..", "..");
const STARTS = [
  /\bfunction\s*\*?\s*([\w$]+)\s*(?:<[^(]*>)?\s*\(/g,
  /\b(?:const|let)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:<[^(]*>)?\s*\(/g,
  /^[ \t]*(?:(?:private|public|protected|static|readonly|async|get|set)\s+)*([\w$]+)\s*(?:<[^(]*>)?\s*\(/gm,
];
const NOT_NAMES = new Set(["if", "for", "while", "switch", "catch", "return", "await", "function", "typeof", "new", "super", "import", "export"]);
/** A `{` after one of these opens a type or an object, not a function's body. */
const TYPE_BEFORE = new Set([":", "|", "&", "<", ",", "(", "[", "="]);

function closingOf(code: string, open: number, opener: string, closer: string): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === opener) depth++;
    else if (code[i] === closer && --depth === 0) return i;
  }
  return -1;
}

/** The index of the body's `{` after a parameter list ending at `paramsEnd`, or -1 (an expression-bodied arrow, an overload). */
function bodyStart(code: string, paramsEnd: number): number {
  let angle = 0;
  let previous = ")";
  for (let i = paramsEnd + 1; i < code.length; i++) {
    const c = code[i]!;
    if (/\s/.test(c)) continue;
    if (c === ";" && angle === 0) return -1;
    if (c === "<") angle++;
    else if (c === ">" && code[i - 1] !== "=") angle = Math.max(0, angle - 1);
    else if (c === "{") {
      if (angle === 0 && !TYPE_BEFORE.has(previous)) return i;
      const end = closingOf(code, i, "{", "}");
      if (end < 0) return -1;
      i = end;
      previous = "}";
      continue;
    } else if (c === "(" && angle === 0 && previous === ">" && code[i - 1] === ">") return -1;
    if (c === ">" && code[i - 1] === "=" && angle === 0) {
      // An arrow: its body follows, a block or an expression.
      let j = i + 1;
      while (/\s/.test(code[j] ?? "")) j++;
      return code[j] === "{" ? j : -1;
    }
    previous = c;
  }
  return -1;
}

export function functionLengths(file: string, source: string): FunctionLength[] {
  const code = maskSource(source);
  const lineAt = (index: number) => code.slice(0, index).split("\n").length;
  const found = new Map<number, FunctionLength>();
  for (const pattern of STARTS) {
    for (const match of code.matchAll(pattern)) {
      const name = match[1]!;
      if (NOT_NAMES.has(name)) continue;
      const paramsOpen = match.index + match[0].length - 1;
      const paramsEnd = closingOf(code, paramsOpen, "(", ")");
      if (paramsEnd < 0) continue;
      const open = bodyStart(code, paramsEnd);
      if (open < 0) continue;
      const close = closingOf(code, open, "{", "}");
      if (close < 0) continue;
      const start = match.index + (match[0].length - match[0].trimStart().length);
      if (found.has(open)) continue;
      found.set(open, { file, name, line: lineAt(start), lines: lineAt(close) - lineAt(start) + 1 });
    }
  }
  return [...found.values()];
}

function sourceFiles(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const full = join(path, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf("--top");
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 15;
  const paths = args.length > 0 ? args : ["src"];
  const all = paths.flatMap((p) => sourceFiles(join(ROOT, p))).flatMap((file) => functionLengths(relative(ROOT, file), readFileSync(file, "utf8")));
  all.sort((a, b) => b.lines - a.lines);
  for (const f of all.slice(0, top)) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
}
