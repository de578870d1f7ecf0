/**
 * The memory keeper (src/lib/memory.ts): a full collection once the heap has grown enough since
 * the last one, never while a pause must wait (a release near), and the heap after it as the new
 * baseline.
 */
import { heapStats } from "bun:jsc";
import { describe, expect, test } from "bun:test";
import { createMemoryKeeper, shrinkFootprint } from "../../src/lib/memory.ts";

const MB = 1024 * 1024;

function keeperWith(opts: { isReleaseNear?: boolean; heapAfterCollection?: number } = {}) {
  const counts = { collections: 0, asked: 0, shrinks: 0 };
  const keeper = createMemoryKeeper({
    growthBytes: 8 * MB,
    mustWait: async () => {
      counts.asked++;
      return opts.isReleaseNear ?? false;
    },
    collect: () => void counts.collections++,
    shrink: () => void counts.shrinks++,
    heapUsed: () => opts.heapAfterCollection ?? 20 * MB,
  });
  return { keeper, counts };
}

describe("the memory keeper", () => {
  test("collects once the heap has grown by the bound since the first sample, and starts again from the heap after it", async () => {
    const { keeper, counts } = keeperWith({ heapAfterCollection: 21 * MB });
    expect(await keeper.afterSample(20 * MB)).toBeNull();
    expect(await keeper.afterSample(27 * MB)).toBeNull();
    expect(counts.asked).toBe(0);
    expect(await keeper.afterSample(28 * MB)).not.toBeNull();
    expect(counts.collections).toBe(1);
    // The baseline is now 21 MB: 28 is not 8 above it, 29 is.
    expect(await keeper.afterSample(28 * MB)).toBeNull();
    expect(await keeper.afterSample(29 * MB)).not.toBeNull();
    expect(counts.collections).toBe(2);
  });

  test("never pauses while a release is near: the collection waits for a later sample", async () => {
    const { keeper, counts } = keeperWith({ isReleaseNear: true });
    await keeper.afterSample(20 * MB);
    expect(await keeper.afterSample(40 * MB)).toBeNull();
    expect(counts).toEqual({ collections: 0, asked: 1, shrinks: 0 });
  });

  test("says what it gave back and how long it took", async () => {
    const { keeper } = keeperWith();
    await keeper.afterSample(0);
    const returned = await keeper.afterSample(10 * MB);
    expect(returned?.rssBeforeBytes).toBeGreaterThan(0);
    expect(returned?.rssAfterBytes).toBeGreaterThan(0);
    expect(returned?.ms).toBeGreaterThanOrEqual(0);
  });

  test("after a start it drops the compiled code, unless a release is near, and counts growth from the heap after it", async () => {
    const { keeper, counts } = keeperWith({ heapAfterCollection: 12 * MB });
    await keeper.afterSample(20 * MB);
    expect(await keeper.afterStart()).not.toBeNull();
    expect(counts.shrinks).toBe(1);
    // The baseline is now 12 MB: 19 is not 8 above it, 20 is.
    expect(await keeper.afterSample(19 * MB)).toBeNull();
    expect(await keeper.afterSample(20 * MB)).not.toBeNull();

    const near = keeperWith({ isReleaseNear: true });
    expect(await near.keeper.afterStart()).toBeNull();
    expect(near.counts.shrinks).toBe(0);
  });

  test("the runtime's footprint shrink runs once the current task is over, and code compiled before it still runs", async () => {
    // A hundred functions, each with code of its own once called.
    const functions = Array.from({ length: 100 }, (_, i) => new Function("n", `return n * n + ${i};`) as (n: number) => number);
    for (const f of functions) f(2);
    const codeBlocks = () => heapStats().objectTypeCounts.FunctionCodeBlock ?? 0;
    const before = codeBlocks();
    const returned = await shrinkFootprint();
    expect(before).toBeGreaterThanOrEqual(100);
    expect(codeBlocks()).toBeLessThan(before / 2);
    expect(returned.rssBeforeBytes).toBeGreaterThan(0);
    expect(returned.rssAfterBytes).toBeGreaterThan(0);
    expect(functions[7](12)).toBe(151);
  });
});
