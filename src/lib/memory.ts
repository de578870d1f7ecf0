/**
 * Giving memory back at rest. JavaScriptCore collects when the program allocates, and a Teebox at
 * rest allocates so little that garbage (a release's answers, a scrape's parsed pages, a sync's)
 * stays resident for hours or days: left alone for half an hour after some use, its RSS rose from
 * 116 to 146 MB, two or three megabytes at each five-minute scrape; over five simulated days of the
 * soak it rose from 166 to 197 MB and fell back to 167 MB only when a collection finally came. A
 * small VPS should hold what Teebox holds, not what it once used.
 *
 * So the job that samples memory each minute (src/jobs/telemetry.ts) asks the keeper here after
 * each sample: once the heap has grown by `growthBytes` since the last full collection, and no
 * release is near (a full collection pauses the main thread for some tens of milliseconds), it
 * collects once.
 *
 * Once after a start, and after each release (or a day) at the next collection, the keeper drops
 * the compiled code too (decision 209): migrating, seeding and building the routes run once, a
 * release's sign-ins and answers once a day, and their code stayed in the heap for the life of the
 * process. With it go the executable's pages they touched (decision 211, src/lib/mapped-pages.ts).
 *
 * And at every sample with no release near, the keeper lets go of the executable's pages that the
 * minute's work mapped (decision 213): a scrape or a bookings sync maps 15 MB of the runtime that
 * rest does not use, and kept them until the next shrink, a day later.
 */

import { releaseMappedFilePages } from "./mapped-pages.ts";

export interface MemoryReturned {
  rssBeforeBytes: number;
  rssAfterBytes: number;
  ms: number;
}

/** What a footprint shrink gave back, with the bytes of mapped files' pages it let go of. */
export interface FootprintShrunk extends MemoryReturned {
  filePagesBytes: number;
}

/** A full, synchronous collection. */
export const fullCollection = () => Bun.gc(true);

/** Bytes as whole mebibytes, as the logs print memory. */
export const bytesToMb = (bytes: number) => Math.round(bytes / 1_048_576);

/** A full, synchronous collection; what it gave back. */
export function returnUnusedMemory(collect: () => void = fullCollection): MemoryReturned {
  const rssBeforeBytes = process.memoryUsage.rss();
  const started = performance.now();
  collect();
  return { rssBeforeBytes, rssAfterBytes: process.memoryUsage.rss(), ms: performance.now() - started };
}

/**
 * JavaScriptCore's footprint shrink: every compiled function's code is dropped (it is compiled
 * again, from the bytecode, when next called), a full collection follows and the allocator's free
 * pages go back to the system. It runs once no JavaScript is on the stack, so the figures are read
 * after the current task. Then the executable's clean pages are let go of too (decision 211).
 */
export async function shrinkFootprint(shrink: () => void = shrinkWhenIdle, releaseFilePages: () => number = releaseMappedFilePages): Promise<FootprintShrunk> {
  const rssBeforeBytes = process.memoryUsage.rss();
  const started = performance.now();
  shrink();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const filePagesBytes = releaseFilePages();
  return { rssBeforeBytes, rssAfterBytes: process.memoryUsage.rss(), ms: performance.now() - started, filePagesBytes };
}

/** `work` (a collection, or nothing), then the executable's clean pages let go of (decision 213); what both gave back. */
function giveBackWithPages(work: () => void, releaseFilePages: () => number): FootprintShrunk {
  let filePagesBytes = 0;
  const returned = returnUnusedMemory(() => {
    work();
    filePagesBytes = releaseFilePages();
  });
  return { ...returned, filePagesBytes };
}

/**
 * Bun's door to the shrink (`VM::shrinkFootprintWhenIdle`), after a full collection. The shrink
 * drops the compiled code only when no collection is under way (JSC deletes it "if not
 * collecting"): made while a concurrent one marked a big heap, it kept the code 18 times in 20. The
 * synchronous collection first ends any under way. A runtime without the shrink has the collection.
 */
