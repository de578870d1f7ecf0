/**
 * A restart close to a release (decision 210): a Teebox stopped while it prepares, and a new engine
 * started on the same database shortly before the instant or after it. The club's clock is measured
 * for real against the demo club (on the test's fake clock), with a fine measurement that never
 * reaches its aim, so it takes all of its ~30 one-second rounds unless something ends it: what a
 * busy machine or a distant club makes of it.
 */
import { afterEach, expect, test } from "bun:test";
import { measureClockOffset } from "../../src/club/clock-offset.ts";
import { createReleaseEngine, type ReleaseEngine, type ReleaseEngineOptions } from "../../src/jobs/release-engine.ts";
import type { MeasureOffset } from "../../src/jobs/release/runtime.ts";
import { PLAY, RELEASE, startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

/** The club's clock runs this far ahead of ours. */
const CLUB_OFFSET_MS = 700;
const EMAILS = ["maria@southwoods.demo", "jose@southwoods.demo"];

/** The real measurement, with a fine one that aims at 0 ms: only its deadline, a stop or its 121 probes end it. */
const slowFineMeasure: MeasureOffset = (deps, precision = "fine", bounds = {}) =>
  precision === "coarse"
    ? measureClockOffset(deps.club, { clock: deps.clock, targetUncertaintyMs: 250, maxProbes: 5, probesPerRound: 4, ...bounds })
    : measureClockOffset(deps.club, { clock: deps.clock, targetUncertaintyMs: 0, maxProbes: 121, probesPerRound: 4, ...bounds });

const OPTIONS: ReleaseEngineOptions = { measureOffset: slowFineMeasure, unavailableWindowMs: 60_000 };

let f: ReleaseFixture | null = null;
const engines: ReleaseEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop();
  await f?.close();
  f = null;
});

/** A new engine on the fixture's database and club, as a new process would start (no offset measured yet). */
function newEngine(fx: ReleaseFixture, options: ReleaseEngineOptions = OPTIONS): ReleaseEngine {
  const { database, clock, logger, jobs, club, sessions, notifier } = fx.t.deps;
  const engine = createReleaseEngine({ database, clock, logger, jobs, club, sessions, notifier }, options);
  engines.push(engine);
  return engine;
}

/** Steps the fake clock to `atMs` in steps of `stepMs`, letting `engine` act after each. */
async function stepTo(fx: ReleaseFixture, engine: ReleaseEngine, atMs: number, stepMs = 20): Promise<void> {
  while (fx.clock.now() < atMs) {
    await engine.idle();
    await fx.clock.set(Math.min(atMs, fx.clock.now() + stepMs));
  }
  await engine.idle();
}

/** When each member's first booking post reached the club, ms after the release instant (null: none). */
const firstPostsAfterInstant = (fx: ReleaseFixture) =>
  EMAILS.map((email) => {
    const arrivals = fx.sim
      .attempts()
      .filter((a) => a.email === email && !a.isRival)
      .map((a) => a.arrivedClubMs - RELEASE);
    return arrivals.length === 0 ? null : Math.min(...arrivals);
  });

async function twoRequests(): Promise<ReleaseFixture> {
  const fx = await startReleaseFixture({ clubOffsetMs: CLUB_OFFSET_MS, engine: OPTIONS, startEngine: false });
  await fx.submit("maria", submission(PLAY, ["06:00", "06:08"]));
  await fx.submit("jose", submission(PLAY, ["06:16", "06:24"]));
  return fx;
}

/** Our moment at which the club's clock reads the instant plus `ms`. */
const ours = (ms: number) => RELEASE - CLUB_OFFSET_MS + ms;

test("started 10 s before the instant, with a fine measurement that would take 30 s, the first posts still reach the club at the instant, never before it", async () => {
  f = await twoRequests();
  await f.clock.set(ours(-10_000));
  const engine = newEngine(f);
  await engine.start();
  await stepTo(f, engine, ours(3_000));
  const firsts = firstPostsAfterInstant(f);
  console.log(`first posts after a start 10 s before the instant: ${firsts.map((ms) => `+${ms} ms`).join(", ")}`);
  for (const ms of firsts) {
    expect(ms).not.toBeNull();
    expect(ms!).toBeGreaterThanOrEqual(0);
    // The uncertainty of the interval measured by then is added, never more than a step or two of the test's clock.
    expect(ms!).toBeLessThan(300);
  }
});

