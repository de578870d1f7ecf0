/**
 * Which dates the booking page offers and whether each has live or estimated tee times
 *.
 */
import { addDays, dayName, formatMonthDay, manilaDate, manilaHour } from "./manila-time.ts";
import { isSlotAvailable, type TeeTime } from "./estimated-slots.ts";

export type TeeTimeDay = { date: string; course: string; tee_times: TeeTime[] };
export type DateEntry = { dateStr: string; dayName: string; monthDay: string };
export type DateKind = "live" | "estimated" | "unavailable";

export function toDateEntry(date: string): DateEntry {
  return { dateStr: date, dayName: dayName(date), monthDay: formatMonthDay(date) };
}

/** The first bookable date: today in Manila, or tomorrow once the Manila hour reaches `rollHour`. */
export function firstBookableDate(nowMs: number, rollHour: number): string {
  const today = manilaDate(nowMs);
  return manilaHour(nowMs) >= rollHour ? addDays(today, 1) : today;
}

/** The first and last date the date picker offers: a submission must fall between them. */
export function offeredDateRange(nowMs: number, settings: { ui_date_range_days: number; booking_roll_hour: number }): { minDate: string; maxDate: string } {
  const first = firstBookableDate(nowMs, settings.booking_roll_hour);
  return { minDate: first, maxDate: addDays(first, Math.max(0, Math.floor(settings.ui_date_range_days) - 1)) };
}

export function listBookableDates(nowMs: number, rangeDays: number, rollHour: number): DateEntry[] {
  const first = firstBookableDate(nowMs, rollHour);
  const count = Math.max(0, Math.floor(rangeDays));
  return Array.from({ length: count }, (_, i) => toDateEntry(addDays(first, i)));
}

/**
 * A date has data when some course has at least one tee time for it: the scraper may store an
 * empty sheet for a date the club has not opened, and that is no data. For today, data counts
 * only when some slot is still AVAILABLE.
 */
export function hasLiveData(date: string, todayIso: string, days: readonly TeeTimeDay[]): boolean {
  const slots = days.filter((d) => d.date === date).flatMap((d) => d.tee_times);
  if (date === todayIso) return slots.some(isSlotAvailable);
  return slots.length > 0;
}

export function dateKind(date: string, todayIso: string, days: readonly TeeTimeDay[]): DateKind {
  if (date < todayIso) return "unavailable";
  if (hasLiveData(date, todayIso, days)) return "live";
  return date > addDays(todayIso, 1) ? "estimated" : "unavailable";
}

export function groupDatesByKind(entries: readonly DateEntry[], todayIso: string, days: readonly TeeTimeDay[]): { live: DateEntry[]; estimated: DateEntry[] } {
  const live: DateEntry[] = [];
  const estimated: DateEntry[] = [];
  for (const entry of entries) {
    const kind = dateKind(entry.dateStr, todayIso, days);
    if (kind === "live") live.push(entry);
    else if (kind === "estimated") estimated.push(entry);
  }
  return { live, estimated };
}

/** The tee times of one date and course from the live data, or null when there are none. */
export function liveTeeTimes(date: string, course: string, days: readonly TeeTimeDay[]): TeeTime[] | null {
  const day = days.find((d) => d.date === date && d.course.toLowerCase() === course.toLowerCase());
  return day && day.tee_times.length > 0 ? day.tee_times : null;
}
