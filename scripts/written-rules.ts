/**
 * The rules scripts/check-imports.ts checks beyond imports (decision 173), each one that used to be
 * written down only:
 *
 * - state-writers: only src/lifecycle inserts, updates or deletes rows of the tables that hold the
 *   states of requests, bookings and slot watches (booking_requests, request_attempts, bookings,
 *   slot_watches, watch_attempts, edit_attempts), by drizzle (`db.update(bookings)`) or by SQL text
 *   (decision 081). One more deletes them: the retention pass (src/jobs/retention.ts), which
 *   removes rows whose keeping time is over (decision 131) and so changes no state that is still
 *   read; it inserts and updates nothing.
 * - publishers: only the notifier hands messages to the socket hub (`hub.toUser`, `hub.toAll`),
 *   and only the hub itself publishes on the server (decision 085).
 * - shims: no module only re-exports another; its importers import the other module.
 * - named-paths: every path of the repository named in a comment (src, web, test, scripts) or a
 *   document (README.md, docs/) exists: `src/jobs/retention.ts`, `docs/decisions/`; so does the
 *   target of every relative link of a document (`[limits](limits.md)` beside it).
 * - outside-documents: no comment or document cites a document the repository does not have
 *   (the product's specification by section, its design notes, an issue by number): the reasoning
 *   is written in a decision record instead.
 * - records: every decision record (docs/decisions/NNN-*.md) starts with its number and title, its
 *   status and its date, and docs/decisions/README.md lists it with the same status and date.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

export type WrittenRule = "state-writers" | "publishers" | "shims" | "named-paths" | "outside-documents" | "records";

export const WRITTEN_RULE_TITLES: Record<WrittenRule, string> = {
  "state-writers": "only src/lifecycle writes the tables of request, booking, watch and series states",
  publishers: "only the notifier hands messages to the socket hub",
  shims: "no module only re-exports another",
  "named-paths": "every path named in a comment or a document exists",
  "outside-documents": "no comment or document cites a document the repository does not have",
  records: "every decision record has its header and is in the index with the same status and date",
};

export interface WrittenViolation {
  rule: WrittenRule;
  file: string;
  line: number;
  message: string;
}

/** The source files' text by what it is, offsets and lines kept: code, comments, and string contents. */
export interface SourceParts {
  code: string;
  comments: string;
  strings: string;
}

/** Splits a source with its masked form (comments blanked, strings filled: check-imports.ts's maskSource). */
export function sourceParts(source: string, masked: string): SourceParts {
  let comments = "";
  let strings = "";
  for (let i = 0; i < source.length; i++) {
    const original = source[i]!;
    const seen = masked[i]!;
    if (original === "\n") {
      comments += "\n";
      strings += "\n";
      continue;
    }
    comments += seen === " " && original !== " " ? original : " ";
    strings += seen === "\u0001" ? original : " ";
  }
  return { code: masked, comments, strings };
}

const lineOf = (text: string, at: number) => text.slice(0, at).split("\n").length;

