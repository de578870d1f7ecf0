/**
 * Checks the import rules of docs/decisions/019-layers-and-guard-rails.md over src/ and web/:
 *
 * - domain: a file in src/domain imports no other file of the app, only other domain files (and
 *   packages), because the web app runs the same rules and domain code does no I/O.
 * - server features: a file in src/features/<a> imports nothing from src/features/<b>.
 * - web features: a file in web/features/<a> imports nothing from web/features/<b>.
 * - web to server: web/ imports server code (src/) only from src/domain/** and the schema modules
 *   src/features/<a>/<a>.schemas.ts (any *.schemas.ts directly in a feature folder), and the route
 *   contracts src/features/<a>/*.contract.ts for their types alone (`import type`): their code
 *   carries the full zod and the OpenAPI generator, which the web bundle must not (decision 170).
 * - cycles: no import cycle among the files of src/ and web/.
 * - size: no file in src/jobs or src/features is over 400 lines.
 * - unresolved: a relative import that names no file (the others cannot be checked without it).
 * - jobs-to-features: nothing in src/jobs imports src/features (a job uses services, the club
 *   adapter and the lifecycle; what it shares with a feature lives below both).
 * - and the rules of scripts/written-rules.ts, which read code and prose rather than imports: one
 *   writer of the state tables, one publisher, no re-export shims, every named path exists, no
 *   citation of a document the repository does not have (decision 173).
 *
 * Every kind of import counts: static, dynamic, re-exports and type-only. A type-only import
 * still ties one module's contract to another's, and the cycles this check exists to prevent are
 * made of them (the composition root's deps type named the release engine, whose module took
 * the deps type). Without them a boundary could be crossed for types alone (web reading a
 * service's result types) and the check would not see it.
 *
 * Prints every violation with its file and import, grouped by rule, and exits with 1 when there is
 * any. Run: bun scripts/check-imports.ts [root]
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, resolve, sep } from "node:path";
import { cssComments, documentViolations, proseViolations, sourceParts, sourceViolations, WRITTEN_RULE_TITLES, type WrittenRule } from "./written-rules.ts";

export type Rule = "domain" | "server-features" | "web-features" | "web-to-server" | "jobs-to-features" | "cycles" | "size" | "unresolved" | WrittenRule;

export const RULE_TITLES: Record<Rule, string> = {
  domain: "src/domain imports only src/domain",
  "server-features": "server features do not import each other",
  "web-features": "web features do not import each other",
  "web-to-server": "web imports server code only from src/domain, feature schema modules and (types only) route contracts",
  "jobs-to-features": "src/jobs imports nothing of src/features",
  cycles: "no import cycle in src/ or web/",
  size: "no file in src/jobs or src/features over 400 lines",
  unresolved: "relative imports name a file",
  ...WRITTEN_RULE_TITLES,
};

export const MAX_LINES = 400;

export type ImportKind = "static" | "dynamic" | "type";

export interface ImportEdge {
  /** Importing file, relative to the root with forward slashes. */
  file: string;
  /** The specifier as written. */
  specifier: string;
  kind: ImportKind;
  /** The imported file relative to the root, or null for a package or an unresolved path. */
  target: string | null;
}

export interface Violation {
  rule: Rule;
  file: string;
  /** The import as written (absent for the size rule). */
  specifier?: string;
  target?: string | null;
  message: string;
  /** For a cycle: the files in order, the first repeated at the end. */
  cycle?: string[];
  /** For a cycle: every import inside the cycle's files (each one lies on some cycle). */
  edges?: ImportEdge[];
  /** For a rule that reads code or prose: the line. */
  line?: number;
}

export interface CheckResult {
  files: number;
  violations: Violation[];
}

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs"];
const RESOLVE_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".js", ".jsx", ".mjs"];
const SCANNED_FOLDERS = ["src", "web"];
/** Folders whose comments are read for named paths and outside documents (their imports are not checked). */
const PROSE_ONLY_FOLDERS = ["test", "scripts"];

/**
 * The source with comments blanked and the insides of strings and template literals replaced by
 * a filler, offsets unchanged, so that the patterns below only ever see code. Strings end at a
 * line break: JSX text such as "Don't" then spoils at most the rest of its line.
 */
