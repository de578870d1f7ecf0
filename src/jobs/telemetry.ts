/**
 * What a maintainer watches over time (decision 132): once a minute, on the one job loop, the
 * process's CPU, memory and event-loop lag, the requests sent to the club in that minute and the
 * database's size are sampled into a ring of the last day (1,440 samples: a fixed few tens of KB),
 * which the System Monitor draws as small charts and /metrics reads. After a minute in which every
 * job is alive, the optional heartbeat URL is pinged, so an outside monitor notices silence. Each
 * sample also lets the memory keeper (src/lib/memory.ts) give back the executable's pages the
 * minute's work mapped (decision 213) and what the heap gathered at rest, never within
 * RELEASE_GUARD_MS (request-lifecycle.ts) of a release, dropping the compiled code too after a
 * release or a day; and, a few seconds after the server starts serving, drop the code only the
 * start ran (decision 209) and the executable's pages it touched (decision 211). A job's work that
 * left the process AFTER_WORK_GROWTH_BYTES bigger (a scrape maps and allocates some 25 MB) is given
 * back as the work ends, rather than held until the next minute's sample (decision 216).
 */
import type { AppDatabase } from "../db/client.ts";
import { measureDatabase, type DatabaseSize } from "../db/size.ts";
import type { Clock } from "../lib/clock.ts";
import { watchEventLoopLag, type EventLoopLag } from "../lib/event-loop-lag.ts";
import type { Logger } from "../lib/logger.ts";
import { bytesToMb, createMemoryKeeper, type MemoryKeeperOptions } from "../lib/memory.ts";
import { isReleaseNear, lastReleaseSettled } from "../lifecycle/request-lifecycle.ts";
import { checkHealth } from "../services/health.service.ts";
import { createJobLoop } from "./loop.ts";
import type { JobRegistry } from "./registry.ts";

/** One minute of the process. */
export interface TelemetrySample {
  at: number;
  /** Percent of one core over the minute. */
  cpuPercent: number;
  rssBytes: number;
  heapBytes: number;
  lagP99Ms: number;
  lagMaxMs: number;
  /** Requests sent to the club during the minute (null: not counted). */
  clubRequests: number | null;
  databaseBytes: number;
  walBytes: number | null;
}

export interface TelemetryDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
  /** Requests sent to the club since start, whatever their kind (the club adapter counts them). */
  clubRequestsTotal?: () => number;
}

export interface TelemetryOptions {
  /** Pinged after each healthy sample. */
  heartbeatUrl?: string | null;
  /** Between two samples (default a minute). */
  everyMs?: number;
  /** How the heartbeat is sent (tests give their own). */
  ping?: (url: string) => Promise<void>;
  /** The memory keeper's collection, shrink and heap reading, and the resident size read after work (tests give their own). */
  memory?: Pick<MemoryKeeperOptions, "collect" | "shrink" | "releaseFilePages" | "heapUsed" | "growthBytes"> & { rss?: () => number };
}

export interface Telemetry {
  start(): void;
  stop(): Promise<void>;
  /** The samples of the last day, oldest first. */
  history(): TelemetrySample[];
  /** The newest sample, if any. */
  latest(): TelemetrySample | null;
  /**
   * Called once the server serves: START_SETTLE_MS later, unless a release is near, the code only
   * the start ran is dropped. Once per life; stop() calls it off.
   */
  settleAfterStart(): void;
  /** Takes a sample now (tests). */
  sampleNow(): Promise<TelemetrySample>;
  /** The last heartbeat's outcome, for the System Monitor. */
  heartbeat(): { url: string; lastOkAt: number | null; lastError: string | null } | null;
}

/** A day of minutes. */
export const TELEMETRY_SAMPLES = 1440;
const MINUTE_MS = 60_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;
/**
 * From serving to dropping the start's code: the jobs' first passes are over by then (a second or
 * two on the demo club), and the start's code will not run again.
 */
