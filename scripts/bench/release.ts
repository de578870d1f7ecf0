/**
 * Release benchmark: members (100 by default), each with a request for the same play date due at
 * the same instant, their wishes drawn from the club's real grid for their course and day. The
 * demo club runs in its own process with its clock ahead of true time (1.3 s by default) and rivals
 * who take half the popular slots shortly after the release (150 ms by default); Teebox (the
 * release engine, the real club adapter, a file database) runs in a process of its own.
 *
 * Prints what the club saw: early posts, first-post lateness leaving Teebox and arriving at the
 * club (on the club's clock), contested slots won by Teebox and by rivals per course, first choices
 * won beside the best achievable under the fairness rule, members left with nothing although a
 * slot on their list was free, duplicates and peak memory (docs/decisions/090-honest-release-benchmark.md).
 *
 * With --under-load the release is played twice: quiet, then while 300 members have the app open
 * (sockets) and 100 of them refresh in the same second around the instant; both sets of figures
 * are printed, the second with what those members' reads met.
 *
 * --open-late=ms makes the club open the date that much later than it announced (decision 148).
 *
 *   bun scripts/bench/release.ts [members=100] [--club-offset=1300] [--rival-delay=150] [--open-late=0] [--under-load]
 */
import { describeFigures, playRelease, readOptions } from "./release-support.ts";
import { teeboxContender } from "./teebox-contender.ts";

const { positional, options } = readOptions(process.argv.slice(2));
const members = Number(positional[0] ?? 100);
const releaseCase = { clubOffsetMs: Number(options.get("club-offset") ?? 1300), rivalDelayMs: Number(options.get("rival-delay") ?? 150), lateMs: Number(options.get("open-late") ?? 0) };
if (!Number.isInteger(members) || members < 1 || !Number.isFinite(releaseCase.clubOffsetMs) || !Number.isFinite(releaseCase.rivalDelayMs) || !(releaseCase.lateMs >= 0)) {
  console.error("usage: bun scripts/bench/release.ts [members=100] [--club-offset=ms] [--rival-delay=ms] [--open-late=ms]");
  process.exit(2);
}

const isUnderLoad = options.has("under-load");
const quiet = await playRelease(releaseCase, members, teeboxContender);
if (isUnderLoad) console.log("── quiet");
for (const line of describeFigures(quiet)) console.log(line);
if (isUnderLoad) {
  const loaded = await playRelease(releaseCase, members, teeboxContender, console.log, { sockets: 300, refreshers: 100 });
  console.log("── under load: 300 sockets open, 100 members refreshing in the second around the instant");
  for (const line of describeFigures(loaded)) console.log(line);
}
