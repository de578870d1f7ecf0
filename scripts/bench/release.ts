/**
 * Release benchmark: members (100 by default), each with a request for the same play date due at
 * the same instant, their wishes drawn from the club's real grid for their course and day. The
 * demo club runs in its own process with its clock ahead of true time (1.3 s by default) and rivals
 * who take half the popular slots shortly after the release (150 ms by default; `50,150` for two
 * groups at those delays); Teebox (the release engine, the real club adapter, a file database) runs
 * in a process of its own.
 *
 * Prints what the club saw: early posts, first-post lateness leaving Teebox and arriving at the
 * club (on the club's clock), contested slots won by Teebox and by rivals per course, first choices
 * won beside those the fairness rule gives, members with a slot beside the most any engine could,
 * members left with nothing although a slot on their list was free, duplicates and peak memory
 * (docs/decisions/090-honest-release-benchmark.md, 190-an-exact-release-oracle.md), then each goal
 * and whether it was met.
 *
 * With --under-load the release is played twice: quiet, then while members have the app open
 * (3 sockets a member) and some of them (100, or 3 in 10 of a larger club) reload it in the second
 * around the instant; both sets of figures are printed, the second with what those reads met.
 *
 * --open-late=ms makes the club open the date that much later than it announced (decision 148).
 *
 * With --club-delay the club is across a network: a proxy in front of it (delay-proxy.ts) holds
 * each way for that many ms ± --club-jitter (decision 191).
 *
 *   bun scripts/bench/release.ts [members=100] [--club-offset=1300] [--rival-delay=150|50,150]
 *                                [--open-late=0] [--under-load [--sockets=n] [--refreshers=n]] [--club-delay=15 [--club-jitter=5]]
 */
import { describeFigures, playRelease, readOptions, type ReleaseCase, type ReleaseFigures } from "./release-support.ts";
import { teeboxContender } from "./teebox-contender.ts";

const { positional, options } = readOptions(process.argv.slice(2));
const members = Number(positional[0] ?? 100);
const clubDelay = options.has("club-delay") ? Number(options.get("club-delay")) : null;
const releaseCase: ReleaseCase = {
  clubOffsetMs: Number(options.get("club-offset") ?? 1300),
  rivalDelaysMs: (options.get("rival-delay") ?? "150").split(",").map(Number),
  ...(clubDelay !== null ? { network: { delayMs: clubDelay, jitterMs: Number(options.get("club-jitter") ?? 5) } } : {}),
  lateMs: Number(options.get("open-late") ?? 0),
};
const load = {
  sockets: Number(options.get("sockets") ?? members * 3),
  refreshers: Number(options.get("refreshers") ?? Math.min(members, Math.max(100, Math.round(members * 0.3)))),
};
const isValid =
  Number.isInteger(members) &&
  members >= 1 &&
  Number.isFinite(releaseCase.clubOffsetMs) &&
  releaseCase.rivalDelaysMs.every(Number.isFinite) &&
  (releaseCase.lateMs ?? 0) >= 0 &&
  (!releaseCase.network || (Number.isFinite(releaseCase.network.delayMs) && Number.isFinite(releaseCase.network.jitterMs))) &&
  Number.isInteger(load.sockets) &&
  Number.isInteger(load.refreshers);
if (!isValid) {
  console.error(
    "usage: bun scripts/bench/release.ts [members=100] [--club-offset=ms] [--rival-delay=ms[,ms]] [--open-late=ms] [--under-load [--sockets=n] [--refreshers=n]] [--club-delay=ms [--club-jitter=ms]]",
  );
  process.exit(2);
}

/** The goals each run is held to, with whether this run met them. */
function goals(f: ReleaseFigures): string[] {
  const rssGoalMb = members <= 100 ? 100 : 200;
  const rows: [string, boolean][] = [
    ["no post reached the club early", f.earlyPosts === 0],
    ["no member holds two bookings", f.duplicates === 0],
    ["every first choice the fairness rule gives was won", f.firstChoicesMissed === 0],
    [`Teebox's peak memory ≤ ${rssGoalMb} MB`, f.peakRssMb <= rssGoalMb],
  ];
  const network = f.releaseCase.network;
  if (!network) rows.push(["first posts leave by 2 ms after the instant (p99)", f.leaving.p99 <= 2]);
  else {
    rows.push([`first posts arrive within the one-way delay + 5 ms (p99 ≤ ${network.delayMs + 5} ms)`, f.arriving.p99 <= network.delayMs + 5]);
    rows.push([`club clock offset within half the jitter (|error| ≤ ${network.jitterMs / 2} ms)`, f.offsetErrorMs !== null && Math.abs(f.offsetErrorMs) <= network.jitterMs / 2]);
    rows.push(["rivals won no slot a member asked for", f.contest.every((c) => c.wonByRivals === 0)]);
  }
  if (f.reads) rows.push(["reads at the instant answered, p99 ≤ 250 ms", f.reads.failed === 0 && f.reads.p99Ms <= 250]);
  return rows.map(([goal, isMet]) => `  ${isMet ? "met" : "NOT met"}: ${goal}`);
}

function print(figures: ReleaseFigures): void {
  for (const line of describeFigures(figures)) console.log(line);
  console.log("goals:");
  for (const line of goals(figures)) console.log(line);
}

const isUnderLoad = options.has("under-load");
const quiet = await playRelease(releaseCase, members, teeboxContender);
if (isUnderLoad) console.log("── quiet");
print(quiet);
if (isUnderLoad) {
  const loaded = await playRelease(releaseCase, members, teeboxContender, console.log, load);
  console.log(`── under load: ${load.sockets} sockets open, ${load.refreshers} members refreshing in the second around the instant`);
  print(loaded);
}