const STATE_TABLES = ["bookingRequests", "requestAttempts", "bookings", "slotWatches", "watchAttempts", "editAttempts", "standingSeries", "seriesOccurrences"];
const STATE_TABLE_NAMES = ["booking_requests", "request_attempts", "bookings", "slot_watches", "watch_attempts", "edit_attempts", "standing_series", "series_occurrences"];
const DRIZZLE_WRITE = new RegExp(String.raw`\.\s*(insert|update|delete)\s*\(\s*(${STATE_TABLES.join("|")})\s*\)`, "g");
const SQL_WRITE = new RegExp(String.raw`\b(insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from)\s+["\`]?(${STATE_TABLE_NAMES.join("|")})\b`, "gi");
/** The retention pass: it deletes expired rows of the state tables (decision 131), and nothing else writes them. */
const RETENTION = "src/jobs/retention.ts";
const HUB_SEND = /\.\s*(toUser|toAll)\s*\(/g;
const SERVER_PUBLISH = /\b(?:server|srv)\s*\??\.\s*publish\s*\(/g;
const RE_EXPORT = /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["'][^"'\n]*["']\s*;?/g;

/** The rules that read one source file of src/ or web/. */
export function sourceViolations(file: string, source: string, parts: SourceParts): WrittenViolation[] {
  const found: WrittenViolation[] = [];
  const add = (rule: WrittenRule, at: number, message: string) => found.push({ rule, file, line: lineOf(source, at), message });
  if (file.startsWith("src/") && !file.startsWith("src/lifecycle/")) {
    const mayDelete = file === RETENTION;
    for (const match of parts.code.matchAll(DRIZZLE_WRITE)) {
      if (!(mayDelete && match[1] === "delete")) add("state-writers", match.index, `${match[1]}s ${match[2]} outside src/lifecycle`);
    }
    for (const match of parts.strings.matchAll(SQL_WRITE)) {
      if (!(mayDelete && /^delete/i.test(match[1]!))) add("state-writers", match.index, `SQL "${match[1]} ${match[2]}" outside src/lifecycle`);
    }
  }
  if (file.startsWith("src/") && file !== "src/realtime/notifier.ts" && file !== "src/realtime/hub.ts") {
    for (const match of parts.code.matchAll(HUB_SEND)) add("publishers", match.index, `hands a message to the hub (${match[1]}) outside src/realtime/notifier.ts`);
  }
  if (file.startsWith("src/") && file !== "src/realtime/hub.ts") {
    for (const match of parts.code.matchAll(SERVER_PUBLISH)) add("publishers", match.index, "publishes on the server outside the socket hub");
  }
  const reExports = [...parts.code.matchAll(RE_EXPORT)];
  if (reExports.length > 0 && parts.code.replace(RE_EXPORT, "").trim() === "") {
    add("shims", reExports[0]!.index, "only re-exports another module: import that module instead");
  }
  return found;
}

/** Paths of the repository's own folders; placeholders (`<group>`, `*`, `{id}`, `NNN`) are not paths. */
const NAMED_PATH = /(?<![\w./@-])((?:src|web|test|scripts|docs|drizzle)\/[\w./-]*[\w/-])/g;
const PLACEHOLDER = /[<>*{}…]|NNN|\.\.\./;
/** A Markdown link to a file of the repository (not a web address, an anchor alone or a mail address). */
const RELATIVE_LINK = /\]\((?!https?:|mailto:|#)([^)\s…]+)\)/g;
const OUTSIDE_DOCUMENT = /\b[Ss]pec\s*§\s*\d*|\b[Tt]he spec(?:'s)?\b|\(spec[:)]|\bdesign\.md\b|\b[Ii]ssue\s+\d+\b/g;

/** The rules that read prose: a file's comments, or a whole document. */
export function proseViolations(root: string, file: string, prose: string): WrittenViolation[] {
  const found: WrittenViolation[] = [];
  for (const match of prose.matchAll(NAMED_PATH)) {
    const named = match[1]!.replace(/[.]+$/, "");
    if (PLACEHOLDER.test(prose.slice(match.index, match.index + match[0].length + 1))) continue;
    if (!existsSync(join(root, named))) found.push({ rule: "named-paths", file, line: lineOf(prose, match.index), message: `names ${named}, which does not exist` });
  }
  if (file.endsWith(".md")) {
    for (const match of prose.matchAll(RELATIVE_LINK)) {
      const target = normalize(join(dirname(file), match[1]!.split("#")[0]!));
      if (!existsSync(join(root, target))) found.push({ rule: "named-paths", file, line: lineOf(prose, match.index), message: `links ${match[1]}, which does not exist` });
    }
  }
  for (const match of prose.matchAll(OUTSIDE_DOCUMENT)) {
    found.push({ rule: "outside-documents", file, line: lineOf(prose, match.index), message: `cites "${match[0].trim()}": link a decision record, or say it here` });
  }
  return found;
}

/** A stylesheet's comments, everything else blanked (offsets and lines kept). */
export function cssComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|[^\n]/g, (part) => (part.startsWith("/*") ? part : " "));
}

/** The documents checked as prose: the README and every Markdown file under docs/. */
export function listDocuments(root: string): string[] {
  const found: string[] = existsSync(join(root, "README.md")) ? ["README.md"] : [];
  const walk = (folder: string) => {
    if (!existsSync(join(root, folder))) return;
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found.sort();
}

export function documentViolations(root: string): WrittenViolation[] {
  return [...listDocuments(root).flatMap((file) => proseViolations(root, file, readFileSync(join(root, file), "utf8"))), ...recordViolations(root)];
}

const RECORDS = "docs/decisions";
const RECORD_FILE = /^(\d{3})-[a-z0-9-]+\.md$/;
const STATUS = /^- Status: ((?:accepted|superseded by \d{3})(?:; .+)?)$/;
const DATE = /^- Date: (\d{4}-\d{2}-\d{2})$/;
const INDEX_ROW = /^\| \[(\d{3})\]\(([^)]+)\) \| .+ \| (.+) \| (\d{4}-\d{2}-\d{2}) \|$/;

/** Each record's header and its row in the index (decision 174). */
export function recordViolations(root: string): WrittenViolation[] {
  const folder = join(root, RECORDS);
  if (!existsSync(folder)) return [];
  const found: WrittenViolation[] = [];
  const indexFile = `${RECORDS}/README.md`;
  const index = existsSync(join(root, indexFile)) ? readFileSync(join(root, indexFile), "utf8").split("\n") : [];
  const rows = new Map<string, { status: string; date: string; line: number }>();
  index.forEach((line, i) => {
    const row = INDEX_ROW.exec(line);
    if (!row) return;
    rows.set(row[2]!, { status: row[3]!, date: row[4]!, line: i + 1 });
    if (!existsSync(join(folder, row[2]!))) found.push({ rule: "records", file: indexFile, line: i + 1, message: `lists ${row[2]}, which does not exist` });
  });
  for (const name of readdirSync(folder)
    .filter((entry) => RECORD_FILE.test(entry))
    .sort()) {
    const file = `${RECORDS}/${name}`;
    const add = (line: number, message: string) => found.push({ rule: "records", file, line, message });
    const lines = readFileSync(join(folder, name), "utf8").split("\n");
    const number = RECORD_FILE.exec(name)![1]!;
    if (!new RegExp(`^# ${number}\\. \\S`).test(lines[0] ?? "")) add(1, `starts with "${(lines[0] ?? "").slice(0, 40)}", not "# ${number}. Its decision"`);
    const status = STATUS.exec(lines[2] ?? "")?.[1];
    const date = DATE.exec(lines[3] ?? "")?.[1];
    if (!status) add(3, 'has no "- Status: accepted" (or "superseded by NNN") on its third line');
    if (!date) add(4, 'has no "- Date: YYYY-MM-DD" on its fourth line');
    const row = rows.get(name);
    if (!row) add(1, `is not listed in ${indexFile}`);
    else if ((status && row.status !== status) || (date && row.date !== date)) {
      found.push({ rule: "records", file: indexFile, line: row.line, message: `lists ${name} as "${row.status}", ${row.date}; the record says "${status}", ${date}` });
    }
  }
  return found;
}
