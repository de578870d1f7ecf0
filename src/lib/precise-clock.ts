/**
 * Our wall clock to a fraction of a millisecond, for the two things that time a release to the
 * club's clock: the stamps on the clock probes and the first wave's wait (decision 202). Date.now()
 * reads whole milliseconds, which cost every post up to two of them: a probe's answer read at r
 * arrived before r + 1, so the offset's bounds widen by 1 ms, and a wave that waits for Date.now()
 * to reach a fractional instant leaves at the next whole one.
 *
 * performance.now() counts finely from the thread's own origin (each thread has its own); it is tied
 * to the wall clock here by watching Date.now() tick: the tick to d happened between the last read
 * of d − 1 and the first read of d, which pins `wall − performance.now()` to the gap between those
 * two reads (well under a microsecond when nothing preempts the loop). Every reading checks itself
 * against Date.now(): a wall clock set by hand or stepped by NTP is calibrated again. NTP's gradual
 * corrections move both clocks alike; a small step is caught by the next readings that fall past
 * the millisecond Date.now() shows, which a clock probe's spread-out readings soon make.
 */

export interface PreciseClock {
  /** Epoch milliseconds, fractional. */
  now(): number;
  /** How far a reading may be from the true wall clock, either way. */
  errorMs(): number;
}

/** Ticks watched at most per calibration (each one costs up to a millisecond of spinning). */
const MAX_TICKS = 6;
/** A tick seen within this gap pins the clock well enough; more ticks are watched while none is. */
const TIGHT_GAP_MS = 0.02;
/** What a reading is trusted to at best: the gap at the tick, rounding, the clocks' own steps. */
const ERROR_FLOOR_MS = 0.05;

interface Calibration {
  /** wall − performance.now() */
  shiftMs: number;
  errorMs: number;
}

/**
 * Watches Date.now() tick and narrows `wall − performance.now()` to the tightest pair of reads around
 * a tick. Each Date.now() is bracketed by a fine read before and after it: the tick to d happened
 * after the fine read before the last Date.now() that said d − 1, and before the fine read after the
 * first that says d. (A fine read taken only after each Date.now() is no bound: a thread paused
 * between the two reads would place the tick up to the pause later than it was, and every reading
 * would then be that much behind, beyond the error it claims.)
 */
function calibrate(): Calibration {
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  let previousBefore = performance.now();
  let previousWall = Date.now();
  let ticks = 0;
  while (ticks < MAX_TICKS) {
    const before = performance.now();
    const wall = Date.now();
    const after = performance.now();
    if (wall !== previousWall) {
      ticks++;
      // The tick to `wall` fell after previousBefore and at or before after.
      lo = Math.max(lo, wall - after);
      hi = Math.min(hi, wall - previousBefore);
      if (hi - lo <= TIGHT_GAP_MS) break;
    }
    previousWall = wall;
    previousBefore = before;
  }
  // Disjoint bounds mean the wall clock moved while we watched: trust the last tick alone.
  if (lo > hi) hi = lo + 1;
  return { shiftMs: (lo + hi) / 2, errorMs: Math.max(ERROR_FLOOR_MS, (hi - lo) / 2 + ERROR_FLOOR_MS) };
}

/** A precise clock for this thread, calibrated on its first reading (a few milliseconds of spinning). */
export function createPreciseClock(): PreciseClock {
  let calibration: Calibration | null = null;
  const current = (): Calibration => (calibration ??= calibrate());
  return {
    now() {
      const reading = current().shiftMs + performance.now();
      const wall = Date.now();
      // Outside the whole millisecond Date.now() reads (with room for the error): the wall clock was set.
      if (reading >= wall - current().errorMs && reading < wall + 1 + current().errorMs) return reading;
      calibration = calibrate();
      return calibration.shiftMs + performance.now();
    },
    errorMs: () => current().errorMs,
  };
}
