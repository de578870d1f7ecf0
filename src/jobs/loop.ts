/**
 * The one loop every timer job runs on (scraper, release planner, bookings sync, slot watch,
 * readiness check, mail sender, retention, and any later job). A job gives a pass; the loop runs
 * it, waits, and runs it again, and keeps the job's health record (last pass, next pass, passes per
 * minute, last error) in the registry for /healthz, /metrics and the System Monitor.
 *
 * What the shape guarantees, whatever a pass does (decision 130):
 * - a floor on the wait: two scheduled passes never start closer than `floorMs` on the job's
 *   clock, so a pass that asks for "now" (a schedule gone stale) cannot spin the process;
 * - no listener is ever added to a long-lived signal: each wait has its own small controller,
 *   aborted by `wake()` or `stop()`, and dropped with the wait;
 * - wakes are coalesced: any number of `wake()` calls during a pass cause one more pass;
 * - a pass that throws is recorded as the job's last error and the loop goes on at its interval.
 */
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { JobHandle, JobRegistry } from "./registry.ts";

export interface JobLoopSpec {
  /** The job's name in the registry (and the System Monitor). */
  name: string;
  /**
   * One pass. Returns when the next pass is wanted (a moment on the job's clock), or nothing for
   * the regular interval after this pass. `signal` is aborted when the job stops: a long pass
   * checks it between steps (reading `aborted` only, never adding a listener).
   */
  pass(signal: AbortSignal): Promise<number | null | void>;
  /** The regular wait after a pass; a function when it follows a setting. */
  intervalMs: number | (() => number | Promise<number>);
  /** Two scheduled passes never start closer than this (ms on the job's clock). */
  floorMs: number;
  /** Before the first pass after start (default: the first pass runs at once). */
  firstPassDelayMs?: number;
  /** Wraps each wait (the release engine counts its waits as parked, so tests can see it idle). */
  onWait?: (waiting: Promise<void>) => Promise<void>;
  /** Whether a pass that ended without error counts as healthy (a job may report its own failures). */
  reportsOwnOutcome?: boolean;
  /** Listed in the registry from creation. */
  listedBeforeStart?: boolean;
  /**
   * Listed once it first works, even before it starts (a job whose work can be asked for before
   * it starts: a member's scrape); one that is built but never used is not listed.
   */
  listedWhenItWorks?: boolean;
}

export interface LoopDeps {
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
}

export interface JobLoop {
  /** Starts the loop in the background (once). */
  start(): void;
  /** The loop itself, for a caller that tracks it as a task of its own; resolves once stopped. */
  run(): Promise<void>;
  /** Ends the wait at once, lets a pass in flight finish, and resolves when the loop has ended. */
  stop(): Promise<void>;
  /** A pass as soon as possible (coalesced with any other wake, and with a pass in flight). */
  wake(): void;
  /** One pass now, or the pass in flight; resolves when it has ended (never rejects). */
  runPass(): Promise<void>;
  /** When the next pass is due while the loop waits (null: running a pass, or stopped). */
  nextPassAt(): number | null;
  /** Aborted once the job is stopping. */
  readonly signal: AbortSignal;
  /** The job's health record, for work it reports itself (registered in the registry at first start). */
  readonly handle: JobHandle;
  isRunning(): boolean;
}

/** An outbox's next pass: when its earliest queued item falls due (never in the past), at most `pollMs` away. */
export function nextOutboxPassAt(now: number, pollMs: number, dueAt: number | null): number {
  return Math.min(now + pollMs, dueAt === null ? Number.POSITIVE_INFINITY : Math.max(dueAt, now));
}

