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
 */

export interface MemoryReturned {
  rssBeforeBytes: number;
  rssAfterBytes: number;
  ms: number;
}

/** A full, synchronous collection; what it gave back. */
export function returnUnusedMemory(collect: () => void = () => Bun.gc(true)): MemoryReturned {
  const rssBeforeBytes = process.memoryUsage.rss();
  const started = performance.now();
  collect();
  return { rssBeforeBytes, rssAfterBytes: process.memoryUsage.rss(), ms: performance.now() - started };
}

/** The heap's growth since the last full collection that asks for another. */
export const HEAP_GROWTH_BEFORE_COLLECTING_BYTES = 4 * 1024 * 1024;

export interface MemoryKeeperOptions {
  /** Whether a pause must wait now (a release is near); asked only when a collection is due. */
  mustWait(): Promise<boolean>;
  growthBytes?: number;
  /** The heap in use (tests give their own). */
  heapUsed?: () => number;
  /** The full collection (tests give their own). */
  collect?: () => void;
}

export interface MemoryKeeper {
  /** After a sample of the heap (`heapUsedBytes`): a collection when one is due and may run; what it gave back, or null. */
  afterSample(heapUsedBytes: number): Promise<MemoryReturned | null>;
}

export function createMemoryKeeper(options: MemoryKeeperOptions): MemoryKeeper {
  const growthBytes = options.growthBytes ?? HEAP_GROWTH_BEFORE_COLLECTING_BYTES;
  const heapUsed = options.heapUsed ?? (() => process.memoryUsage().heapUsed);
  /** The heap in use after the last collection (the first sample's, until one has run). */
  let baseline: number | null = null;
  return {
    async afterSample(heapUsedBytes) {
      baseline ??= heapUsedBytes;
      if (heapUsedBytes - baseline < growthBytes || (await options.mustWait())) return null;
      const returned = returnUnusedMemory(options.collect);
      baseline = heapUsed();
      return returned;
    },
  };
}
