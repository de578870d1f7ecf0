/**
 * The one job loop (src/jobs/loop.ts) on a fake clock: a floor between scheduled passes, wakes
 * coalesced, one sleeper at a time, failures recorded without stopping the loop, and the health
 * record each job shows in /healthz and the System Monitor.
 */
import { afterEach, expect, test } from "bun:test";
import { createJobLoop, type JobLoop, type JobLoopSpec } from "../../src/jobs/loop.ts";
import { createJobRegistry } from "../../src/jobs/registry.ts";
import { FakeClock, systemClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";

const START = Date.UTC(2026, 10, 22, 1, 0, 0);
let loop: JobLoop | null = null;
afterEach(async () => {
  await loop?.stop();
  loop = null;
});

function setUp(spec: Partial<JobLoopSpec> & Pick<JobLoopSpec, "pass">) {
  const clock = new FakeClock(START);
  const jobs = createJobRegistry(() => clock.now());
  const logLines: string[] = [];
  const logger = createLogger(
    "debug",
    (line) => logLines.push(line),
    () => clock.now(),
  );
  loop = createJobLoop({ clock, logger, jobs }, { name: "test job", intervalMs: 5000, floorMs: 1000, ...spec });
  return { clock, jobs, logLines, loop };
}

/** Lets the loop run its continuations (a pass here does no I/O). */
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
  await Bun.sleep(0);
};

test("a pass that asks for a moment already gone waits the floor: no spin", async () => {
  let passes = 0;
  const { clock } = setUp({
    pass: async () => {
      passes++;
      return clock.now() - 60_000;
    },
  });
  loop!.start();
  await turns();
  expect(passes).toBe(1);
  // Ten seconds in 100 ms steps: one pass a second at most (plus the first).
  for (let i = 0; i < 100; i++) {
    await clock.advance(100);
    await turns(5);
  }
  expect(passes).toBeGreaterThanOrEqual(10);
  expect(passes).toBeLessThanOrEqual(11);
  expect(clock.sleeperCount).toBe(1);
});

test("with nothing asked, the next pass comes at the interval after the pass ended", async () => {
  let passes = 0;
  const { clock, jobs } = setUp({
    pass: async () => {
      passes++;
    },
  });
  loop!.start();
  await turns();
  expect(jobs.get("test job")).toMatchObject({ status: "online", passes: 1, lastRunAt: START, nextRunAt: START + 5000, passesPerMinute: 1 });
  await clock.advance(4999);
  await turns();
  expect(passes).toBe(1);
  await clock.advance(1);
  await turns();
  expect(passes).toBe(2);
});

test("wakes during a pass are coalesced into one more pass; a wake while waiting runs a pass at once", async () => {
  let passes = 0;
  let release: () => void = () => undefined;
  const { clock } = setUp({
    pass: async () => {
      passes++;
      if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
    },
  });
  loop!.start();
  await turns();
  for (let i = 0; i < 5; i++) loop!.wake();
  release();
  await turns();
  expect(passes).toBe(2);
  await turns();
  expect(passes).toBe(2);
  loop!.wake();
  await turns();
  expect(passes).toBe(3);
  expect(clock.sleeperCount).toBe(1);
});

test("a pass that throws is the job's last error; the loop goes on at its interval", async () => {
  let passes = 0;
  const { clock, jobs, logLines } = setUp({
    pass: async () => {
      passes++;
      if (passes === 1) throw new Error("the club did not answer");
    },
  });
  loop!.start();
  await turns();
  expect(jobs.get("test job")).toMatchObject({ status: "errored", lastError: "the club did not answer", errors: 1 });
  expect(logLines.some((line) => line.includes("a pass failed"))).toBe(true);
  await clock.advance(5000);
  await turns();
  expect(passes).toBe(2);
  expect(jobs.get("test job")).toMatchObject({ status: "online", errors: 1 });
});

