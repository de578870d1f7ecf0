/**
 * Helpers shared by the page parsers. Club portals are hand-written: tags and attributes in
 * any case, tables with or without thead/tbody, extra wrappers and classes. The parsers find
 * things by what they are (a time, a status, a password field), and these helpers make that
 * cheap: one normalised document, words of an element's class and id, tables as header + rows.
 */
import type * as Linkedom from "linkedom";
import type { z } from "zod";
import { pageNotUnderstood } from "../errors.ts";
import { readClubTime } from "../text.ts";

let linkedom: typeof Linkedom | null = null;
/**
 * The HTML parser is loaded at the first page parsed, not at every start (decision 194): required,
 * so parsing stays synchronous, and its CommonJS build, which the bundle keeps unevaluated until then.
 */
const parseHTML = (html: string) => (linkedom ??= require("linkedom") as typeof Linkedom).parseHTML(html);

export type HtmlDocument = ReturnType<typeof Linkedom.parseHTML>["document"];
export type HtmlElement = NonNullable<ReturnType<HtmlDocument["querySelector"]>>;

/** Parses once and lower-cases attribute names (linkedom keeps `CLASS`, which selectors then miss). */
export function parseDocument(html: string): HtmlDocument {
  const { document } = parseHTML(html);
  for (const element of document.querySelectorAll("*")) {
    for (const attribute of [...element.attributes]) {
      const lower = attribute.name.toLowerCase();
      if (lower === attribute.name) continue;
      element.removeAttribute(attribute.name);
      if (!element.hasAttribute(lower)) element.setAttribute(lower, attribute.value);
    }
  }
  return document;
}