export const START_SETTLE_MS = 5_000;
/**
 * How much bigger than after the last giving-back a job's work must leave the process for its memory
 * to be given back at once: a scrape's 25 MB, not the few MB a minute's small jobs map and let go.
 */
export const AFTER_WORK_GROWTH_BYTES = 12 * 1024 * 1024;
/** Work that ends this close before the minute's sample leaves its memory to that sample. */
export const AFTER_WORK_SAMPLE_NEAR_MS = 5_000;
/** How long after the shrink its figures are read: the allocator's pages go back in well under a second. */
const PAGES_RETURNED_MS = 1_000;

const defaultPing = async (url: string) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(HEARTBEAT_TIMEOUT_MS) });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the heartbeat URL answered ${response.status}`);
};

export function createTelemetry(d: TelemetryDeps, options: TelemetryOptions = {}): Telemetry {
  const everyMs = options.everyMs ?? MINUTE_MS;
  const ping = options.ping ?? defaultPing;
  const samples: TelemetrySample[] = [];
  let lag: EventLoopLag | null = null;
  let lastCpu = process.cpuUsage();
  let lastWall = performance.now();
  let lastClubTotal = d.clubRequestsTotal?.() ?? 0;
  const keeper = createMemoryKeeper({
    ...options.memory,
    now: () => d.clock.now(),
    mustWait: () => isReleaseNear(d.database.db, d.clock.now()),
    lastReleaseAt: () => lastReleaseSettled(d.database.db, d.clock.now()),
  });
  let settling: AbortController | null = null;
  const rss = options.memory?.rss ?? (() => process.memoryUsage.rss());
  const heapUsed = options.memory?.heapUsed ?? (() => process.memoryUsage().heapUsed);
  /**
   * The resident size after the last giving-back (or at start), what work is measured against; when
   * the minute's sample last ran (or the job started); whether work has given back since. At most
   * one giving-back after work between two samples, so a job that maps much at every pass costs
   * one more a minute at worst.
   */
  let givenRssBytes = rss();
  let lastSampleAt = d.clock.now();
  let hasGivenAfterWork = false;
  let givingBack: Promise<void> | null = null;
  let stopListening: (() => void) | null = null;
  let isSettlingStart = false;
  const beat = options.heartbeatUrl ? { url: options.heartbeatUrl, lastOkAt: null as number | null, lastError: null as string | null } : null;

  async function sampleNow(): Promise<TelemetrySample> {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const cpuMicros = cpu.user - lastCpu.user + (cpu.system - lastCpu.system);
    const wallMicros = (wall - lastWall) * 1000;
    lastCpu = cpu;
    lastWall = wall;
    const clubTotal = d.clubRequestsTotal?.() ?? null;
    const clubRequests = clubTotal === null ? null : clubTotal - lastClubTotal;
    if (clubTotal !== null) lastClubTotal = clubTotal;
    const memory = process.memoryUsage();
    const size: DatabaseSize = await measureDatabase(d.database).catch(() => ({ bytes: 0, walBytes: null }));
    const loop = lag?.read() ?? { p99Ms: 0, maxMs: 0 };
    const sample: TelemetrySample = {
      at: d.clock.now(),
      cpuPercent: wallMicros > 0 ? Math.round((cpuMicros / wallMicros) * 1000) / 10 : 0,
      rssBytes: memory.rss,
      heapBytes: memory.heapUsed,
      lagP99Ms: loop.p99Ms,
      lagMaxMs: loop.maxMs,
      clubRequests,
      databaseBytes: size.bytes,
      walBytes: size.walBytes,
    };
    samples.push(sample);
    if (samples.length > TELEMETRY_SAMPLES) samples.splice(0, samples.length - TELEMETRY_SAMPLES);
    return sample;
  }

  async function sendHeartbeat(): Promise<void> {
    if (!beat) return;
    const health = await checkHealth(d);
    if (health.status !== "ok") return;
    try {
      await ping(beat.url);
      if (beat.lastError) d.logger.info("heartbeat: answered again");
      beat.lastOkAt = d.clock.now();
      beat.lastError = null;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Once per episode: a monitor that is down must not fill the log.
      if (!beat.lastError) d.logger.warn("heartbeat: the URL could not be reached", { error: message });
      beat.lastError = message;
    }
  }

  async function giveMemoryBack(heapBytes: number, after: "sample" | "work"): Promise<void> {
    const returned = await keeper.afterSample(heapBytes);
    if (!returned) return;
    givenRssBytes = rss();
    d.logger.debug("memory given back", {
      after,
      kind: returned.kind,
      rssBeforeMb: bytesToMb(returned.rssBeforeBytes),
      rssAfterMb: bytesToMb(returned.rssAfterBytes),
      filePagesMb: bytesToMb(returned.filePagesBytes),
      ms: Math.round(returned.ms),
    });
  }

  /** After a job's work: its memory given back now when it grew the process enough (decision 216). */
  function afterWork(name: string): void {
    // The start's first passes are given back with the start's code, a few seconds later.
    if (name === "telemetry" || givingBack || isSettlingStart || hasGivenAfterWork) return;
    if (d.clock.now() >= lastSampleAt + everyMs - AFTER_WORK_SAMPLE_NEAR_MS || rss() - givenRssBytes < AFTER_WORK_GROWTH_BYTES) return;
    hasGivenAfterWork = true;
    givingBack = giveMemoryBack(heapUsed(), "work")
      .catch((error) => d.logger.warn("memory: could not be given back after work", { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        givingBack = null;
      });
  }

  async function settle(signal: AbortSignal): Promise<void> {
    await d.clock.sleepUntil(d.clock.now() + START_SETTLE_MS, signal);
    if (signal.aborted) return;
    const returned = await keeper.afterStart();
    if (!returned) return;
    // The allocator hands its free pages back on a thread of its own, within a moment (real time, whatever the clock).
    await Bun.sleep(PAGES_RETURNED_MS);
    givenRssBytes = rss();
    d.logger.info("memory: the start's code given back", {
      rssBeforeMb: bytesToMb(returned.rssBeforeBytes),
      rssAfterMb: bytesToMb(givenRssBytes),
      filePagesMb: bytesToMb(returned.filePagesBytes),
      pauseMs: Math.round(returned.ms),
    });
  }

  const loop = createJobLoop(d, {
    name: "telemetry",
    pass: async () => {
      const sample = await sampleNow();
      await givingBack;
      lastSampleAt = d.clock.now();
      hasGivenAfterWork = false;
      await giveMemoryBack(sample.heapBytes, "sample");
      await sendHeartbeat();
    },
    intervalMs: everyMs,
    floorMs: Math.min(everyMs, 10_000),
    firstPassDelayMs: everyMs,
  });

  return {
    start() {
      lag ??= watchEventLoopLag();
      lastCpu = process.cpuUsage();
      lastWall = performance.now();
      givenRssBytes = rss();
      lastSampleAt = d.clock.now();
      stopListening ??= d.jobs.afterWork(afterWork);
      loop.start();
    },
    settleAfterStart() {
      if (settling) return;
      const { signal } = (settling = new AbortController());
      isSettlingStart = true;
      settle(signal)
        .catch((error) => {
          // A stop while it asked the database is no failure: the database was closing.
          if (!signal.aborted) d.logger.warn("memory: the start's code could not be given back", { error: error instanceof Error ? error.message : String(error) });
        })
        .finally(() => {
          isSettlingStart = false;
        });
    },
    async stop() {
      settling?.abort();
      stopListening?.();
      stopListening = null;
      await loop.stop();
      await givingBack;
      lag?.stop();
      lag = null;
    },
    history: () => [...samples],
    latest: () => samples.at(-1) ?? null,
    sampleNow,
    heartbeat: () => (beat ? { ...beat } : null),
  };
}
