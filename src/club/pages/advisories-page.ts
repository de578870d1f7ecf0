import { pageNotUnderstood } from "../errors.ts";
import { clubAdvisorySchema, type ClubAdvisory } from "../records.ts";
import { readClubDate, type PageReadOptions } from "../text.ts";
import { hasWord, pageText, parseDocument, tagOf, textOf, validateRecord, type HtmlDocument, type HtmlElement } from "./html.ts";

const PAGE = "advisories";
/** How the UI splits an advisory's content into bullets. */
export const ADVISORY_BULLET = " • ";

const ENTRY_WORD = /^(advisory|announcement|notice|bulletin)$/;
const EMPTY_NOTICE = /\b(there\s+are\s+(currently\s+)?no|no\s+(current\s+|new\s+)?(advisories|announcements|notices|news))\b/i;
const INLINE = new Set(["span", "small", "em", "i", "b", "strong", "time", "a", "label", "sup", "sub"]);

function isEntry(element: HtmlElement): boolean {
  // A box named like an entry counts only with a title in it, so 'advisory-title' itself is not one.
  return tagOf(element) === "article" || (tagOf(element) !== "section" && hasWord(element, ENTRY_WORD) && titleOf(element) !== null);
}

/**
 * Public advisories, read by meaning: an entry is an article or a box named like one, with a
 * heading as its title. Content written as a list, paragraphs or line breaks keeps its parts,
 * joined with the bullet the UI splits on. An entry without a title is skipped and reported;
 * an event date that cannot be read leaves the advisory without one, and is reported.
 */
export function parseAdvisoriesPage(html: string, options: PageReadOptions = {}): ClubAdvisory[] {
  const document = parseDocument(html);
  const entries = findEntries(document);
  if (entries.every((entry) => !titleOf(entry))) {
    // A 'no advisories' line may itself be styled as a notice: with no titled entry it is the answer.
    if (EMPTY_NOTICE.test(pageText(document))) return [];
    if (entries.length === 0) throw pageNotUnderstood(PAGE, "advisory entries or a 'no advisories' notice");
  }
  const advisories: ClubAdvisory[] = [];
  entries.forEach((entry, index) => {
    const advisory = readAdvisory(entry, index, options);
    if (advisory) advisories.push(advisory);
  });
  if (advisories.length === 0) throw pageNotUnderstood(PAGE, "a readable advisory (each entry lacked a title)");
  return advisories;
}

/** The innermost elements that look like entries (a box around them all is not one). */
function findEntries(document: HtmlDocument): HtmlElement[] {
  const candidates = [...document.querySelectorAll("*")].filter(isEntry);
  return candidates.filter((c) => !candidates.some((other) => other !== c && c.contains(other)));
}

function titleOf(entry: HtmlElement): HtmlElement | null {
  for (const element of entry.querySelectorAll("*")) {
    if (/^h[1-6]$/.test(tagOf(element)) || hasWord(element, /^(title|subject|heading|headline)$/)) return element;
  }
  return null;
}

function dateOf(entry: HtmlElement, title: HtmlElement): HtmlElement | null {
  for (const element of entry.querySelectorAll("*")) {
    if (element === title || title.contains(element)) continue;
    if (tagOf(element) === "time" || hasWord(element, /^(date|when|eventdate)$/)) return element;
  }
  return null;
}

function readAdvisory(entry: HtmlElement, index: number, options: PageReadOptions): ClubAdvisory | null {
  const titleElement = titleOf(entry);
  const title = textOf(titleElement);
  if (!titleElement || !title) {
    options.report?.(`advisory ${index + 1} skipped: it has no title ('${textOf(entry).slice(0, 60)}')`);
    return null;
  }
  const dateElement = dateOf(entry, titleElement);
  let eventDate: string | null = null;
  if (dateElement) {
    const written = dateElement.getAttribute("datetime") ?? textOf(dateElement);
    eventDate = readClubDate(written, options.numericDateOrder ?? null) ?? readClubDate(textOf(dateElement), options.numericDateOrder ?? null);
    if (!eventDate) options.report?.(`advisory '${title}': its event date could not be read ('${textOf(dateElement)}'), kept without one`);
  }
  const contentElement = [...entry.querySelectorAll("*")].find((e) => hasWord(e, /^(content|body|text|message|description|details)$/));
  const skip = new Set<HtmlElement>([titleElement, ...(dateElement ? [dateElement] : [])]);
  const parts = contentElement ? partsOf(contentElement, new Set(), false) : partsOf(entry, skip, true);
  const content = parts.join(ADVISORY_BULLET);
  return validateRecord(clubAdvisorySchema, { title, eventDate, content }, PAGE);
}

/**
 * The separate parts of a block: list items, paragraphs, lines between <br>s and text already
 * split with bullets. At the top of an entry without a content box, loose inline elements (a
 * 'posted on' line) are not content.
 */
function partsOf(block: HtmlElement, skip: Set<HtmlElement>, isEntryTop: boolean): string[] {
  const parts: string[] = [];
  let line = "";
  const flush = () => {
    for (const piece of line.split("•")) {
      const text = piece.replace(/\s+/g, " ").trim();
      if (text) parts.push(text);
    }
    line = "";
  };
  for (const node of block.childNodes) {
    if (node.nodeType === 3) {
      line += node.textContent ?? "";
      continue;
    }
    if (node.nodeType !== 1) continue;
    const element = node as HtmlElement;
    if (skip.has(element)) continue;
    const tag = tagOf(element);
    if (tag === "br") flush();
    else if (INLINE.has(tag)) {
      if (!isEntryTop) line += element.textContent ?? "";
    } else if (tag === "li") {
      flush();
      line = element.textContent ?? "";
      flush();
    } else {
      flush();
      parts.push(...partsOf(element, skip, false));
    }
  }
  flush();
  return parts;
}