test("stop ends the wait at once, lets a pass in flight finish, and marks the job stopped", async () => {
  let finished = false;
  let sawStop = false;
  let release: () => void = () => undefined;
  let passes = 0;
  const { clock, jobs } = setUp({
    pass: async (signal) => {
      passes++;
      if (passes === 2) {
        await new Promise<void>((resolve) => (release = resolve));
        sawStop = signal.aborted;
        finished = true;
      }
    },
  });
  loop!.start();
  await turns();
  await clock.advance(5000);
  await turns();
  const stopping = loop!.stop();
  await turns();
  expect(finished).toBe(false);
  release();
  await stopping;
  expect(finished).toBe(true);
  // The pass could see the job stopping, to end a long pass early.
  expect(sawStop).toBe(true);
  expect(jobs.get("test job")).toMatchObject({ status: "stopped", nextRunAt: null });
  expect(clock.sleeperCount).toBe(0);
  loop = null;
});

test("a job that never starts is not listed; one listed before start is, as stopped", () => {
  setUp({ pass: async () => undefined });
  const clock = new FakeClock(START);
  const jobs = createJobRegistry(() => clock.now());
  const logger = createLogger(
    "error",
    () => undefined,
    () => clock.now(),
  );
  createJobLoop({ clock, logger, jobs }, { name: "quiet", pass: async () => undefined, intervalMs: 1000, floorMs: 1000 });
  createJobLoop({ clock, logger, jobs }, { name: "listed", pass: async () => undefined, intervalMs: 1000, floorMs: 1000, listedBeforeStart: true });
  expect(jobs.list().map((j) => [j.name, j.status])).toEqual([["listed", "stopped"]]);
});

test("a job listed when it works is not listed while unused, and is listed with what it reported once it works before it starts", () => {
  const clock = new FakeClock(START);
  const jobs = createJobRegistry(() => clock.now());
  const logger = createLogger(
    "error",
    () => undefined,
    () => clock.now(),
  );
  const loop = createJobLoop({ clock, logger, jobs }, { name: "asked", pass: async () => undefined, intervalMs: 1000, floorMs: 1000, listedWhenItWorks: true });
  loop.handle.scheduled(START + 1000);
  loop.handle.stopped();
  expect(jobs.list()).toEqual([]);
  loop.handle.failed(new Error("the club did not answer"), START);
  expect(jobs.list().map((j) => [j.name, j.status, j.lastError])).toEqual([["asked", "errored", "the club did not answer"]]);
});

test("the system clock's sleep takes its abort listener away when it wakes: a long-lived signal collects none", async () => {
  let listeners = 0;
  const signal = {
    aborted: false,
    addEventListener: () => listeners++,
    removeEventListener: () => listeners--,
  } as unknown as AbortSignal;
  for (let i = 0; i < 20; i++) await systemClock.sleepUntil(Date.now() + 1, signal);
  expect(listeners).toBe(0);
  const clock = new FakeClock(START);
  const sleeping = clock.sleepUntil(START + 10, signal);
  expect(listeners).toBe(1);
  await clock.advance(10);
  await sleeping;
  expect(listeners).toBe(0);
});

test("each pass that ended well is told to whoever listens after work, a failed one is not; a listener's fault stops neither the loop nor the others (decision 216)", async () => {
  let fail = false;
  const { clock, jobs } = setUp({
    pass: async () => {
      if (fail) throw new Error("the club is down");
    },
  });
  const heard: string[] = [];
  jobs.afterWork(() => {
    throw new Error("a faulty listener");
  });
  const stop = jobs.afterWork((name, at) => heard.push(`${name}@${at - START}`));
  loop!.start();
  await turns();
  expect(heard).toEqual(["test job@0"]);
  fail = true;
  await clock.advance(5000);
  await turns();
  expect(heard).toEqual(["test job@0"]);
  fail = false;
  await clock.advance(5000);
  await turns();
  expect(heard).toEqual(["test job@0", "test job@10000"]);
  expect(jobs.get("test job")).toMatchObject({ status: "online", passes: 3, errors: 1 });
  stop();
  jobs.register("mail sender").ran(clock.now());
  expect(heard).toHaveLength(2);
});
