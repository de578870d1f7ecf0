/** Small helpers shared by the page parsers: parse once, read text, fail with a typed error. */
import { parseHTML } from "linkedom";
import type { z } from "zod";
import { pageNotUnderstood } from "../errors.ts";

export type HtmlDocument = ReturnType<typeof parseHTML>["document"];
export type HtmlElement = NonNullable<ReturnType<HtmlDocument["querySelector"]>>;

export function parseDocument(html: string): HtmlDocument {
  return parseHTML(html).document;
}

/** Text content with runs of white space collapsed, as a person reads it. */
export function textOf(element: { textContent: string | null } | null | undefined): string {
  return (element?.textContent ?? "").replace(/\s+/g, " ").trim();
}

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

/** '5:04 AM' / '12:40 PM' / '05:04' → 'HH:mm'; null when it is none of these. */
export function parseClubTime(value: string): string | null {
  const match = /^(\d{1,2}):(\d{2})\s*([AaPp][Mm])?$/.exec(value.trim());
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const suffix = match[3]?.toUpperCase();
  if (suffix) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (suffix === "PM" ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
}

/** The session's form token that every member page carries in its head. */
export function readCsrfMeta(document: HtmlDocument, page: string): string {
  const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute("content")?.trim();
  if (!token) throw pageNotUnderstood(page, "form token (csrf-token meta)");
  return token;
}

/** Validates a parsed record; a mismatch means we misread the page, so it is page_not_understood. */
export function validateRecord<T>(schema: z.ZodType<T>, value: unknown, page: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw pageNotUnderstood(page, `valid ${issue?.path.join(".") || "record"} (${issue?.message ?? "invalid"})`);
}

/** 'Masters' → 'masters', 'Championship Course' → 'championship-course'. */
export function courseIdFromName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
