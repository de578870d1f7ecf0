/**
 * The one source of "now" for the server. Domain code takes `now` as an argument;
 * services and jobs take a Clock so tests can drive time by hand.
 */
import { createPreciseClock, type PreciseClock } from "./precise-clock.ts";

export interface Clock {
  now(): number;
  /** The same clock to a fraction of a millisecond, where there is one (the system's; decision 202). */
  precise?: PreciseClock;
  /** Resolves once `now()` has reached `atMs` (immediately if it already has). */
  sleepUntil(atMs: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  precise: createPreciseClock(),
  sleepUntil(atMs, signal) {
    return new Promise((resolve) => {
      const wait = atMs - Date.now();
      if (wait <= 0 || signal?.aborted) return resolve();
      // The listener goes with the sleep: a signal that outlives many sleeps must not collect them.
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, wait);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
};

/** A clock that only moves when a test calls `advance` or `set`. */
export class FakeClock implements Clock {
  private waiters: { atMs: number; resolve: () => void }[] = [];
  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  /** Every call of sleepUntil so far: a loop that spins shows as many sleeps for little time. */
  sleepCalls = 0;

  sleepUntil(atMs: number, signal?: AbortSignal): Promise<void> {
    this.sleepCalls++;
    if (atMs <= this.current || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      };
      const waiter = {
        atMs,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** How many sleepers wait (a test of a loop checks that it does not pile them up). */
  get sleeperCount(): number {
    return this.waiters.length;
  }

  /** Moves time forward, waking every sleeper whose moment has come, in order. */
  async advance(ms: number): Promise<void> {
    await this.set(this.current + ms);
  }

  async set(atMs: number): Promise<void> {
    this.current = atMs;
    const due = this.waiters.filter((w) => w.atMs <= atMs).sort((a, b) => a.atMs - b.atMs);
    this.waiters = this.waiters.filter((w) => w.atMs > atMs);
    for (const waiter of due) waiter.resolve();
    // Let the woken tasks run their synchronous continuations before the test goes on.
    for (let i = 0; i < 10; i++) await Promise.resolve();
  }
}
