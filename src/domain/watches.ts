/**
 * The rules of slot watches, pure so the web app shows the same: which tee times a watch wants,
 * when it is over, and which watch gets a freed slot (the earliest made, first).
 */
import { isHhMm, minutesOf, timeFromMinutes } from "./manila-time.ts";
import { renderReason } from "./request-reasons.ts";
import { watchesText } from "./ui-text/watches.ts";

export const WATCH_MODES = ["book", "notify"] as const;
export type WatchMode = (typeof WATCH_MODES)[number];

export const WATCH_REASON_KEYS = [
  "watches.reason.booked",
  "watches.reason.found",
  "watches.reason.date_passed",
  "watches.reason.cancelled",
  "watches.reason.bad_credentials",
  "watches.reason.upgrade_gone",
] as const;
export type WatchReasonKey = (typeof WATCH_REASON_KEYS)[number];
export interface WatchReason {
  key: WatchReasonKey;
  context: Record<string, string>;
}

export const isWatchReasonKey = (key: string): key is WatchReasonKey => (WATCH_REASON_KEYS as readonly string[]).includes(key);

/** A watch reason in its default words (the API renders the admin's wording). */
export const renderWatchReason = (why: WatchReason, texts: Record<string, string> = watchesText) => renderReason(texts[why.key] ?? watchesText[why.key], why.context);

/** What the rules need to know of a watch. */
export interface WatchTarget {
  id: number;
  userId: number;
  playDate: string;
  /** null: any course. */
  courseId: string | null;
  fromTime: string;
  toTime: string;
  createdAt: number;
  /** The member's booking that an upgrade replaces: its time is never "found". */
  upgradeTime?: string | null;
  upgradeCourseId?: string | null;
}

export interface FreeSlot {
  date: string;
  courseId: string;
  time: string;
  slotId: string | null;
}

/** The range of a watch: two HH:mm times, the first before the second (an instant is no range). */
export function isValidRange(fromTime: string, toTime: string): boolean {
  return isHhMm(fromTime) && isHhMm(toTime) && fromTime < toTime;
}

/** How far past a single chosen time a suggested range reaches, so it is a range at all. */
export const SINGLE_TIME_RANGE_MINUTES = 30;

/**
 * The range a watch form starts with: the chosen times' span, else the morning; one time alone
 * reaches SINGLE_TIME_RANGE_MINUTES past it (a range of one instant is refused).
 */
export function suggestedRange(times: readonly string[]): { fromTime: string; toTime: string } {
  const sorted = [...times].sort();
  const fromTime = sorted[0] ?? "06:00";
  const last = sorted.at(-1) ?? "09:00";
  if (fromTime < last) return { fromTime, toTime: last };
  return { fromTime, toTime: timeFromMinutes(Math.min(minutesOf(fromTime) + SINGLE_TIME_RANGE_MINUTES, 23 * 60 + 59)) };
}

export function wantsSlot(watch: WatchTarget, slot: FreeSlot): boolean {
  if (slot.date !== watch.playDate) return false;
  if (watch.courseId !== null && slot.courseId !== watch.courseId) return false;
  if (slot.time < watch.fromTime || slot.time > watch.toTime) return false;
  return !(watch.upgradeTime === slot.time && (watch.upgradeCourseId ?? slot.courseId) === slot.courseId);
}

/** Over once the last time of its range has gone by in Manila (or its date has). */
export function isWatchOver(watch: Pick<WatchTarget, "playDate" | "toTime">, todayIso: string, nowTime: string): boolean {
  return watch.playDate < todayIso || (watch.playDate === todayIso && watch.toTime <= nowTime);
}

/**
 * Fairness between members: the freed slots go to the watches in the order they were made. Each
 * watch gets the earliest slot it wants that no earlier watch was given, so two watches never
 * chase the same slot at once; a slot an earlier watch could not use is handed on next pass.
 */
export function assignFreedSlots(watches: readonly WatchTarget[], slots: readonly FreeSlot[]): Map<number, FreeSlot> {
  const ordered = [...watches].sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  const sortedSlots = [...slots].sort((a, b) => a.time.localeCompare(b.time) || a.courseId.localeCompare(b.courseId));
  const given = new Set<string>();
  const out = new Map<number, FreeSlot>();
  for (const watch of ordered) {
    const mine = sortedSlots.find((s) => wantsSlot(watch, s) && !given.has(`${s.date}|${s.courseId}|${s.time}`));
    if (!mine) continue;
    given.add(`${mine.date}|${mine.courseId}|${mine.time}`);
    out.set(watch.id, mine);
  }
  return out;
}