function shrinkWhenIdle(): void {
  Bun.gc(true);
  if (typeof Bun.shrink === "function") Bun.shrink();
}

/** The heap's growth since the last full collection that asks for another. */
export const HEAP_GROWTH_BEFORE_COLLECTING_BYTES = 4 * 1024 * 1024;

/**
 * A due collection is a footprint shrink instead when a release has settled since the last shrink,
 * or this long has passed since it (or since the keeper began): the code a release compiles once
 * (signing every member in, the wave, the answers) and a day's one-off work stays otherwise until
 * the process ends. What runs at rest is then compiled again once a release or a day, not after
 * every collection.
 */
export const SHRINK_AT_MOST_EVERY_MS = 24 * 60 * 60_000;

export interface MemoryKeeperOptions {
  /** Whether a pause, or pages to map again, must wait now (a release is near); asked at each sample. */
  mustWait(): Promise<boolean>;
  growthBytes?: number;
  /** Teebox's clock (the soak's simulated one there). */
  now?: () => number;
  /** The newest release instant that has settled requests, if any; asked only when a collection is due and may run. */
  lastReleaseAt?: () => Promise<number | null>;
  /** The heap in use (tests give their own). */
  heapUsed?: () => number;
  /** The full collection (tests give their own). */
  collect?: () => void;
  /** The footprint shrink (tests give their own). */
  shrink?: () => void;
  /** Letting go of mapped files' clean pages after a shrink; the bytes it let go of (tests give their own). */
  releaseFilePages?: () => number;
}

/** What a sample gave back, and how: the executable's pages alone, or with a collection or a shrink. */
export interface MemoryKept extends FootprintShrunk {
  kind: "pages" | "collection" | "shrink";
}

export interface MemoryKeeper {
  /**
   * After a sample of the heap (`heapUsedBytes`), unless a release is near: the executable's pages
   * let go of, with a collection when one is due (a shrink after a release or a day); what it gave
   * back, or null when a release is near.
   */
  afterSample(heapUsedBytes: number): Promise<MemoryKept | null>;
  /** Once a start has settled: drops the code only the start ran, unless a pause must wait; what it gave back, or null. */
  afterStart(): Promise<MemoryKept | null>;
}

export function createMemoryKeeper(options: MemoryKeeperOptions): MemoryKeeper {
  const growthBytes = options.growthBytes ?? HEAP_GROWTH_BEFORE_COLLECTING_BYTES;
  const releaseFilePages = options.releaseFilePages ?? releaseMappedFilePages;
  const now = options.now ?? Date.now;
  const heapUsed = options.heapUsed ?? (() => process.memoryUsage().heapUsed);
  /** The heap in use after the last collection (the first sample's, until one has run). */
  let baseline: number | null = null;
  let lastShrinkAt = now();
  const shrink = async (): Promise<MemoryKept> => {
    const returned = await shrinkFootprint(options.shrink, releaseFilePages);
    lastShrinkAt = now();
    return { ...returned, kind: "shrink" };
  };
  const isShrinkDue = async () => now() - lastShrinkAt >= SHRINK_AT_MOST_EVERY_MS || ((await options.lastReleaseAt?.()) ?? Number.NEGATIVE_INFINITY) > lastShrinkAt;
  return {
    async afterSample(heapUsedBytes) {
      baseline ??= heapUsedBytes;
      if (await options.mustWait()) return null;
      if (heapUsedBytes - baseline < growthBytes) return { ...giveBackWithPages(() => undefined, releaseFilePages), kind: "pages" };
      const returned = (await isShrinkDue()) ? await shrink() : { ...giveBackWithPages(options.collect ?? fullCollection, releaseFilePages), kind: "collection" as const };
      baseline = heapUsed();
      return returned;
    },
    async afterStart() {
      if (await options.mustWait()) return null;
      const returned = await shrink();
      baseline = heapUsed();
      return returned;
    },
  };
}
