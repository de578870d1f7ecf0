/**
 * The jobs of one Teebox (scraper, release engine, bookings sync, slot watch, readiness check, mail
 * sender), started together after the seed and stopped together in reverse order before the
 * database closes. On a libSQL server they run only while this instance holds the engine lease
 * (engine-lease.ts): if it is lost they are stopped at once, before anything else is done.
 */
import type { Logger } from "../lib/logger.ts";
import type { EngineLease } from "./engine-lease.ts";

export interface Job {
  start(): void | Promise<void>;
  /** Lets work in flight finish. */
  stop(): Promise<void>;
}

export interface Engine {
  start(): Promise<void>;
  /** Stops every job (once), then lets the lease go. */
  stop(): Promise<void>;
  /**
   * Resolves once the lease was lost and every job has stopped (never on a file database, whose
   * lock lasts as long as the process).
   */
  readonly lost: Promise<string>;
}

export function createEngine(d: { jobs: Job[]; lease: EngineLease | null; logger: Logger }): Engine {
  let stopping: Promise<void> | null = null;
  const stopJobs = () =>
    (stopping ??= (async () => {
      for (const job of [...d.jobs].reverse()) await job.stop();
    })());
  const lost = d.lease
    ? d.lease.lost.then(async (reason) => {
        await stopJobs();
        d.logger.error("the jobs are stopped: this Teebox no longer holds the engine lease", { reason });
        return reason;
      })
    : new Promise<string>(() => undefined);
  return {
    async start() {
      for (const job of d.jobs) {
        // The lease may be lost while the jobs start: none starts after they were stopped.
        if (stopping) return;
        await job.start();
        // The server already listens: a request that came in while this job started is answered
        // before the next one starts, not after them all (decision 194).
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async stop() {
      await stopJobs();
      await d.lease?.release();
    },
    lost,
  };
}
