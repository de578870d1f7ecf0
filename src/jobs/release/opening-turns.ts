/**
 * While the club still answers "not yet open" after the instant, the requests of one date take
 * turns to ask it again: the club sees the policy's pace (NOT_YET_OPEN_SCHEDULE) once per date,
 * whatever the number of requests, and each request posts only its share (decision 147). An answer
 * that shows the date open lets every waiting request post at once, so the one whose turn found it
 * open is not the only one quick to follow.
 *
 * Bounded: a line exists only while requests wait in it, and each request waits in one at most.
 */
import type { Clock } from "../../lib/clock.ts";
import { notYetOpenTurnMs } from "../../lifecycle/club-answer.ts";

interface Line {
  waiters: (() => void)[];
  /** When the last turn was given: the next is due one pause later. */
  lastTurnAt: number;
  /** The pace the latest 'not yet open' answer called for. */
  pauseMs: number;
  timer: AbortController | null;
  /** When the armed turn is due. */
  dueAt: number;
}

export class OpeningTurns {
  private readonly lines = new Map<string, Line>();

  constructor(private readonly clock: Clock) {}

  /**
   * After a 'not yet open' answer (the pace `pauseMs` the policy gave for it): resolves when it is
   * this request's turn to ask again, or once the date is seen open.
   */
  wait(key: string, pauseMs: number): Promise<void> {
    const now = this.clock.now();
    let line = this.lines.get(key);
    if (!line) {
      line = { waiters: [], lastTurnAt: now, pauseMs, timer: null, dueAt: Number.POSITIVE_INFINITY };
      this.lines.set(key, line);
    }
    line.pauseMs = pauseMs;
    const waiting = line;
    return new Promise<void>((resolve) => {
      waiting.waiters.push(resolve);
      // More requests waiting make the next turn come sooner (within the schedule's pace).
      if (!waiting.timer || this.dueOf(waiting) < waiting.dueAt) this.arm(key, waiting);
    });
  }

  /** The date is open: every request waiting for its turn goes now. */
  opened(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    this.lines.delete(key);
    line.timer?.abort();
    for (const resolve of line.waiters) resolve();
  }

  /** Lets every waiting request go (the engine is stopping) and forgets every line. */
  clear(): void {
    for (const key of [...this.lines.keys()]) this.opened(key);
  }

  private dueOf(line: Line): number {
    return line.lastTurnAt + notYetOpenTurnMs(line.pauseMs, line.waiters.length + 1);
  }

  /**
   * The next turn, one pause after the last one given (not after its answer: the pace is the club's
   * view), slower when few requests share the date (`notYetOpenTurnMs`: the one asking counts too).
   */
  private arm(key: string, line: Line): void {
    line.timer?.abort();
    const timer = new AbortController();
    line.timer = timer;
    line.dueAt = this.dueOf(line);
    void this.clock.sleepUntil(line.dueAt, timer.signal).then(() => {
      if (timer.signal.aborted) return;
      line.timer = null;
      line.lastTurnAt = this.clock.now();
      const head = line.waiters.shift();
      if (line.waiters.length > 0) this.arm(key, line);
      else if (this.lines.get(key) === line) this.lines.delete(key);
      head?.();
    });
  }
}
