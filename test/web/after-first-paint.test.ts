import "../helpers/dom.ts";
import { describe, expect, test } from "bun:test";
import { createPaintGate, FIRST_PAINT_TIMEOUT_MS, type PaintWatch } from "../../web/lib/after-first-paint.ts";

function fakeWatch(canWatch = true) {
  const timers: { callback: () => void; ms: number; isCleared: boolean }[] = [];
  let paint: (() => void) | null = null;
  let stops = 0;
  const watch: PaintWatch = {
    canWatch: () => canWatch,
    onFirstContentfulPaint(callback) {
      paint = callback;
      return () => stops++;
    },
    setTimer(callback, ms) {
      timers.push({ callback, ms, isCleared: false });
      return timers.length - 1;
    },
    clearTimer(handle) {
      timers[handle as number].isCleared = true;
    },
  };
  const runTimers = () => {
    for (const timer of timers.splice(0)) if (!timer.isCleared) timer.callback();
  };
  return { watch, timers, paint: () => paint?.(), runTimers, stops: () => stops };
}

describe("after the first paint", () => {
  test("queued work waits for the first contentful paint, then runs in order, each in a task of its own", () => {
    const fake = fakeWatch();
    const afterFirstPaint = createPaintGate(fake.watch);
    const ran: string[] = [];
    afterFirstPaint(() => ran.push("texts"));
    afterFirstPaint(() => ran.push("worker"));
    expect(ran).toEqual([]);
    fake.paint();
    expect(ran).toEqual([]);
    expect(fake.timers.filter((t) => !t.isCleared).map((t) => t.ms)).toEqual([0, 0, 0]);
    fake.runTimers();
    expect(ran).toEqual(["texts", "worker"]);
    expect(fake.stops()).toBe(1);
    // Once painted, new work runs at once.
    afterFirstPaint(() => ran.push("log"));
    expect(ran).toEqual(["texts", "worker", "log"]);
  });

  test("a page that never paints content runs the work after the time limit", () => {
    const fake = fakeWatch();
    const afterFirstPaint = createPaintGate(fake.watch);
    let hasRun = false;
    afterFirstPaint(() => (hasRun = true));
    expect(fake.timers.map((t) => t.ms)).toEqual([FIRST_PAINT_TIMEOUT_MS]);
    fake.runTimers();
    fake.runTimers();
    expect(hasRun).toBe(true);
  });

  test("without paint timing (or in a hidden tab) the work does not wait, and one failure does not stop the rest", () => {
    const fake = fakeWatch(false);
    const afterFirstPaint = createPaintGate(fake.watch);
    const ran: string[] = [];
    const error = console.error;
    console.error = () => undefined;
    try {
      afterFirstPaint(() => {
        throw new Error("boom");
      });
      afterFirstPaint(() => ran.push("next"));
      fake.runTimers();
    } finally {
      console.error = error;
    }
    expect(ran).toEqual(["next"]);
  });
});
