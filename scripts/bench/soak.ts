/**
 * The soak benchmark: a year of club life in minutes (decision 151). Teebox and the demo
 * club run as real processes over real HTTP on the file database, on a shared simulated clock,
 * through the days of a 200-member club: a release every day with rivals, requests made, edited
 * and cancelled, watches made, booked and cancelled, bookings cancelled at the club, scrapes and
 * syncs on their schedules, mail to a loopback SMTP server that is sometimes down, admin edits, and
 * each week a kill -9 and a SIGTERM restart at a random moment. After each day it checks that
 * nothing is lost, doubled or orphaned against the club's own record, that every job is alive,
 * Teebox's CPU at rest, its memory trend, the database and log sizes and the requests to the club.
 *
 * Prints a table per simulated month, every failure, and writes the chart (RSS, CPU at rest,
 * database size, club requests per day) to --chart (default bench-output/soak-chart.svg, a
 * gitignored folder). The chart is rewritten after every simulated day and each month's row printed
 * at its end, so a run cut short still leaves its figures. Exits 1 on a failure.
 *
 *   bun scripts/bench/soak.ts [--days=30] [--members=200] [--seed=1] [--chart=bench-output/soak-chart.svg]
 *                             [--release-rate=20] [--day-rate=120] [--no-restarts]
 *                             [--database-mb=N] [--log-mb-per-day=N]
 *                             [--restart=DAY:kill|term:SECONDS[:RACE_MS],...]
 *
 * --restart replaces the weekly plan by restarts at given moments of given days' release phases
 * (SECONDS from the instant, club clock; e.g. --restart=6:kill:-60,6:term:-2 on the 7th day, whose
 * club opens late), to reproduce one.
 */
import { readOptions } from "./release-support.ts";
import type { Restart } from "./soak/day.ts";
import { DEFAULT_BOUNDS, DEFAULT_OPTIONS, runSoak } from "./soak/run.ts";

const { options } = readOptions(process.argv.slice(2));
const number = (name: string, fallback: number) => {
  const value = Number(options.get(name) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
  return value;
};
const optional = (name: string) => (options.has(name) ? number(name, 0) : null);

/** --restart=DAY:kill|term:SECONDS[:RACE_MS],… as a plan by day. */
function forcedRestarts(text: string | undefined): Map<number, Restart[]> | undefined {
  if (text === undefined) return undefined;
  const plan = new Map<number, Restart[]>();
  for (const item of text.split(",")) {
    const [day, how, seconds, race = "0"] = item.split(":");
    if (!/^\d+$/.test(day) || (how !== "kill" && how !== "term") || !Number.isFinite(Number(seconds)) || !/^\d+$/.test(race)) {
      console.error(`--restart: '${item}' is not DAY:kill|term:SECONDS[:RACE_MS]`);
      process.exit(2);
    }
    const restart: Restart = { how, phase: "release", at: 0, raceMs: Number(race), atInstantMs: Number(seconds) * 1000 };
    plan.set(Number(day), [...(plan.get(Number(day)) ?? []), restart]);
  }
  return plan;
}

// Ctrl-C or SIGTERM: the day being lived ends, the processes are stopped, and what was lived is reported.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop.abort());

const result = await runSoak({
  signal: stop.signal,
  days: number("days", DEFAULT_OPTIONS.days),
  members: number("members", DEFAULT_OPTIONS.members),
  seed: number("seed", DEFAULT_OPTIONS.seed),
  releaseRate: number("release-rate", DEFAULT_OPTIONS.releaseRate),
  dayRate: number("day-rate", DEFAULT_OPTIONS.dayRate),
  restarts: !options.has("no-restarts"),
  forcedRestarts: forcedRestarts(options.get("restart")),
  chartFile: options.get("chart") ?? DEFAULT_OPTIONS.chartFile,
  bounds: { ...DEFAULT_BOUNDS, databaseMb: optional("database-mb") ?? DEFAULT_BOUNDS.databaseMb, logMbPerDay: optional("log-mb-per-day") ?? DEFAULT_BOUNDS.logMbPerDay },
});
console.log(`\n${result.table}`);
// What each table held after the first day, a month in (each month), and at the end: a table that
// only grows shows here.
const marks = result.days.filter((_, i) => i === 0 || i === result.days.length - 1 || (i + 1) % 30 === 0);
for (const name of Object.keys(result.days.at(-1)?.tableRows ?? {}).sort())
  console.log(`rows ${name.padEnd(24)} ${marks.map((d) => `day ${d.day + 1}: ${d.tableRows[name] ?? 0}`).join(", ")}`);
for (const failure of result.failures) console.log(`day ${failure.day} (${failure.date}) ${failure.invariant}: ${failure.detail}`);
for (const surprise of result.surprises.slice(0, 50)) console.log(`note: ${surprise}`);
console.log(`\n${result.days.length} days in ${(result.realMs / 60_000).toFixed(1)} min; ${result.failures.length} invariant failure(s); chart: ${result.chartFile ?? "none"}`);
process.exit(result.failures.length > 0 ? 1 : 0);
