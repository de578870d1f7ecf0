/**
 * Estimated tee times: when the club has not published a tee sheet yet, the app shows
 * slots generated from the allowed windows.
 */
import { isHhMm, minutesOf, timeFromMinutes } from "./manila-time.ts";
import { slotIntervalMinutes, windowsFor, type AllowedWindows } from "./windows.ts";

export type TeeTime = { time: string; status: string; slotId: string | null };

/** The end of a new window; the windows an admin sets decide. */
export const DEFAULT_LATEST_TEE_TIME = "16:48";
export const AVAILABLE = "AVAILABLE";

export function isSlotAvailable(slot: Pick<TeeTime, "status">): boolean {
  return slot.status === AVAILABLE;
}

/** Morning slots are before 12:00. */
export function isMorning(time: string): boolean {
  return minutesOf(time) < 12 * 60;
}

/**
 * Slots start at each window's start and step by the interval in force at the current slot
 * (so on Sunday Legends a 10:56 slot is followed by 11:04, then every 4 minutes). Both the window
 * end and `latest` are inclusive. Without `latest`, the windows alone decide: an admin who moves
 * a window's end past 16:48 gets the later tee times too.
 */
export function generateEstimatedSlots(date: string, courseName: string, windows: AllowedWindows, latest?: string): TeeTime[] {
  const latestMinutes = latest !== undefined && isHhMm(latest) ? minutesOf(latest) : Number.POSITIVE_INFINITY;
  const times = new Set<number>();
  for (const window of windowsFor(date, courseName, windows)) {
    const last = Math.min(minutesOf(window.end_time), latestMinutes);
    for (let t = minutesOf(window.start_time); t <= last; ) {
      times.add(t);
      t += slotIntervalMinutes(date, courseName, timeFromMinutes(t));
    }
  }
  return [...times].sort((a, b) => a - b).map((t) => ({ time: timeFromMinutes(t), status: AVAILABLE, slotId: null }));
}

/**
 * Server-side check of a chosen time: inside some window (both ends inclusive) of the set that
 * applies. The time need not sit on the estimated grid, because live club tee sheets are not
 * always spaced like the estimate.
 */
export function isTimeInWindows(date: string, courseName: string, time: string, windows: AllowedWindows): boolean {
  if (!isHhMm(time)) return false;
  return windowsFor(date, courseName, windows).some((w) => w.start_time <= time && time <= w.end_time);
}