export function maskSource(source: string): string {
  const out = source.split("");
  const fill = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n") out[i] = "\u0001";
  };
  let i = 0;
  // Brace depth of each template literal's open ${ … }.
  const templateDepths: number[] = [];
  let depth = 0;
  let lastSignificant = "";
  let lastWord = "";
  const regexAfterWords = new Set(["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"]);

  const scanTemplate = (start: number): number => {
    // At the character after ` or }; returns the index after the closing ` or after ${.
    let j = start;
    while (j < source.length) {
      const c = source[j];
      if (c === "\\") j += 2;
      else if (c === "`") {
        fill(start, j);
        return j + 1;
      } else if (c === "$" && source[j + 1] === "{") {
        fill(start, j);
        templateDepths.push(depth);
        depth += 1;
        return j + 2;
      } else j += 1;
    }
    fill(start, source.length);
    return source.length;
  };

  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      for (let k = i; k < stop; k++) out[k] = " ";
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      for (let k = i; k < stop; k++) if (out[k] !== "\n") out[k] = " ";
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      fill(i + 1, Math.min(j, source.length));
      i = j + 1;
      lastSignificant = c;
      lastWord = "";
    } else if (c === "`") {
      i = scanTemplate(i + 1);
      lastSignificant = "`";
      lastWord = "";
    } else if (c === "}" && templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === depth - 1) {
      templateDepths.pop();
      depth -= 1;
      i = scanTemplate(i + 1);
      lastSignificant = "`";
      lastWord = "";
    } else if (c === "/" && (lastSignificant === "" || "(,=:[!&|?{};+-*%<>~^".includes(lastSignificant) || regexAfterWords.has(lastWord))) {
      // A regular expression literal: skip to its closing slash (not one inside a class).
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n") {
        const r = source[j];
        if (r === "\\") j += 2;
        else {
          if (r === "[") inClass = true;
          else if (r === "]") inClass = false;
          else if (r === "/" && !inClass) break;
          j += 1;
        }
      }
      fill(i + 1, j);
      i = j + 1;
      lastSignificant = "/";
      lastWord = "";
    } else {
      if (c === "{") depth += 1;
      else if (c === "}") depth -= 1;
      if (/[A-Za-z_$0-9]/.test(c)) {
        let j = i;
        while (j < source.length && /[A-Za-z_$0-9]/.test(source[j]!)) j += 1;
        lastWord = source.slice(i, j);
        lastSignificant = "a";
        i = j;
        continue;
      }
      if (!/\s/.test(c)) {
        lastSignificant = c;
        lastWord = "";
      }
      i += 1;
    }
  }
  return out.join("");
}

interface FoundImport {
  specifier: string;
  /** What the statement's form says: a type-only form, a call import(…), or a value import. */
  form: "type" | "call" | "value";
}

const NOT_AFTER = String.raw`(?<![.\w$])`;
const QUOTED = String.raw`(?<quote>["'])([^"'\n]*)\k<quote>`;
const IMPORT_FROM = new RegExp(String.raw`${NOT_AFTER}import\s+(type\s+)?([\w$*\s{},]*?)\s*from\s*${QUOTED}`, "g");
const IMPORT_BARE = new RegExp(String.raw`${NOT_AFTER}import\s*${QUOTED}`, "g");
const EXPORT_FROM = new RegExp(String.raw`${NOT_AFTER}export\s+(type\s+)?(\*(?:\s+as\s+[\w$]+)?|\{[\w$\s,]*\})\s*from\s*${QUOTED}`, "g");
const IMPORT_CALL = new RegExp(String.raw`${NOT_AFTER}import\s*\(\s*${QUOTED}`, "g");

function isTypeOnlyList(clause: string): boolean {
  // `{ type A, type B }` alone (no default import before it) imports nothing at run time.
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1]!
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => /^type\s+[\w$]/.test(name));
}

/** Every import of a module's source, found in its masked text (the specifier read from the source). */
export function findImports(source: string): FoundImport[] {
  const masked = maskSource(source);
  const found: (FoundImport & { at: number })[] = [];
  const specifierAt = (match: RegExpExecArray, quoteGroup: number) => {
    // The quoted specifier is the match's tail: read it from the source at the same offset.
    const quoted = match[quoteGroup + 1]!;
    const end = match.index + match[0].length - 1;
    return source.slice(end - quoted.length, end);
  };
  for (const match of masked.matchAll(IMPORT_FROM)) {
    const typeOnly = Boolean(match[1]) || isTypeOnlyList(match[2]!);
    found.push({ at: match.index, specifier: specifierAt(match, 3), form: typeOnly ? "type" : "value" });
  }
  for (const match of masked.matchAll(IMPORT_BARE)) found.push({ at: match.index, specifier: specifierAt(match, 1), form: "value" });
  for (const match of masked.matchAll(EXPORT_FROM)) {
    const typeOnly = Boolean(match[1]) || isTypeOnlyList(match[2]!);
    found.push({ at: match.index, specifier: specifierAt(match, 3), form: typeOnly ? "type" : "value" });
  }
  for (const match of masked.matchAll(IMPORT_CALL)) found.push({ at: match.index, specifier: specifierAt(match, 1), form: "call" });
  return found.sort((a, b) => a.at - b.at).map(({ specifier, form }) => ({ specifier, form }));
}

