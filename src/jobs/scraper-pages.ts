/**
 * The scraper's pure parts: which sheets a run reads, whether what it read changed anything, and
 * the one line the monitor shows for the pages that failed.
 */
import type { ClubAdvisory, ClubTeeSheet } from "../club/client.ts";
import { isCourseActiveOn, type Course } from "../domain/booking-rules.ts";
import { isSlotAvailable } from "../domain/estimated-slots.ts";
import { addDays } from "../domain/manila-time.ts";
import type { AppSettings } from "../domain/settings.ts";

export interface SheetPage {
  date: string;
  course: string;
}

export interface PageFailure {
  /** 'tee sheet masters 2026-11-24' or 'advisories'. */
  page: string;
  /** The adapter's kind of failure ('session_expired', 'unavailable' …), or 'error'. */
  reason: string;
  message: string;
}

export type PageResult = { page: SheetPage; sheet: ClubTeeSheet } | { page: SheetPage; failure: PageFailure };

export type StoredSlot = { time: string; status: string; slotId: string | null };

export const pageName = (page: SheetPage) => `tee sheet ${page.course} ${page.date}`;
export const sheetKey = (date: string, course: string) => `${date}|${course}`;

/** How the monitor words each kind of failure. */
const REASON_WORDS: Record<string, string> = {
  session_expired: "the club ended the session and a new sign-in did not hold",
  unavailable: "the club did not answer",
  page_not_understood: "the page could not be read",
  bad_credentials: "the club refused the scraper's login",
  not_found: "the club has no such page",
  busy: "skipped: the club's request budget was spent (or the club asked Teebox to slow down)",
  slow_down: "the club asked Teebox to slow down",
};

/** Failures named at most this many at a time per reason; the rest are counted. */
export const NAMED_FAILURES = 3;

/**
 * One line for the monitor: how many pages failed, grouped by reason, the first few of each
 * named, instead of one clause per page.
 */
export function summariseFailures(failures: readonly PageFailure[], pages: number): string {
  const byReason = new Map<string, PageFailure[]>();
  for (const failure of failures) byReason.set(failure.reason, [...(byReason.get(failure.reason) ?? []), failure]);
  const groups = [...byReason.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([reason, list]) => {
      const named = list.slice(0, NAMED_FAILURES).map((f) => f.page);
      const more = list.length > NAMED_FAILURES ? ` and ${list.length - NAMED_FAILURES} more` : "";
      const first = list[0].message;
      return `${list.length} × ${REASON_WORDS[reason] ?? reason} (${named.join(", ")}${more}; first: ${first})`;
    });
  return `${failures.length} of ${pages} pages could not be read: ${groups.join("; ")}`;
}

export function sameSlots(stored: readonly StoredSlot[], fresh: readonly StoredSlot[]): boolean {
  if (stored.length !== fresh.length) return false;
  const byTime = new Map(stored.map((s) => [s.time, s]));
  return fresh.every((s) => {
    const old = byTime.get(s.time);
    return old !== undefined && old.status === s.status && old.slotId === s.slotId;
  });
}

export function sameAdvisories(stored: readonly { title: string; eventDate: string | null; content: string }[], fresh: readonly ClubAdvisory[]): boolean {
  return stored.length === fresh.length && fresh.every((a, i) => a.title === stored[i].title && a.eventDate === stored[i].eventDate && a.content === stored[i].content);
}

/** One slot per time (a sheet listing a time twice keeps its first row). */
export function slotsOf(sheet: ClubTeeSheet): StoredSlot[] {
  const seen = new Set<string>();
  const slots: StoredSlot[] = [];
  for (const slot of sheet.slots) {
    if (seen.has(slot.time)) continue;
    seen.add(slot.time);
    slots.push({ time: slot.time, status: slot.status, slotId: slot.slotId });
  }
  return slots;
}

/** The sheets to read: every active course on every date of the range, less full days of skip-on-full courses. */
export function planPages(today: string, settings: AppSettings, courseList: readonly Course[], stored: ReadonlyMap<string, StoredSlot[]>): SheetPage[] {
  const skipWhenFull = new Set(settings.courses_to_skip_on_full.map((id) => id.toLowerCase()));
  const pages: SheetPage[] = [];
  for (let i = 0; i < settings.scraper_date_range_days; i++) {
    const date = addDays(today, i);
    for (const course of courseList) {
      if (!isCourseActiveOn(course, date)) continue;
      const slots = stored.get(sheetKey(date, course.id)) ?? [];
      const isFull = slots.length > 0 && !slots.some(isSlotAvailable);
      if (isFull && skipWhenFull.has(course.id.toLowerCase())) continue;
      pages.push({ date, course: course.id });
    }
  }
  return pages;
}
