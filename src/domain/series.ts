/**
 * The rules of standing requests (a member's weekly game), pure so the web app shows the same:
 * which dates a series plays, when each date can first be queued, which times a range means, the
 * checks of a series' shape, and the rotation that orders occurrences wanting the same release
 * (decision 181).
 */
import { addDays, daysBetween, isHhMm, isIsoDate, manilaInstant, weekdayOf } from "./manila-time.ts";

/** Bounds of a series (docs/limits.md). */
export const SERIES_LIMITS = {
  /** Active series per member. */
  maxActivePerMember: 5,
  /** Dates a series may skip. */
  maxSkipDates: 60,
  /** A series' first date at most this far ahead. */
  maxStartDaysAhead: 366,
  /** Next dates the Bookings page lists per series. */
  listedAhead: 4,
} as const;

/** When a series plays: weekdays (1 = Monday … 7 = Sunday), from a start date to an optional end, less the skipped dates. */
export interface SeriesCalendar {
  weekdays: readonly number[];
  startDate: string;
  endDate: string | null;
  skipDates: readonly string[];
}

export type SeriesProblemKey =
  | "series.error.no_weekdays"
  | "series.error.bad_weekday"
  | "series.error.bad_date"
  | "series.error.start_past"
  | "series.error.start_too_far"
  | "series.error.end_before_start"
  | "series.error.skip_outside"
  | "series.error.too_many_skips"
  | "series.error.no_times"
  | "series.error.bad_range";

export interface SeriesProblem {
  key: SeriesProblemKey;
  context: Record<string, string>;
}

const problem = (key: SeriesProblemKey, context: Record<string, string> = {}): SeriesProblem => ({ key, context });

/** The shape checks of a series' calendar, first problem wins; `todayIso` is today in Manila. */
export function checkSeriesCalendar(calendar: SeriesCalendar, todayIso: string): SeriesProblem | null {
  if (calendar.weekdays.length === 0) return problem("series.error.no_weekdays");
  const badDay = calendar.weekdays.find((d) => !Number.isInteger(d) || d < 1 || d > 7);
  if (badDay !== undefined) return problem("series.error.bad_weekday", { day: String(badDay) });
  for (const date of [calendar.startDate, ...(calendar.endDate ? [calendar.endDate] : []), ...calendar.skipDates]) {
    if (!isIsoDate(date)) return problem("series.error.bad_date", { date });
  }
  if (calendar.startDate < todayIso) return problem("series.error.start_past", { date: calendar.startDate });
  if (daysBetween(todayIso, calendar.startDate) > SERIES_LIMITS.maxStartDaysAhead) return problem("series.error.start_too_far", { max: String(SERIES_LIMITS.maxStartDaysAhead) });
  if (calendar.endDate !== null && calendar.endDate < calendar.startDate) return problem("series.error.end_before_start", { start: calendar.startDate, end: calendar.endDate });
  if (calendar.skipDates.length > SERIES_LIMITS.maxSkipDates) return problem("series.error.too_many_skips", { max: String(SERIES_LIMITS.maxSkipDates) });
  const outside = calendar.skipDates.find((d) => d < calendar.startDate || (calendar.endDate !== null && d > calendar.endDate));
  if (outside) return problem("series.error.skip_outside", { date: outside });
  return null;
}

/** Whether the series plays on `date` (a weekday of it, inside its dates, not skipped). */
export function playsOn(calendar: SeriesCalendar, date: string): boolean {
  if (date < calendar.startDate || (calendar.endDate !== null && date > calendar.endDate)) return false;
  return calendar.weekdays.includes(weekdayOf(date)) && !calendar.skipDates.includes(date);
}

/** The series' dates from `from` to `to` (both included), in order. */
export function occurrenceDates(calendar: SeriesCalendar, from: string, to: string): string[] {
  const first = from > calendar.startDate ? from : calendar.startDate;
  const last = calendar.endDate !== null && calendar.endDate < to ? calendar.endDate : to;
  const dates: string[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) if (playsOn(calendar, date)) dates.push(date);
  return dates;
}

/** The next `count` dates the series plays on from `from` on (skipped dates left out). */
export function nextOccurrenceDates(calendar: SeriesCalendar, from: string, count: number): string[] {
  const dates: string[] = [];
  // A year of days at most: a series whose every weekday is skipped cannot loop for ever.
  for (let date = from > calendar.startDate ? from : calendar.startDate, i = 0; dates.length < count && i < 400; date = addDays(date, 1), i++) {
    if (calendar.endDate !== null && date > calendar.endDate) break;
    if (playsOn(calendar, date)) dates.push(date);
  }
  return dates;
}

/**
 * The instant a play date can first be queued: the Book page offers `ui_date_range_days` dates
 * from the first bookable one, which moves to tomorrow at `booking_roll_hour` (Manila). So the
 * last offered date becomes `date` at the roll hour, `ui_date_range_days` days before it.
 */
export function queueOpensAt(date: string, settings: { ui_date_range_days: number; booking_roll_hour: number }): number {
  const range = Math.max(1, Math.floor(settings.ui_date_range_days));
  return manilaInstant(addDays(date, -range)) + settings.booking_roll_hour * 3_600_000;
}

/** The tee times of `grid` inside a range (both ends included), in order: the priority list a range means. */
export function timesInRange(fromTime: string, toTime: string, grid: readonly string[]): string[] {
  return [...new Set(grid)].filter((t) => t >= fromTime && t <= toTime).sort();
}

export const isValidTimeRange = (fromTime: string, toTime: string) => isHhMm(fromTime) && isHhMm(toTime) && fromTime <= toTime;

/**
 * Occurrences made at the same moment for the same release and course are ordered by a rotation
 * (decision 181): the series that led such a release least recently goes first (one that never
 * led, before any that did), ties by the older series. The engine sends earliest-submitted first,
 * so this order is the order of their turns at the instant; the leader then moves to the back.
 */
export interface RotationEntry {
  seriesId: number;
  /** The release instant of the last occurrence this series led (null: never). */
  ledAt: number | null;
}

export function rotationOrder<T extends RotationEntry>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => (a.ledAt ?? Number.NEGATIVE_INFINITY) - (b.ledAt ?? Number.NEGATIVE_INFINITY) || a.seriesId - b.seriesId);
}

/** A series' place in one release's line: 1-based, of how many. */
export interface LinePlace {
  place: number;
  of: number;
}
