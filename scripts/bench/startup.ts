/**
 * Start-up and idle memory of the single binary: time from spawn to the first 200 from /healthz on an
 * existing database (target ≤ 100 ms), and resident memory after it has sat idle (target ≤ 64 MB).
 * Idle is read three times: 10 s after the start; once every job has run its first round (the
 * bookings sync's comes at 30 s, the telemetry's at 60 s); and a minute after the first scrape on
 * the schedule. The last is the one the target is for: the first round of work after the start's
 * pages were given back (decision 211) maps the pages of the runtime that work at rest needs
 * again, and each scrape leaves garbage until the memory keeper's collection, so the earlier
 * readings flatter. `--quick` stops after the second reading (and prints no target).
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
let restRss = 0;
/** Every job's first round is over by then: the bookings sync's at 30 s, the telemetry's at 60 s. */
const FIRST_ROUNDS_MS = 90_000;
/** A minute after the first scrape on the schedule (the start's own scrape is the one before it). */
const AT_REST_MS = SCRAPE_INTERVAL_MS + 60_000;
for (let i = 0; i < runs; i++) {
  const run = await startOnce();
  times.push(run.ms);
  if (i === runs - 1) {
    const started = Date.now();
    await Bun.sleep(10_000); // let the start-up scrape and timers settle
    idleRss = await rssMb(run.pid);
    await Bun.sleep(started + FIRST_ROUNDS_MS - Date.now());
    firstRoundsRss = await rssMb(run.pid);
    if (!quick) {
      await Bun.sleep(started + AT_REST_MS - Date.now());
      restRss = await rssMb(run.pid);
    }
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
if (!quick)
  console.log(`idle memory at rest (RSS ${AT_REST_MS / 60_000} min after the start, a minute after the first scheduled scrape): ${restRss.toFixed(1)} MB (target ≤ 64 MB)`);