export function createJobLoop(d: LoopDeps, spec: JobLoopSpec): JobLoop {
  // Registered at the first start: a job that never starts (mail with no SMTP) is not listed.
  let registered: JobHandle | null = spec.listedBeforeStart ? d.jobs.register(spec.name) : null;
  const working = () => (spec.listedWhenItWorks ? (registered ??= d.jobs.register(spec.name)) : registered);
  const handle: JobHandle = {
    started: (at) => registered?.started(at),
    ran: (at) => working()?.ran(at),
    passed: (startedAt, endedAt, healthy) => working()?.passed(startedAt, endedAt, healthy),
    scheduled: (at) => registered?.scheduled(at),
    failed: (error, at) => working()?.failed(error, at),
    stopped: () => registered?.stopped(),
  };
  let stopController = new AbortController();
  /** The current wait's own controller: aborted by wake() or stop(), never reused. */
  let waitController: AbortController | null = null;
  let isWakeWanted = false;
  let running: Promise<void> | null = null;
  let loop: Promise<void> | null = null;
  let lastPassStartedAt: number | null = null;
  let waitingUntil: number | null = null;

  /** One pass: what it asked for next (null: the interval) and when it ended. */
  async function passOnce(): Promise<{ asked: number | null; endedAt: number }> {
    const startedAt = d.clock.now();
    lastPassStartedAt = startedAt;
    try {
      const next = await spec.pass(stopController.signal);
      const endedAt = d.clock.now();
      handle.passed(startedAt, endedAt, !spec.reportsOwnOutcome);
      return { asked: typeof next === "number" ? next : null, endedAt };
    } catch (error) {
      const endedAt = d.clock.now();
      handle.passed(startedAt, endedAt, false);
      handle.failed(error, endedAt);
      d.logger.error(`${spec.name}: a pass failed`, { error });
      return { asked: null, endedAt };
    }
  }

  function runPass(): Promise<void> {
    running ??= passOnce()
      .then(() => undefined)
      .finally(() => {
        running = null;
      });
    return running;
  }

  async function interval(): Promise<number> {
    if (typeof spec.intervalMs === "number") return spec.intervalMs;
    try {
      return await spec.intervalMs();
    } catch (error) {
      d.logger.warn(`${spec.name}: its interval could not be read`, { error });
      return spec.floorMs;
    }
  }

  /**
   * When the next pass may start: what the pass asked for, or the interval after the pass ended;
   * never before the floor after the pass started.
   */
  async function nextPassAt({ asked, endedAt }: { asked: number | null; endedAt: number }): Promise<number> {
    const wanted = asked ?? endedAt + (typeof spec.intervalMs === "number" ? spec.intervalMs : await interval());
    return Math.max(wanted, (lastPassStartedAt ?? endedAt) + spec.floorMs);
  }

  async function wait(until: number): Promise<void> {
    if (isWakeWanted || stopController.signal.aborted) return;
    waitController = new AbortController();
    waitingUntil = until;
    handle.scheduled(until);
    const sleeping = d.clock.sleepUntil(until, waitController.signal);
    await (spec.onWait ? spec.onWait(sleeping) : sleeping);
    waitController = null;
    waitingUntil = null;
  }

  async function runLoop(): Promise<void> {
    if (spec.firstPassDelayMs) await wait(d.clock.now() + spec.firstPassDelayMs);
    while (!stopController.signal.aborted) {
      isWakeWanted = false;
      const ended = await runPassForLoop();
      if (stopController.signal.aborted) break;
      await wait(await nextPassAt(ended));
    }
    handle.scheduled(null);
  }

  /** The loop's own pass: waits for one in flight (started by runPass), then runs a fresh one. */
  async function runPassForLoop(): Promise<{ asked: number | null; endedAt: number }> {
    if (running) await running;
    const pass = passOnce();
    running = pass
      .then(() => undefined)
      .finally(() => {
        running = null;
      });
    return pass;
  }

  return {
    start() {
      if (loop) return;
      void this.run();
    },
    run() {
      if (loop) return loop;
      stopController = new AbortController();
      registered ??= d.jobs.register(spec.name);
      handle.started(d.clock.now());
      loop = runLoop().finally(() => {
        handle.stopped();
      });
      return loop;
    },
    async stop() {
      stopController.abort();
      waitController?.abort();
      await loop;
      await running;
      loop = null;
      handle.stopped();
    },
    wake() {
      if (!loop || stopController.signal.aborted) return;
      isWakeWanted = true;
      waitController?.abort();
    },
    runPass,
    nextPassAt: () => waitingUntil,
    get signal() {
      return stopController.signal;
    },
    handle,
    isRunning: () => loop !== null && !stopController.signal.aborted,
  };
}
