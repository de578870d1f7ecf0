/**
 * Manila date and time helpers. Asia/Manila is UTC+8 all year (no daylight saving),
 * so every conversion is a fixed offset and gives the same answer in any process zone.
 * Dates are ISO strings `YYYY-MM-DD`, times `HH:mm`, days of week 1 = Monday … 7 = Sunday.
 */
export const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

const pad = (n: number) => String(n).padStart(2, "0");

/** A UTC Date whose UTC fields read as Manila wall-clock fields. */
function manilaFields(epochMs: number): Date {
  return new Date(epochMs + MANILA_OFFSET_MS);
}

export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function isHhMm(value: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}

/** The Manila calendar date of an instant, as `YYYY-MM-DD`. */
export function manilaDate(epochMs: number): string {
  return manilaFields(epochMs).toISOString().slice(0, 10);
}

/** The Manila wall-clock time of an instant, as `HH:mm:ss`. */
export function manilaTimeOfDay(epochMs: number): string {
  return manilaFields(epochMs).toISOString().slice(11, 19);
}

export function manilaHour(epochMs: number): number {
  return manilaFields(epochMs).getUTCHours();
}

/** The instant of a Manila wall-clock date and time (`HH:mm` or `HH:mm:ss`). */
export function manilaInstant(date: string, time = "00:00"): number {
  const [h, m, s = 0] = time.split(":").map(Number);
  const [y, mo, d] = date.split("-").map(Number);
  return Date.UTC(y, mo - 1, d, h, m, s) - MANILA_OFFSET_MS;
}

export function addDays(date: string, days: number): string {
  const [y, mo, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, mo - 1, d + days)).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both ISO dates). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Day of week of an ISO date: 1 = Monday … 7 = Sunday. */
export function weekdayOf(date: string): number {
  const js = new Date(`${date}T00:00:00Z`).getUTCDay();
  return js === 0 ? 7 : js;
}

export function dayName(date: string): string {
  return DAY_NAMES[weekdayOf(date) - 1];
}

export function shortDayName(day: number): string {
  return DAY_NAMES[day - 1].slice(0, 3);
}

/** 'Mar 5, 2025' */
export function formatEventDate(date: string): string {
  const [y, mo, d] = date.split("-").map(Number);
  return `${MONTHS[mo - 1]} ${d}, ${y}`;
}

/** 'Mar 5' */
export function formatMonthDay(date: string): string {
  const [, mo, d] = date.split("-").map(Number);
  return `${MONTHS[mo - 1]} ${d}`;
}

/** 'Wednesday Mar 5, 2025' — the club's way of writing a booking date. */
export function formatLongDate(date: string): string {
  return `${dayName(date)} ${formatEventDate(date)}`;
}

/** Reads an ISO date or the club's 'Weekday Mon d, yyyy'; null when it is neither. */
export function parseBookingDate(value: string): string | null {
  const trimmed = value.trim();
  const iso = trimmed.slice(0, 10);
  if (isIsoDate(iso)) return iso;
  const match = /^(?:[A-Za-z]+,?\s+)?([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s*(\d{4})$/.exec(trimmed);
  if (!match) return null;
  const month = MONTHS.findIndex((m) => m.toLowerCase() === match[1].toLowerCase());
  if (month < 0) return null;
  const result = `${match[3]}-${pad(month + 1)}-${pad(Number(match[2]))}`;
  return isIsoDate(result) ? result : null;
}

/** 'HH:mm:ss' of an instant in Manila, or dashes when unknown (the header's last-updated time). */
export function formatClockTime(epochMs: number | null | undefined): string {
  return epochMs == null || Number.isNaN(epochMs) ? "--:--:--" : manilaTimeOfDay(epochMs);
}

/** Minutes since midnight of an `HH:mm` time. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number);
  return h * 60 + m;
}

export function timeFromMinutes(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * A wall-clock time written as 'HH:mm', 'H:mm', 'HH:mm:ss' or 'h:mm AM' (the club's pages use the
 * 12-hour form) as 'HH:mm'; null when it is none of these.
 */
export function normaliseTime(value: string): string | null {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*([AaPp])[Mm])?$/.exec(value.trim());
  return match ? clockTime(Number(match[1]), Number(match[2]), match[3]) : null;
}

/**
 * 'HH:mm' of a wall-clock time given as hours and minutes, on the 24-hour clock or, with a
 * meridiem ('a'/'p', any case), the 12-hour one; null when it is not a real time.
 */
export function clockTime(hours: number, minutes: number, meridiem?: string): string | null {
  let h = hours;
  const half = meridiem?.toLowerCase();
  if (half) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (half === "p" ? 12 : 0);
  }
  const result = `${pad(h)}:${pad(minutes)}`;
  return isHhMm(result) ? result : null;
}