/** Text content with runs of white space (and &nbsp;) collapsed, as a person reads it. */
export function textOf(element: { textContent: string | null } | null | undefined): string {
  return (element?.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** The lower-cased words of an element's class, id and name: 'alert-error' → alert, error. */
export function wordsOf(element: HtmlElement): string[] {
  const raw = `${element.getAttribute("class") ?? ""} ${element.getAttribute("id") ?? ""} ${element.getAttribute("name") ?? ""}`;
  return raw
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

export function hasWord(element: HtmlElement, pattern: RegExp): boolean {
  return wordsOf(element).some((word) => pattern.test(word));
}

export const tagOf = (element: HtmlElement) => element.tagName.toLowerCase();

export function requireElement(root: HtmlDocument | HtmlElement, selector: string, page: string, missing: string): HtmlElement {
  const element = root.querySelector(selector);
  if (!element) throw pageNotUnderstood(page, missing);
  return element;
}

export function requireText(root: HtmlDocument | HtmlElement, selector: string, page: string, missing: string): string {
  const text = textOf(requireElement(root, selector, page, missing));
  if (!text) throw pageNotUnderstood(page, missing);
  return text;
}

/** '5:04 AM' / '5:04 a.m.' / '05:04:00' / '17:04' → 'HH:mm'; null when it is none of these. */
export function parseClubTime(value: string): string | null {
  const trimmed = value.trim();
  const time = readClubTime(trimmed);
  // A cell holding a time holds only that: '5:4 AM' or 'noon' must not be read from a part.
  return time && /^\d{1,2}:\d{2}(:\d{2})?(\s*[ap]\.?\s*m\.?)?$/i.test(trimmed) ? time : null;
}

const TOKEN_NAME = /csrf|xsrf|token|authenticity|verification|nonce/i;

/** The session's form token: a meta tag or a hidden field named like one, whatever the name. */
export function readPageToken(root: HtmlDocument | HtmlElement): { field: string; value: string } | null {
  // Some portals name the field in a meta of its own (csrf-param); otherwise '_csrf'.
  const param = root.querySelector('meta[name="csrf-param"]')?.getAttribute("content")?.trim() || "_csrf";
  for (const meta of root.querySelectorAll("meta")) {
    const name = meta.getAttribute("name") ?? "";
    const value = meta.getAttribute("content")?.trim();
    if (name !== "csrf-param" && TOKEN_NAME.test(name) && value) return { field: param, value };
  }
  for (const input of root.querySelectorAll("input")) {
    const name = input.getAttribute("name") ?? "";
    const value = input.getAttribute("value")?.trim();
    if ((input.getAttribute("type") ?? "").toLowerCase() === "hidden" && TOKEN_NAME.test(name) && value) return { field: name, value };
  }
  return null;
}

/** The session's form token that every member page carries. */
export function readCsrfMeta(document: HtmlDocument, page: string): string {
  const token = readPageToken(document);
  if (!token) throw pageNotUnderstood(page, "form token (csrf-token meta or hidden field)");
  return token.value;
}

/** Validates a parsed record; a mismatch means we misread the page, so it is page_not_understood. */
export function validateRecord<T>(schema: z.ZodType<T>, value: unknown, page: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw pageNotUnderstood(page, `valid ${issue?.path.join(".") || "record"} (${issue?.message ?? "invalid"})`);
}

export { courseIdFromName } from "../text.ts";

export interface TableRow {
  row: HtmlElement;
  cells: HtmlElement[];
  /** The header text above each cell (lower case), '' where there is none. */
  headers: string[];
}

/**
 * Every data row of every table, with the header words above its cells. A header is a row of
 * only `th` cells, in a thead or not; browsers add tbody and linkedom does not, so neither is
 * required.
 */
export function tableRows(root: HtmlDocument | HtmlElement): TableRow[] {
  const rows: TableRow[] = [];
  for (const table of root.querySelectorAll("table")) {
    let headers: string[] = [];
    for (const row of table.querySelectorAll("tr")) {
      if (row.closest("table") !== table) continue;
      const cells = [...row.children].filter((cell) => ["td", "th"].includes(tagOf(cell)));
      if (cells.length === 0) continue;
      if (cells.every((cell) => tagOf(cell) === "th")) {
        headers = cells.map((cell) => textOf(cell).toLowerCase());
        continue;
      }
      rows.push({ row, cells, headers: cells.map((_, i) => headers[i] ?? "") });
    }
  }
  return rows;
}

/** Parts of the page that belong to the site, not to the sheet: a top bar may show today's date. */
function isSiteChrome(element: HtmlElement): boolean {
  for (let node: HtmlElement | null = element; node; node = node.parentElement) {
    if (["header", "nav", "footer"].includes(tagOf(node)) || hasWord(node, /^(topbar|navbar|nav|footer|banner|masthead)$/)) return true;
  }
  return false;
}

/**
 * Elements of the page that name it (headings, captions, titles, boxes named date/title/head),
 * in document order, leaving out the site's header, navigation and footer. When `before` is
 * given, those after it are dropped and the nearest comes first: the sheet's own heading sits
 * just above its table.
 */
export function titleTexts(document: HtmlDocument, before?: HtmlElement): string[] {
  const found: string[] = [];
  for (const element of document.querySelectorAll("*")) {
    if (before && (element === before || before.contains(element))) break;
    const isHeading = /^(h[1-5]|caption|title)$/.test(tagOf(element));
    if (!isHeading && !hasWord(element, /^(date|when|title|head|heading|day)$/)) continue;
    if (tagOf(element) !== "title" && isSiteChrome(element)) continue;
    const text = textOf(element);
    if (text) found.push(text);
  }
  return before ? found.reverse() : found;
}

/** The words of an element with a space between its parts ('2025</h2><p>No' is not '2025No'). */
export function spacedText(root: { childNodes: ArrayLike<unknown> } | null | undefined): string {
  const pieces: string[] = [];
  const walk = (node: { childNodes: ArrayLike<unknown> }) => {
    for (const child of Array.from(node.childNodes) as { nodeType: number; textContent: string | null; childNodes: ArrayLike<unknown>; tagName?: string }[]) {
      if (child.nodeType === 3) pieces.push(child.textContent ?? "");
      else if (child.nodeType === 1 && !["SCRIPT", "STYLE"].includes((child.tagName ?? "").toUpperCase())) walk(child);
    }
  };
  if (root) walk(root);
  return pieces
    .join(" ")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim();
}

/** The words of a whole page, spaced between elements. */
export function pageText(document: HtmlDocument): string {
  return spacedText(document.body ?? document.documentElement);
}
