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
 * Once after a start, the keeper also drops the code the JIT and the bytecode compiler made for it
 * (decision 209): migrating, seeding and building the routes run once, and their code stayed in the
 * heap for the life of the process.
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

/**
 * JavaScriptCore's footprint shrink: every compiled function's code is dropped (it is compiled
 * again, from the bytecode, when next called), a full collection follows and the allocator's free
 * pages go back to the system. It runs once no JavaScript is on the stack, so the figures are read
 * after the current task.
 */
export async function shrinkFootprint(shrink: () => void = shrinkWhenIdle): Promise<MemoryReturned> {
  const rssBeforeBytes = process.memoryUsage.rss();
  const started = performance.now();
  shrink();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { rssBeforeBytes, rssAfterBytes: process.memoryUsage.rss(), ms: performance.now() - started };
}

/** Bun's door to the shrink (`VM::shrinkFootprintWhenIdle`); a full collection on a runtime without it. */
function shrinkWhenIdle(): void {
  if (typeof Bun.shrink === "function") Bun.shrink();
  else Bun.gc(true);
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
  /** The footprint shrink after a start (tests give their own). */
  shrink?: () => void;
}

export interface MemoryKeeper {
  /** After a sample of the heap (`heapUsedBytes`): a collection when one is due and may run; what it gave back, or null. */
  afterSample(heapUsedBytes: number): Promise<MemoryReturned | null>;
  /** Once a start has settled: drops the code only the start ran, unless a pause must wait; what it gave back, or null. */
  afterStart(): Promise<MemoryReturned | null>;
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
    async afterStart() {
      if (await options.mustWait()) return null;
      const returned = await shrinkFootprint(options.shrink);
      baseline = heapUsed();
      return returned;
    },
  };
}
