/**
 * Teebox at rest in real time, for half an hour: the demo as `npm start` runs it (Teebox with its
 * demo club, the system clock, a file database), a burst of ordinary use (members sign in, read
 * their pages, make requests, make a watch and cancel it, ask for a scrape; the admin opens the
 * System Monitor), then nothing at all. Every 10 s Teebox's CPU (share of one core over the last
 * 10 s, from /proc) and memory (RSS) are sampled and printed; at the end a verdict: mean and
 * highest CPU against the 2% bound, and the memory trend (least-squares slope after the first two
 * minutes) against 0.5 MB a minute (decision 152).
 *
 *   bun scripts/bench/idle-realtime.ts [--minutes=30] [--every=10]
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLUB_COURSES } from "../../src/club-sim/demo-data.ts";
import { isCourseOpenOn, teeTimesFor } from "../../src/club-sim/tee-sheet.ts";
import { addDays, manilaDate } from "../../src/domain/manila-time.ts";
import { readOptions } from "./release-support.ts";
import { slope } from "./soak/invariants.ts";
import { Client } from "./soak/members.ts";
import { cpuMs } from "./soak/processes.ts";
import { BENCH_ADMIN_PASSWORD, rssMb, startTeebox } from "./support.ts";

const { options } = readOptions(process.argv.slice(2));
const minutes = Number(options.get("minutes") ?? 30);
const everySeconds = Number(options.get("every") ?? 10);
const CPU_BOUND_PERCENT = 2;
const RSS_SLOPE_BOUND_MB_PER_MINUTE = 0.5;
const WARM_UP_MINUTES = 2;
const DEMO_MEMBERS = ["maria", "jose", "ana"];

const teebox = await startTeebox();
const pid = teebox.proc.pid;
try {
  const club = JSON.parse(readFileSync(join(teebox.dataDir, "demo-club.json"), "utf8")) as { url: string; controlToken: string };
  const control = (path: string, body: unknown) =>
    fetch(`${club.url}/__control${path}`, { method: "POST", headers: { "content-type": "application/json", "x-control-token": club.controlToken }, body: JSON.stringify(body) });

  // ── the burst ──────────────────────────────────────────────────────────
  const burstStarted = performance.now();
  const admin = new Client(() => teebox.url, "admin", BENCH_ADMIN_PASSWORD);
  await admin.ok("GET", "/v1/admin/system-stats");
  const today = manilaDate(Date.now());
  for (const [i, username] of DEMO_MEMBERS.entries()) {
    const member = new Client(() => teebox.url, username, "demo1234");
    for (const path of ["/v1/tee-times", "/v1/my/bookings", "/v1/my/requests", "/v1/advisories", "/v1/my/notifications"]) await member.ok("GET", path);
    const date = addDays(today, 9 + i);
    const course = CLUB_COURSES.find((c) => isCourseOpenOn(c, date))!;
    const grid = teeTimesFor(date, course);
    await member.act("SUBMIT_BOOKING_REQUEST", {
      course: course.id,
      targetDate: date,
      selectionOrder: grid.slice(0, 3).map((time) => ({ time, slotId: null })),
      memberCartType: "Rental Cart - Solo",
      playerDetails: { players: [] },
    });
    if (i === 0) await member.act("RUN_SCRAPER", undefined);
  }
  // A watch on a full band of tomorrow's tee times, then its member changes their mind.
  const tomorrow = addDays(today, 1);
  const course = CLUB_COURSES.find((c) => isCourseOpenOn(c, tomorrow))!;
  const band = teeTimesFor(tomorrow, course)
    .filter((t) => t >= "06:00")
    .slice(0, 4);
  for (const time of band) await control("/slot", { date: tomorrow, course: course.id, time, status: "BOOKED" });
  const maria = new Client(() => teebox.url, "maria", "demo1234");
  const watch = await maria.ok<{ watch: { id: number } }>("POST", "/v1/my/watches", {
    course: course.id,
    targetDate: tomorrow,
    memberCartType: "Rental Cart - Solo",
    playerDetails: { players: [] },
    fromTime: band[0],
    toTime: band[3],
    mode: "book",
  });
  await Bun.sleep(2000);
  await maria.ok("POST", `/v1/my/watches/${watch.watch.id}/cancel`, {});
  await admin.ok("GET", "/v1/admin/system-stats");
  console.log(`burst of ordinary use: ${((performance.now() - burstStarted) / 1000).toFixed(1)} s; now at rest for ${minutes} min, a sample every ${everySeconds} s`);

  // ── at rest ────────────────────────────────────────────────────────────
  const samples: { atS: number; cpu: number; rss: number }[] = [];
  const restStarted = performance.now();
  let lastCpu = await cpuMs(pid);
  let lastAt = performance.now();
  while (performance.now() - restStarted < minutes * 60_000) {
    await Bun.sleep(everySeconds * 1000);
    const [cpu, now] = [await cpuMs(pid), performance.now()];
    const sample = { atS: Math.round((now - restStarted) / 1000), cpu: ((cpu - lastCpu) / (now - lastAt)) * 100, rss: await rssMb(pid) };
    [lastCpu, lastAt] = [cpu, now];
    samples.push(sample);
    console.log(`+${String(sample.atS).padStart(5)} s  CPU ${sample.cpu.toFixed(2).padStart(6)}%  RSS ${sample.rss.toFixed(1)} MB`);
  }

  // ── the verdict ────────────────────────────────────────────────────────
  const cpus = samples.map((s) => s.cpu);
  const meanCpu = cpus.reduce((a, b) => a + b, 0) / cpus.length;
  const warm = samples.filter((s) => s.atS > WARM_UP_MINUTES * 60);
  const rssSlopePerMinute = slope(warm.map((s) => s.rss)) * (60 / everySeconds);
  const isQuiet = meanCpu < CPU_BOUND_PERCENT;
  const isFlat = rssSlopePerMinute < RSS_SLOPE_BOUND_MB_PER_MINUTE;
  console.log(
    JSON.stringify({
      minutes,
      samples: samples.length,
      meanCpuPercent: Number(meanCpu.toFixed(2)),
      maxCpuPercent: Number(Math.max(...cpus).toFixed(2)),
      rssStartMb: Number(samples[0].rss.toFixed(1)),
      rssEndMb: Number(samples.at(-1)!.rss.toFixed(1)),
      rssSlopeMbPerMinute: Number(rssSlopePerMinute.toFixed(3)),
    }),
  );
  console.log(
    `verdict: ${isQuiet && isFlat ? "at rest" : "NOT at rest"}: mean CPU ${meanCpu.toFixed(2)}% (bound ${CPU_BOUND_PERCENT}%), memory ${rssSlopePerMinute >= 0 ? "+" : ""}${rssSlopePerMinute.toFixed(2)} MB a minute after ${WARM_UP_MINUTES} min (bound ${RSS_SLOPE_BOUND_MB_PER_MINUTE})`,
  );
  process.exitCode = isQuiet && isFlat ? 0 : 1;
} finally {
  await teebox.stop();
  rmSync(teebox.dataDir, { recursive: true, force: true });
}
