/**
 * Rivals: other golfers who grab a share of the popular slots shortly after each release,
 * so that being quick at the release instant matters. Deterministic under the seed.
 * Popular by default: tee times from 06:00 up to (not including) 08:00, every day.
 */
import { addDays, manilaDate, manilaInstant, DAY_MS } from "../domain/manila-time.ts";
import type { Clock } from "../lib/clock.ts";
import { CLUB_COURSES, GUEST_FEE_CHOICES } from "./demo-data.ts";
import { hashUnit } from "./random.ts";
import type { ClubState } from "./state.ts";
import { isCourseOpenOn } from "./tee-sheet.ts";

export interface RivalsOptions {
  /** Share (0–1) of the popular available slots the rivals take. */
  share: number;
  /** How long after the release instant (club clock) the rivals book. */
  delayMs: number;
  popular?: (time: string, date: string, courseId: string) => boolean;
  /**
   * Rivals who also cancel: every this many ms (our clock) one rival booking of a date still
   * ahead is cancelled at random, so its slot comes free as real cancellations do. Off when absent.
   */
  cancelEveryMs?: number;
}

export const isPopularByDefault = (time: string) => time >= "06:00" && time < "08:00";

export interface RivalsDeps {
  state: ClubState;
  clock: Clock;
  clubNow(): number;
  clockOffsetMs(): number;
  options: RivalsOptions;
}

export interface Rivals {
  /** Books the rivals' share of a play date now; returns the slot ids they took. */
  runFor(date: string): string[];
  /** One rival cancels one of their bookings still ahead now; its reference, or null. */
  cancelOne(): string | null;
  /** Re-plans the next wake-up (the club clock offset or the opening delay changed). */
  reschedule(): void;
  stop(): void;
}

export function createRivals(deps: RivalsDeps): Rivals {
  const { state, options } = deps;
  const popular = options.popular ?? isPopularByDefault;
  let stopped = false;
  let wake: AbortController | null = null;

  function runFor(date: string): string[] {
    const taken: string[] = [];
    for (const course of CLUB_COURSES) {
      if (!isCourseOpenOn(course, date)) continue;
      const candidates = state
        .sheet(date, course.id)
        .filter((s) => s.status === "AVAILABLE" && popular(s.time, date, course.id))
        .sort((a, b) => hashUnit(state.options.seed, `rival|${a.slotId}`) - hashUnit(state.options.seed, `rival|${b.slotId}`));
      const count = Math.round(options.share * candidates.length);
      for (const [i, slot] of candidates.slice(0, count).entries()) {
        const email = `rival${(i % 20) + 1}@rivals.demo`;
        const player = { type: "Guest", firstName: "Rival", lastName: `Golfer ${i + 1}`, memberId: null, cart: "Walking", fee: GUEST_FEE_CHOICES[0] };
        const now = deps.clubNow();
        const result = state.book(email, { date, courseId: course.id, slotId: slot.slotId, time: slot.time, players: [player] }, now);
        state.recordAttempt({
          slotId: slot.slotId,
          date,
          time: slot.time,
          course: course.id,
          email,
          arrivedClubMs: now,
          outcome: result.ok ? "confirmed" : result.outcome,
          ref: result.ok ? result.booking.ref : null,
          isRival: true,
        });
        if (result.ok) taken.push(slot.slotId);
      }
    }
    return taken;
  }

  /** Moments (club clock) at which rivals act for each release after `afterMs`, earliest first: shortly after the date really opens. */
  function dueMomentsBetween(afterMs: number, untilMs: number): { dueMs: number; playDate: string }[] {
    const due: { dueMs: number; playDate: string }[] = [];
    const after = options.delayMs + (state.options.openingDelayMs?.() ?? 0);
    for (let day = manilaDate(afterMs - after - DAY_MS); ; day = addDays(day, 1)) {
      const dueMs = manilaInstant(day, state.release.releaseTime) + after;
      if (dueMs > untilMs) break;
      if (dueMs > afterMs) due.push({ dueMs, playDate: addDays(day, state.release.releaseDaysBefore) });
    }
    return due;
  }

  async function loop(): Promise<void> {
    let lastClubMs = deps.clubNow();
    while (!stopped) {
      const [next] = dueMomentsBetween(lastClubMs, lastClubMs + 3 * DAY_MS);
      wake = new AbortController();
      await deps.clock.sleepUntil(next.dueMs - deps.clockOffsetMs(), wake.signal);
      if (stopped) return;
      const now = deps.clubNow();
      if (now < next.dueMs) continue;
      for (const moment of dueMomentsBetween(lastClubMs, now)) runFor(moment.playDate);
      lastClubMs = now;
    }
  }

  /** One rival cancels one booking of a date still ahead; the freed booking, or null. */
  function cancelOne(): string | null {
    const today = manilaDate(deps.clubNow());
    const held = state.bookingsEndingWith("@rivals.demo").filter((b) => b.date >= today);
    if (held.length === 0) return null;
    const pick = held[Math.floor(state.random() * held.length)];
    return state.cancelBooking(pick.email, pick.ref)?.ref ?? null;
  }

  let cancelWake: AbortController | null = null;
  async function cancelLoop(everyMs: number): Promise<void> {
    while (!stopped) {
      cancelWake = new AbortController();
      await deps.clock.sleepUntil(deps.clock.now() + everyMs, cancelWake.signal);
      if (stopped) return;
      cancelOne();
    }
  }

  void loop();
  if (options.cancelEveryMs && options.cancelEveryMs > 0) void cancelLoop(options.cancelEveryMs);
  return {
    runFor,
    cancelOne,
    reschedule: () => wake?.abort(),
    stop() {
      stopped = true;
      wake?.abort();
      cancelWake?.abort();
    },
  };
}
