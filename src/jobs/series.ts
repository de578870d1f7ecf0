/**
 * The standing-requests job (decision 180), on the one job loop: each pass queues every date of
 * every active series that the Book page would offer now and that has no request yet. The window
 * moves at the booking roll hour, so the pass runs then (and at least hourly, which also retries
 * dates that needed attention once a rule or a limit has changed). Idempotent: a date is claimed
 * through its (series, date) unique index in the same transaction as its request.
 */
import { addDays, manilaDate, manilaInstant } from "../domain/manila-time.ts";
import { queueDueOccurrences, type SeriesQueueDeps } from "../services/series-occurrences.ts";
import { readSettings } from "../services/settings.service.ts";
import { createJobLoop } from "./loop.ts";
import type { JobRegistry } from "./registry.ts";

export interface SeriesJobDeps extends SeriesQueueDeps {
  jobs: JobRegistry;
}

export interface SeriesJob {
  start(): void;
  stop(): Promise<void>;
  /** A pass soon (a series was made, changed or ended). */
  wake(): void;
  /** One pass now (tests); resolves when it has ended. */
  pass(): Promise<void>;
}

const HOUR_MS = 60 * 60_000;
/** Two passes never start closer than this. */
const PASS_FLOOR_MS = 1000;

/** The next moment the Book page's window moves: the booking roll hour (Manila) after `now`. */
export function nextRollAt(now: number, rollHour: number): number {
  const today = manilaDate(now);
  const atToday = manilaInstant(today) + rollHour * HOUR_MS;
  return atToday > now ? atToday : manilaInstant(addDays(today, 1)) + rollHour * HOUR_MS;
}

export function createSeriesJob(d: SeriesJobDeps): SeriesJob {
  const loop = createJobLoop(d, {
    name: "standing requests",
    pass: async () => {
      await queueDueOccurrences(d);
      const now = d.clock.now();
      const { booking_roll_hour } = await readSettings(d.database.db);
      return Math.min(nextRollAt(now, booking_roll_hour), now + HOUR_MS);
    },
    intervalMs: HOUR_MS,
    floorMs: PASS_FLOOR_MS,
  });
  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    wake: () => loop.wake(),
    pass: () => loop.runPass(),
  };
}