const transpilers = {
  ts: new Bun.Transpiler({ loader: "ts" }),
  tsx: new Bun.Transpiler({ loader: "tsx" }),
  js: new Bun.Transpiler({ loader: "js" }),
  jsx: new Bun.Transpiler({ loader: "jsx" }),
};

function loaderFor(path: string): keyof typeof transpilers {
  if (path.endsWith(".tsx")) return "tsx";
  if (path.endsWith(".jsx")) return "jsx";
  if (path.endsWith(".js") || path.endsWith(".mjs")) return "js";
  return "ts";
}

/**
 * The imports of one file with their kinds. Bun's transpiler says exactly what is imported at run
 * time (it drops type-only imports); the scan of the source adds the type-only ones.
 */
export function importsOf(path: string, source: string): { specifier: string; kind: ImportKind }[] {
  const runtime = new Map<string, ImportKind>();
  let transpiled = true;
  try {
    for (const entry of transpilers[loaderFor(path)].scanImports(source)) {
      const kind: ImportKind = entry.kind === "dynamic-import" ? "dynamic" : "static";
      if (runtime.get(entry.path) !== "static") runtime.set(entry.path, kind);
    }
  } catch {
    // A file Bun cannot parse (tsc reports why): fall back on the scan alone.
    transpiled = false;
  }
  const result = new Map<string, ImportKind>(runtime);
  for (const found of findImports(source)) {
    if (result.has(found.specifier)) continue;
    if (transpiled) result.set(found.specifier, "type");
    else result.set(found.specifier, found.form === "type" ? "type" : found.form === "call" ? "dynamic" : "static");
  }
  return [...result].map(([specifier, kind]) => ({ specifier, kind }));
}

function toKey(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join(posix.sep);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file a relative or absolute specifier names, or null (packages are not followed). */
export function resolveSpecifier(fromFile: string, specifier: string): string | null | "unresolved" {
  if (!specifier.startsWith("./") && !specifier.startsWith("../") && !specifier.startsWith("/") && specifier !== "." && specifier !== "..") {
    return null;
  }
  const base = resolve(fromFile, "..", specifier.split("?")[0]!);
  if (isFile(base)) return base;
  for (const extension of RESOLVE_EXTENSIONS) if (isFile(base + extension)) return base + extension;
  // TypeScript's convention: "./x.js" may name x.ts.
  const withoutJs = base.replace(/\.(m?js|jsx)$/, "");
  if (withoutJs !== base) for (const extension of [".ts", ".tsx", ".mts"]) if (isFile(withoutJs + extension)) return withoutJs + extension;
  for (const extension of RESOLVE_EXTENSIONS) if (isFile(join(base, `index${extension}`))) return join(base, `index${extension}`);
  return "unresolved";
}

function listSources(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...listSources(path));
    else if (SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension))) files.push(path);
  }
  return files.sort();
}

function listFiles(folder: string, extension: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

export function countLines(source: string): number {
  if (source.length === 0) return 0;
  const lines = source.split("\n").length;
  return source.endsWith("\n") ? lines - 1 : lines;
}

/** The feature a path belongs to under a features folder ("src/features/"), or null. */
function featureOf(path: string, featuresFolder: string): string | null {
  if (!path.startsWith(featuresFolder)) return null;
  const rest = path.slice(featuresFolder.length);
  const slash = rest.indexOf("/");
  return slash === -1 ? null : rest.slice(0, slash);
}

function isServerEntryForWeb(target: string, kind: ImportKind): boolean {
  if (target.startsWith("src/domain/")) return true;
  if (/^src\/features\/[^/]+\/[^/]+\.contract\.tsx?$/.test(target)) return kind === "type";
  return /^src\/features\/[^/]+\/[^/]+\.schemas\.tsx?$/.test(target);
}

/** The rules that look at one import alone. */
function edgeViolations(edge: ImportEdge): Violation[] {
  const { file, specifier, target, kind } = edge;
  if (target === null) return [];
  const violations: Violation[] = [];
  const add = (rule: Rule, message: string) => violations.push({ rule, file, specifier, target, message });
  if (file.startsWith("src/domain/") && !target.startsWith("src/domain/")) add("domain", `domain code imports ${target}`);
  const serverFrom = featureOf(file, "src/features/");
  const serverTo = featureOf(target, "src/features/");
  if (serverFrom && serverTo && serverFrom !== serverTo) add("server-features", `feature ${serverFrom} imports feature ${serverTo}`);
  const webFrom = featureOf(file, "web/features/");
  const webTo = featureOf(target, "web/features/");
  if (webFrom && webTo && webFrom !== webTo) add("web-features", `feature ${webFrom} imports feature ${webTo}`);
  if (file.startsWith("src/jobs/") && target.startsWith("src/features/")) add("jobs-to-features", `a job imports ${target}`);
  if (file.startsWith("web/") && target.startsWith("src/") && !isServerEntryForWeb(target, kind)) {
    add("web-to-server", target.endsWith(".contract.ts") ? `web imports a route contract's code ${target} (types only: import type)` : `web imports server code ${target}`);
  }
  return violations;
}

/** Strongly connected components (Tarjan), each with more than one file or an import of itself. */
function cyclicComponents(nodes: string[], next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    // Iterative depth-first search, so a deep chain of imports cannot overflow the call stack.
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child]!;
        frame.child += 1;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter);
          counter += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = (next.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfImport) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest cycle through the component's first file, found breadth-first inside the component. */