test("a stop while the club's clock is being measured returns without waiting out the measurement's rounds", async () => {
  f = await twoRequests();
  await f.clock.set(ours(-90_000));
  const engine = newEngine(f);
  await engine.start();
  // Into the fine measurement: sign-ins done, a few rounds of probes made.
  await stepTo(f, engine, ours(-85_000));
  // The fake clock does not move: a stop that waited for the measurement's next round would never
  // end. What it does wait for (probes and sign-ins in flight at the club) takes milliseconds.
  const stopped = await Promise.race([engine.stop().then(() => "stopped"), Bun.sleep(5_000).then(() => "still measuring")]);
  expect(stopped).toBe("stopped");
  // Nothing was posted, and both requests wait for the next start.
  expect(firstPostsAfterInstant(f)).toEqual([null, null]);
});

test("stopped a second before the instant and started again 5 s after it, the requests are posted at once", async () => {
  f = await twoRequests();
  await f.clock.set(ours(-90_000));
  const first = newEngine(f);
  await first.start();
  await stepTo(f, first, ours(-1_000), 50);
  await first.stop();
  // Down over the instant: nothing leaves.
  await f.clock.set(ours(5_000));
  expect(firstPostsAfterInstant(f)).toEqual([null, null]);
  const second = newEngine(f);
  await second.start();
  await stepTo(f, second, ours(8_000));
  const firsts = firstPostsAfterInstant(f);
  console.log(`first posts after a start 5 s past the instant: ${firsts.map((ms) => `+${ms} ms`).join(", ")}`);
  // Within a second and a half of the start: a coarse reading of the club's clock waits for a club second.
  for (const ms of firsts) {
    expect(ms).not.toBeNull();
    expect(ms!).toBeLessThanOrEqual(5_000 + 1_500);
  }
});

/** An engine whose full collections after a preparation are noted (our clock), not made. */
function collectingEngine(fx: ReleaseFixture): { engine: ReleaseEngine; collectedAt: number[] } {
  const collectedAt: number[] = [];
  const engine = newEngine(fx, { ...OPTIONS, collectGarbage: () => void collectedAt.push(fx.clock.now()) });
  return { engine, collectedAt };
}

test("prepared well ahead, the preparation's garbage is collected once, before the wave is armed (decision 214)", async () => {
  f = await twoRequests();
  await f.clock.set(ours(-120_000));
  const { engine, collectedAt } = collectingEngine(f);
  await engine.start();
  await stepTo(f, engine, ours(-2_000), 500);
  expect(collectedAt.length).toBe(1);
  // After the sign-ins and the clock's measurement (they begin 90 s ahead), long before the wave is armed.
  expect(collectedAt[0]).toBeGreaterThan(ours(-90_000));
  expect(collectedAt[0]).toBeLessThanOrEqual(ours(-5_000));
  expect(f.t.logLines.filter((line) => line.includes("the preparation's garbage collected")).length).toBe(1);
  await stepTo(f, engine, ours(3_000));
  expect(collectedAt.length).toBe(1);
  for (const ms of firstPostsAfterInstant(f)) {
    expect(ms).not.toBeNull();
    expect(ms!).toBeGreaterThanOrEqual(0);
  }
});

test("started 3 s before the instant, no collection pauses the thread: too little time is left", async () => {
  f = await twoRequests();
  await f.clock.set(ours(-3_000));
  const { engine, collectedAt } = collectingEngine(f);
  await engine.start();
  await stepTo(f, engine, ours(3_000));
  expect(collectedAt).toEqual([]);
  for (const ms of firstPostsAfterInstant(f)) expect(ms).not.toBeNull();
});
