/** Our clock to a fraction of a millisecond (decision 202): tied to Date.now() and following it when it is set. */
import { afterEach, expect, spyOn, test } from "bun:test";
import { createPreciseClock } from "../../src/lib/precise-clock.ts";

afterEach(() => {
  (Date.now as unknown as { mockRestore?: () => void }).mockRestore?.();
  (performance.now as unknown as { mockRestore?: () => void }).mockRestore?.();
});

test("reads within the whole millisecond Date.now() reads, in fractions of it, never going back", () => {
  const clock = createPreciseClock();
  const error = clock.errorMs();
  expect(error).toBeGreaterThan(0);
  // A few hundredths of a millisecond on a quiet machine; wider only if every tick watched was interrupted.
  expect(error).toBeLessThan(1);
  let last = 0;
  let fractional = 0;
  for (let i = 0; i < 2_000; i++) {
    const before = Date.now();
    const reading = clock.now();
    const after = Date.now();
    expect(reading).toBeGreaterThanOrEqual(before - error);
    expect(reading).toBeLessThan(after + 1 + error);
    expect(reading).toBeGreaterThanOrEqual(last);
    if (!Number.isInteger(reading)) fractional++;
    last = reading;
  }
  expect(fractional).toBeGreaterThan(1_900);
});

test("a wall clock set by an hour is followed at the next reading", () => {
  const clock = createPreciseClock();
  const before = clock.now();
  const realNow = Date.now.bind(Date);
  spyOn(Date, "now").mockImplementation(() => realNow() + 3_600_000);
  const after = clock.now();
  expect(after - before).toBeGreaterThan(3_600_000 - 5);
  expect(after - before).toBeLessThan(3_600_000 + 50);
  expect(after).toBeGreaterThanOrEqual(Date.now() - clock.errorMs());
});

/**
 * A double near today's epoch milliseconds (1.8e12) steps by 0.00024 ms: the reading and the truth,
 * summed in another order, may differ by that much (a check once failed by 0.0002 ms).
 */
const FLOAT_STEP_MS = 0.001;

test("a wall clock that drifts from the fine counter by a fraction of a millisecond is followed within a few readings", () => {
  const clock = createPreciseClock();
  clock.now();
  // The wall clock now reads 0.4 ms later than the counter the clock was tied to.
  const truth = () => performance.timeOrigin + performance.now() + 0.4;
  spyOn(Date, "now").mockImplementation(() => Math.floor(truth()));
  // Read as probes are, spread over time, so some readings fall past the millisecond Date.now() shows.
  const spreadReads = (count: number, each: () => void) => {
    for (let i = 0; i < count; i++) {
      const until = performance.now() + 0.13;
      while (performance.now() < until) {
        // between two readings
      }
      each();
    }
  };
  spreadReads(100, () => clock.now());
  // Bracketed by the truth read before and after, so a pause between the reads is not taken for an error.
  spreadReads(100, () => {
    const before = truth();
    const reading = clock.now();
    const after = truth();
    expect(reading).toBeGreaterThanOrEqual(before - clock.errorMs() - FLOAT_STEP_MS);
    expect(reading).toBeLessThanOrEqual(after + clock.errorMs() + FLOAT_STEP_MS);
  });
});

test("a thread paused just after each Date.now() (a loaded machine) still reads within the error it claims", () => {
  // Scripted clocks: the fine counter moves 0.5 µs a read, and the thread loses 0.3 ms after every
  // Date.now(), so the wall clock ticks during those pauses. The true wall clock is WALL_AT_ZERO + counter.
  const WALL_AT_ZERO = 1_795_000_000_000.123;
  let counter = 0;
  let lastFine = 0;
  spyOn(performance, "now").mockImplementation(() => {
    counter += 0.0005;
    lastFine = counter;
    return counter;
  });
  spyOn(Date, "now").mockImplementation(() => {
    const wall = Math.floor(WALL_AT_ZERO + counter);
    counter += 0.3;
    return wall;
  });
  const clock = createPreciseClock();
  for (let i = 0; i < 20; i++) {
    const reading = clock.now();
    // The reading is the fine read it made, moved by the calibration: compare it with the truth then.
    expect(Math.abs(reading - (WALL_AT_ZERO + lastFine))).toBeLessThanOrEqual(clock.errorMs() + FLOAT_STEP_MS);
  }
});