function shortestCycle(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of next.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Checks the tree under root (the folder with src/ and web/). */
export function checkTree(root: string): CheckResult {
  const files = SCANNED_FOLDERS.flatMap((folder) => listSources(join(root, folder)));
  const edges: ImportEdge[] = [];
  const violations: Violation[] = [];
  for (const absolute of files) {
    const file = toKey(root, absolute);
    const source = readFileSync(absolute, "utf8");
    if ((file.startsWith("src/jobs/") || file.startsWith("src/features/")) && countLines(source) > MAX_LINES) {
      violations.push({ rule: "size", file, message: `${countLines(source)} lines (at most ${MAX_LINES})` });
    }
    const parts = sourceParts(source, maskSource(source));
    violations.push(...sourceViolations(file, source, parts), ...proseViolations(root, file, parts.comments));
    for (const { specifier, kind } of importsOf(absolute, source)) {
      const resolved = resolveSpecifier(absolute, specifier);
      if (resolved === "unresolved") {
        violations.push({ rule: "unresolved", file, specifier, target: null, message: "names no file" });
        continue;
      }
      const edge: ImportEdge = { file, specifier, kind, target: resolved === null ? null : toKey(root, resolved) };
      edges.push(edge);
      violations.push(...edgeViolations(edge));
    }
  }

  for (const absolute of PROSE_ONLY_FOLDERS.flatMap((folder) => listSources(join(root, folder)))) {
    const source = readFileSync(absolute, "utf8");
    violations.push(...proseViolations(root, toKey(root, absolute), sourceParts(source, maskSource(source)).comments));
  }
  for (const absolute of listFiles(join(root, "web"), ".css")) {
    violations.push(...proseViolations(root, toKey(root, absolute), cssComments(readFileSync(absolute, "utf8"))));
  }
  violations.push(...documentViolations(root));

  // Cycles among the scanned files (imports of other files, such as CSS, cannot close one).
  const scanned = new Set(files.map((absolute) => toKey(root, absolute)));
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.target === null || !scanned.has(edge.target)) continue;
    const targets = next.get(edge.file) ?? [];
    if (!targets.includes(edge.target)) targets.push(edge.target);
    next.set(edge.file, targets);
  }
  for (const component of cyclicComponents([...scanned], next)) {
    const members = new Set(component);
    const inside = edges.filter((edge) => members.has(edge.file) && edge.target !== null && members.has(edge.target));
    const cycle = shortestCycle(component, next);
    violations.push({
      rule: "cycles",
      file: component[0]!,
      message: `${component.length} files import each other in a cycle, e.g. ${cycle.join(" → ")}`,
      cycle,
      edges: inside,
    });
  }
  return { files: files.length, violations };
}

export function formatViolations(result: CheckResult): string {
  const lines: string[] = [];
  for (const rule of Object.keys(RULE_TITLES) as Rule[]) {
    const found = result.violations.filter((violation) => violation.rule === rule);
    if (found.length === 0) continue;
    lines.push(`\n${RULE_TITLES[rule]} (${found.length}):`);
    for (const violation of found) {
      if (rule === "size") lines.push(`  ${violation.file}: ${violation.message}`);
      else if (violation.line !== undefined) lines.push(`  ${violation.file}:${violation.line}: ${violation.message}`);
      else if (rule === "cycles") {
        lines.push(`  ${violation.message}; the imports on it:`);
        for (const edge of violation.edges ?? []) {
          lines.push(`    ${edge.file} imports "${edge.specifier}"${edge.kind === "type" ? " (types only)" : edge.kind === "dynamic" ? " (dynamic)" : ""}`);
        }
      } else lines.push(`  ${violation.file} imports "${violation.specifier}": ${violation.message}`);
    }
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? join(import.meta.dir, ".."));
  const started = performance.now();
  const result = checkTree(root);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const count = result.violations.length;
  if (count > 0) console.log(formatViolations(result));
  console.log(`\nimport rules: ${count === 0 ? "no violations" : `${count} violation${count === 1 ? "" : "s"}`} in ${result.files} files (${seconds} s)`);
  process.exit(count > 0 ? 1 : 0);
}
