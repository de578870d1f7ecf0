/**
 * Start-up and idle memory of the single binary: time from spawn to the first 200 from /healthz on an
 * existing database (target ≤ 100 ms), and resident memory after it has sat idle (target ≤ 64 MB).
 * Idle is read 10 s after the start, once every job has run its first round (the bookings sync's
 * comes at 30 s, the telemetry's at 60 s), and then every 5 s through one whole cycle of the work a
 * Teebox left alone does: from the first scrape on the schedule to the next. The target is on that
 * cycle's median, what a resting Teebox holds most of the time; its maximum is printed beside it,
 * with how many readings were above the target (a scrape's memory is given back as the scrape ends,
 * decision 216). `--quick` stops after the second reading (and prints no target).
 * Usage: bun scripts/bench/startup.ts [runs=5] [--quick]   (builds dist/teebox first when it is missing)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCRAPE_INTERVAL_MS } from "../../src/jobs/scraper.ts";
import { builtBinary, freePort, percentile, rssMb } from "./support.ts";

const args = process.argv.slice(2);
const runs = Number(args.find((arg) => !arg.startsWith("--")) ?? 5);
const quick = args.includes("--quick");
const binary = builtBinary();

const dataDir = mkdtempSync(join(tmpdir(), "teebox-startup-"));

async function startOnce(): Promise<{ ms: number; pid: number; port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const started = performance.now();
  const proc = Bun.spawn([binary], {
    cwd: dataDir,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_PASSWORD: "bench-admin-password", LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "inherit",
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await Bun.sleep(2);
  }
  const ms = performance.now() - started;
  return {
    ms,
    pid: proc.pid,
    port,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

// The first start creates, migrates and seeds the database; the measured ones find it there.
await (await startOnce()).stop();
const times: number[] = [];
let idleRss = 0;
let firstRoundsRss = 0;
let cycle: { atMs: number; rssMb: number }[] = [];
/** Every job's first round is over by then: the bookings sync's at 30 s, the telemetry's at 60 s. */
const FIRST_ROUNDS_MS = 90_000;
/** Between two readings of the cycle. */
const CYCLE_READING_MS = 5_000;

/** RSS every CYCLE_READING_MS from `fromMs` to `toMs` after `started`. */
async function readCycle(pid: number, started: number, fromMs: number, toMs: number): Promise<{ atMs: number; rssMb: number }[]> {
  const readings: { atMs: number; rssMb: number }[] = [];
  for (let atMs = fromMs; atMs <= toMs; atMs += CYCLE_READING_MS) {
    await Bun.sleep(started + atMs - Date.now());
    readings.push({ atMs, rssMb: await rssMb(pid) });
  }
  return readings;
}

for (let i = 0; i < runs; i++) {
  const run = await startOnce();
  times.push(run.ms);
  if (i === runs - 1) {
    const started = Date.now();
    await Bun.sleep(10_000); // let the start-up scrape and timers settle
    idleRss = await rssMb(run.pid);
    await Bun.sleep(started + FIRST_ROUNDS_MS - Date.now());
    firstRoundsRss = await rssMb(run.pid);
    // The start's own scrape is at 0; the first on the schedule SCRAPE_INTERVAL_MS later, the next one after that.
    if (!quick) cycle = await readCycle(run.pid, started, SCRAPE_INTERVAL_MS, 2 * SCRAPE_INTERVAL_MS);
  }
  await run.stop();
}
times.sort((a, b) => a - b);
console.log(`binary: ${binary}`);
console.log(
  `start-up to first 200 from /healthz (existing database, ${runs} runs): median ${percentile(times, 50).toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms (target ≤ 100 ms)`,
);
console.log(`idle memory (RSS 10 s after the start): ${idleRss.toFixed(1)} MB`);
console.log(`idle memory once every job's first round has run (RSS ${FIRST_ROUNDS_MS / 1000} s after the start): ${firstRoundsRss.toFixed(1)} MB`);
if (!quick) {
  const sorted = cycle.map((r) => r.rssMb).sort((a, b) => a - b);
  const highest = cycle.reduce((a, b) => (b.rssMb > a.rssMb ? b : a));
  const minutes = (ms: number) => `${(ms / 60_000).toFixed(2)} min`;
  console.log(
    `idle memory at rest, one scrape cycle (RSS every ${CYCLE_READING_MS / 1000} s from ${minutes(SCRAPE_INTERVAL_MS)} to ${minutes(2 * SCRAPE_INTERVAL_MS)} after the start, ${cycle.length} readings): ` +
      `median ${percentile(sorted, 50).toFixed(1)} MB (target ≤ 64 MB), lowest ${sorted[0].toFixed(1)} MB, highest ${highest.rssMb.toFixed(1)} MB at ${minutes(highest.atMs)}, ` +
      `${sorted.filter((mb) => mb > 64).length} readings above 64 MB`,
  );
}
