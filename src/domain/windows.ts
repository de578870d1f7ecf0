/**
 * Booking windows: which set of windows applies to a date and
 * course, and the tee-time interval.
 */
import { isHhMm, minutesOf, weekdayOf } from "./manila-time.ts";

export const WINDOW_KEYS = ["DEFAULT", "SATURDAY_MASTERS", "SUNDAY_LEGENDS"] as const;
export type WindowKey = (typeof WINDOW_KEYS)[number];

export type TimeWindow = { start_time: string; end_time: string };
export type AllowedWindows = Record<WindowKey, TimeWindow[]>;

/** Default of a new booking window in the admin area. */
export const NEW_WINDOW_DEFAULTS: TimeWindow = { start_time: "05:04", end_time: "16:48" };

export const SLOT_INTERVAL_MINUTES = 8;
export const SUNDAY_LEGENDS_LATE_INTERVAL_MINUTES = 4;
/** From this time on, Sunday Legends tee times are 4 minutes apart. */
export const SUNDAY_LEGENDS_LATE_FROM = "11:00";

const SATURDAY = 6;
const SUNDAY = 7;

function nameContains(courseName: string, word: string): boolean {
  return courseName.toLowerCase().includes(word.toLowerCase());
}

/**
 * The window set for a date and course. The Saturday/Masters rule is listed first, so it wins
 * when both could apply: Saturday on a Legends course and Sunday on a Masters course both use
 * SATURDAY_MASTERS. Course names are matched case-insensitively.
 */
export function windowKeyFor(date: string, courseName: string): WindowKey {
  return windowKeyOnDay(weekdayOf(date), courseName);
}

function windowKeyOnDay(weekday: number, courseName: string): WindowKey {
  if (weekday === SATURDAY || nameContains(courseName, "Masters")) return "SATURDAY_MASTERS";
  if (weekday === SUNDAY || nameContains(courseName, "Legends")) return "SUNDAY_LEGENDS";
  return "DEFAULT";
}

/**
 * Which courses, on which of their days, play each window set now: what a change to a set's
 * windows reaches (the admin's Booking Windows screen says it, so a DEFAULT window added while
 * every course is a Masters or Legends course is seen to apply to none).
 */
export function windowCoverage(courses: readonly { name: string; days_active: readonly number[] }[]): Record<WindowKey, { course: string; days: number[] }[]> {
  const coverage: Record<WindowKey, { course: string; days: number[] }[]> = { DEFAULT: [], SATURDAY_MASTERS: [], SUNDAY_LEGENDS: [] };
  for (const course of courses) {
    for (const key of WINDOW_KEYS) {
      const days = [...course.days_active].sort((a, b) => a - b).filter((day) => windowKeyOnDay(day, course.name) === key);
      if (days.length > 0) coverage[key].push({ course: course.name, days });
    }
  }
  return coverage;
}

/** Sunday AND a Legends course: the only case with the 4-minute interval. */
export function isSundayLegends(date: string, courseName: string): boolean {
  return weekdayOf(date) === SUNDAY && nameContains(courseName, "Legends");
}

/** Minutes from the tee time at `time` to the next one. */
export function slotIntervalMinutes(date: string, courseName: string, time: string): number {
  const isLate = minutesOf(time) >= minutesOf(SUNDAY_LEGENDS_LATE_FROM);
  return isSundayLegends(date, courseName) && isLate ? SUNDAY_LEGENDS_LATE_INTERVAL_MINUTES : SLOT_INTERVAL_MINUTES;
}

function isUsableWindow(window: TimeWindow): boolean {
  return isHhMm(window.start_time) && isHhMm(window.end_time) && window.start_time <= window.end_time;
}

/**
 * The usable windows for a date and course. When the admin has configured no window for the
 * applicable special key, the DEFAULT windows apply, so a Saturday is never left without tee
 * times just because only DEFAULT was set up (closing a course is what days_active is for).
 */
export function windowsFor(date: string, courseName: string, windows: AllowedWindows): TimeWindow[] {
  const key = windowKeyFor(date, courseName);
  const own = (windows[key] ?? []).filter(isUsableWindow);
  if (own.length > 0 || key === "DEFAULT") return own;
  return (windows.DEFAULT ?? []).filter(isUsableWindow);
}

export function emptyWindows(): AllowedWindows {
  return { DEFAULT: [], SATURDAY_MASTERS: [], SUNDAY_LEGENDS: [] };
}

/** Groups stored window rows (rule_key + times) into the allowed-windows structure; unknown keys are dropped. */
export function groupWindows(rows: readonly (TimeWindow & { rule_key: string })[]): AllowedWindows {
  const grouped = emptyWindows();
  for (const row of rows) {
    const key = row.rule_key.trim().toUpperCase();
    if ((WINDOW_KEYS as readonly string[]).includes(key)) {
      grouped[key as WindowKey].push({ start_time: row.start_time, end_time: row.end_time });
    }
  }
  for (const key of WINDOW_KEYS) grouped[key].sort((a, b) => a.start_time.localeCompare(b.start_time));
  return grouped;
}
