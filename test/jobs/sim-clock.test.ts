/**
 * The simulated clock the soak shares between processes (src/lib/sim-clock.ts): a reader sees the
 * driver's time, a jump wakes at once every sleeper it carries past (in another process too), a
 * slower rate never wakes anyone early, and a sleeper leaves no listener behind on its signal.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSimClockFile, openSimClock, type SimClock, type SimClockDriver } from "../../src/lib/sim-clock.ts";

const HOUR = 3_600_000;
const START = Date.parse("2027-03-01T00:00:00+08:00");

let dir: string | null = null;
const opened: { close(): void }[] = [];

afterEach(() => {
  for (const clock of opened.splice(0)) clock.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function pair(rate = 1): { driver: SimClockDriver; reader: SimClock } {
  dir = mkdtempSync(join(tmpdir(), "teebox-sim-clock-"));
  const driver = createSimClockFile(join(dir, "clock"), { simMs: START, rate });
  const reader = openSimClock(driver.path);
  opened.push(reader, driver);
  return { driver, reader };
}

/** A signal that counts the abort listeners added to it and still there. */
function countingSignal() {
  const controller = new AbortController();
  const signal = controller.signal;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners++;
    add(...args);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners--;
    remove(...args);
  }) as typeof signal.removeEventListener;
  return { controller, signal, listeners: () => listeners };
}

test("a reader's time is the driver's, and a jump moves both at once", () => {
  const { driver, reader } = pair();
  expect(Math.abs(reader.now() - START)).toBeLessThan(1000);
  driver.jumpTo(START + 30 * 24 * HOUR);
  expect(reader.now()).toBeGreaterThanOrEqual(START + 30 * 24 * HOUR);
  expect(reader.now() - (START + 30 * 24 * HOUR)).toBeLessThan(1000);
});

test("a jump wakes a sleeper it carries past, whose moment was an hour of real time away", async () => {
  const { driver, reader } = pair();
  let woke = false;
  const sleeping = reader.sleepUntil(START + HOUR).then(() => (woke = true));
  driver.jumpTo(START + HOUR + 1000);
  await sleeping;
  expect(woke).toBe(true);
  expect(reader.now()).toBeGreaterThanOrEqual(START + HOUR);
});

test("a sleeper does not wake before its moment when the rate drops under it", async () => {
  const { driver, reader } = pair(1000);
  const target = reader.now() + 20_000;
  const sleeping = reader.sleepUntil(target).then(() => reader.now());
  // At 1000× the moment was 20 ms of real time away; at 1× it is 20 s away: it must still be asleep.
  driver.setRate(1);
  driver.jumpTo(target - 50);
  const wokeAt = await sleeping;
  expect(wokeAt).toBeGreaterThanOrEqual(target);
});

test("sleepers woken by time leave no listener on the long-lived signal they were given", async () => {
  const { driver, reader } = pair();
  const counting = countingSignal();
  for (let turn = 1; turn <= 50; turn++) {
    const sleeping = reader.sleepUntil(START + turn * HOUR, counting.signal);
    expect(counting.listeners()).toBe(1);
    driver.jumpTo(START + turn * HOUR);
    await sleeping;
  }
  expect(counting.listeners()).toBe(0);
});

test("an aborted sleeper wakes at once", async () => {
  const { reader } = pair();
  const controller = new AbortController();
  const sleeping = reader.sleepUntil(START + HOUR, controller.signal).then(() => reader.now());
  controller.abort();
  expect(await sleeping).toBeLessThan(START + HOUR);
});

test("a process that opened the file wakes when the driver jumps", async () => {
  const { driver } = pair();
  const script = `
    const { openSimClock } = await import(${JSON.stringify(join(import.meta.dir, "../../src/lib/sim-clock.ts"))});
    const clock = openSimClock(${JSON.stringify(driver.path)});
    console.log("sleeping");
    await clock.sleepUntil(${START + 5 * HOUR});
    console.log("woke " + clock.now());
    clock.close();
  `;
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("sleeping")) text += decoder.decode((await reader.read()).value);
  driver.jumpTo(START + 5 * HOUR + 10);
  while (!text.includes("woke")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  expect(await child.exited).toBe(0);
  expect(Number(/woke (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(START + 5 * HOUR);
});
