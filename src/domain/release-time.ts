/**
 * When the club opens a play date for booking: (play date − release_days_before days) at
 * release_time, Manila time. A request made before that instant is queued until it.
 */
import { addDays, manilaInstant } from "./manila-time.ts";

export type ReleaseSettings = { release_days_before: number; release_time: string };

export function releaseDate(playDate: string, settings: Pick<ReleaseSettings, "release_days_before">): string {
  return addDays(playDate, -settings.release_days_before);
}

/** Epoch ms of the release instant of `playDate`. */
export function releaseInstant(playDate: string, settings: ReleaseSettings): number {
  return manilaInstant(releaseDate(playDate, settings), settings.release_time);
}

/** True from the release instant on (the instant itself counts as released). */
export function isReleased(playDate: string, settings: ReleaseSettings, nowMs: number): boolean {
  return nowMs >= releaseInstant(playDate, settings);
}
