/**
 * Readers of the club's written times, dates, statuses and course names, in the forms
 * hand-made portals use. They return null (or report) instead of guessing: a misread
 * date or time books the wrong tee time, an unread one only costs a page.
 */
import { clockTime, isIsoDate } from "../domain/manila-time.ts";

/** How a club writes a date of only numbers: 05/03/2025 is 5 March ('dmy') or May 3 ('mdy'). */
export type NumericDateOrder = "dmy" | "mdy";

/** A Teebox course as the adapter matches the club's names against it. */
export interface CourseNames {
  id: string;
  name: string;
  /** Other names the club writes for this course, added by an admin. */
  aliases?: readonly string[];
}

/** What a parser may be told about the club, and where it says what it skipped. */
export interface PageReadOptions {
  courses?: readonly CourseNames[];
  /** Numeric dates are refused unless the adapter is told the club's order. */
  numericDateOrder?: NumericDateOrder | null;
  /** Called with a person-readable line for each part of a page skipped or read with a gap. */
  report?: (problem: string) => void;
}

const TIME = /(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s*m\b\.?)?/i;

/**
 * '05:04', '5:04', '05:04:00', '5:04 AM', '5:04 a.m.', '17:04' → 'HH:mm'. The first time
 * found in the text; null when there is none or it is not a real time.
 */
export function readClubTime(text: string): string | null {
  const match = TIME.exec(text);
  if (!match || (match[3] !== undefined && Number(match[3]) > 59)) return null;
  return clockTime(Number(match[1]), Number(match[2]), match[4]);
}

/** True when the text is a time and nothing else (a time cell, not a sentence with a time in it). */
export function isTimeOnly(text: string): boolean {
  const cleaned = text.trim();
  const match = TIME.exec(cleaned);
  return !!match && match.index === 0 && cleaned.slice(match[0].length).trim() === "" && readClubTime(cleaned) !== null;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_WORD = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";

const pad = (n: number) => String(n).padStart(2, "0");

function isoOf(year: number, month: number, day: number): string | null {
  const iso = `${year}-${pad(month)}-${pad(day)}`;
  return isIsoDate(iso) ? iso : null;
}

const monthNumber = (word: string) => MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;

const DATE_FORMS: { pattern: RegExp; read: (m: RegExpExecArray, order: NumericDateOrder | null) => string | null }[] = [
  // 2025-03-05, 2025/03/05
  { pattern: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/, read: (m) => isoOf(Number(m[1]), Number(m[2]), Number(m[3])) },
  // Mar 5, 2025 · Wednesday, March 5, 2025 · March 5 2025 (Wed)
  { pattern: new RegExp(`\\b${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "i"), read: (m) => isoOf(Number(m[3]), monthNumber(m[1]), Number(m[2])) },
  // 5 Mar 2025 · Wednesday 5 March, 2025
  { pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_WORD},?\\s+(\\d{4})\\b`, "i"), read: (m) => isoOf(Number(m[3]), monthNumber(m[2]), Number(m[1])) },
  // 05/03/2025: only with the club's order, never guessed
  {
    pattern: /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b/,
    read: (m, order) => (order === "dmy" ? isoOf(Number(m[3]), Number(m[2]), Number(m[1])) : order === "mdy" ? isoOf(Number(m[3]), Number(m[1]), Number(m[2])) : null),
  },
];

/** The first date written in the text, in any form the adapter knows; null when none can be read. */
export function readClubDate(text: string, order: NumericDateOrder | null = null): string | null {
  const found = DATE_FORMS.map((form) => {
    const match = form.pattern.exec(text);
    return match ? { at: match.index, iso: form.read(match, order) } : null;
  }).filter((f): f is { at: number; iso: string | null } => f !== null);
  found.sort((a, b) => a.at - b.at);
  return found[0]?.iso ?? null;
}

/** True when the text carries something shaped like a date, readable or not (for reporting). */
export function looksLikeDate(text: string): boolean {
  return DATE_FORMS.some((form) => form.pattern.test(text));
}

/**
 * A status reading AVAILABLE (any case, with extra words such as a count of spots)
 * is available; any other text is unavailable. 'Blocked' and 'Closed' keep their own value so
 * the sheet can show why; every other word, known or not, is taken.
 */
export function readSlotStatus(text: string): "AVAILABLE" | "BOOKED" | "BLOCKED" {
  const words = text.toLowerCase();
  if (/\bavailable\b/.test(words) && !/\b(not|no longer|un)\s*-?available\b/.test(words)) return "AVAILABLE";
  if (/\b(blocked|closed|maintenance)\b/.test(words)) return "BLOCKED";
  return "BOOKED";
}

/** 'THE MASTERS', 'Masters Course', 'masters' → 'masters'. */
export function normaliseCourseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/&amp;/g, "&")
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((word) => word && !["the", "course", "golf", "links"].includes(word))
    .join(" ");
}

/** The Teebox course a club's course name stands for, by name or alias; null when none. */
export function matchCourse(name: string, courses: readonly CourseNames[]): CourseNames | null {
  const wanted = normaliseCourseName(name);
  if (!wanted) return null;
  return courses.find((course) => [course.id, course.name, ...(course.aliases ?? [])].some((candidate) => normaliseCourseName(candidate) === wanted)) ?? null;
}

/** Course names found inside a longer text ('THE MASTERS – Wednesday…'), longest name first. */
export function findCourseIn(text: string, courses: readonly CourseNames[]): CourseNames | null {
  const haystack = ` ${normaliseCourseName(text)} `;
  const candidates = courses.flatMap((course) => [course.name, ...(course.aliases ?? []), course.id].map((n) => ({ course, key: normaliseCourseName(n) })));
  candidates.sort((a, b) => b.key.length - a.key.length);
  return candidates.find((c) => c.key && haystack.includes(` ${c.key} `))?.course ?? null;
}

/** 'Masters' → 'masters', 'Palms Nine' → 'palms-nine': the id of a course Teebox does not know. */
export function courseIdFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
