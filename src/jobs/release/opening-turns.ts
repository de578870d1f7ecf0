/**
 * While the club still answers "not yet open" after the instant, the requests of one date and
 * course take turns to ask it again: the club sees the policy's pace (NOT_YET_OPEN_SCHEDULE) once
 * per date and course, whatever the number of requests, and each request posts only its share
 * (decision 147). An answer that shows the date open lets every waiting request post at once, so
 * the one whose turn found it open is not the only one quick to follow.
 *
 * Bounded: a line exists only while requests wait in it, and each request waits in one at most.
 */
import type { Clock } from "../../lib/clock.ts";

interface Line {
  waiters: (() => void)[];
  /** When the next turn is due: the last 'not yet open' answer plus the pace it called for. */
  nextAt: number;
  pauseMs: number;
  timer: AbortController | null;
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
    const line = this.lines.get(key) ?? { waiters: [], nextAt: now, pauseMs, timer: null };
    this.lines.set(key, line);
    // Answers come in the order the club gave them: the latest sets the date's next ask.
    line.nextAt = now + pauseMs;
    line.pauseMs = pauseMs;
    return new Promise<void>((resolve) => {
      line.waiters.push(resolve);
      this.arm(key, line);
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

  /** Requests waiting for their turn on a date and course (for tests and the engine's story). */
  waiting(key: string): number {
    return this.lines.get(key)?.waiters.length ?? 0;
  }

  private arm(key: string, line: Line): void {
    line.timer?.abort();
    const timer = new AbortController();
    line.timer = timer;
    void this.clock.sleepUntil(line.nextAt, timer.signal).then(() => {
      if (timer.signal.aborted) return;
      line.timer = null;
      const head = line.waiters.shift();
      if (line.waiters.length === 0) this.lines.delete(key);
      else {
        // Should the head's answer never come (club trouble took it elsewhere), the next still asks one pace later.
        line.nextAt = this.clock.now() + line.pauseMs;
        this.arm(key, line);
      }
      head?.();
    });
  }
}
