/**
 * Teebox against the release bots golfers run: the same release (same club, clock offset, rivals,
 * members and wishes) played once per contender against a fresh club process, and one table of
 * what the club saw for each contender and case (docs/decisions/091-release-bots-as-peers.md).
 *
 * Each run waits for a whole minute on the club's clock, so a case takes about a minute per
 * contender: the default (30 members, one case) finishes in about five minutes; `--cases=all`
 * plays the issue's eight cases (about half an hour); `--cases=late` the club opening 2 s and 30 s
 * later than announced (decision 148), each row with the booking posts per member (mean and most).
 *
 *   bun scripts/bench/release-peers.ts [members=30] [--cases=1300:50] [--contenders=teebox,cron,burst,ladder]
 *
 * A case is `clubOffsetMs:rivalDelayMs[:lateMs]` (the club's clock ahead of true time, negative
 * behind; the rivals' delay after the date really opens, on the club's clock; how much later than
 * announced the club opens it), several separated by commas, or `all`, or `late`.
 */
import { burstBot, cronBot, ladderBot } from "./release-bots.ts";
import { caseLabel, figuresTable, parseCases, playRelease, readOptions, type Contender, type ReleaseFigures } from "./release-support.ts";
import { teeboxContender } from "./teebox-contender.ts";

const CONTENDERS: Record<string, Contender> = { teebox: teeboxContender, cron: cronBot, burst: burstBot, ladder: ladderBot };

const { positional, options } = readOptions(process.argv.slice(2));
const members = Number(positional[0] ?? 30);
const cases = parseCases(options.get("cases") ?? "1300:50");
const contenders = (options.get("contenders") ?? "teebox,cron,burst,ladder").split(",").map((name) => {
  const contender = CONTENDERS[name];
  if (!contender) throw new Error(`unknown contender '${name}' (${Object.keys(CONTENDERS).join(", ")})`);
  return contender;
});
if (!Number.isInteger(members) || members < 1) {
  console.error("usage: bun scripts/bench/release-peers.ts [members=30] [--cases=1300:50[:lateMs],...|all|late] [--contenders=teebox,cron,burst,ladder]");
  process.exit(2);
}

const rows: ReleaseFigures[] = [];
const notes: string[] = [];
for (const releaseCase of cases) {
  for (const contender of contenders) {
    const figures = await playRelease(releaseCase, members, contender, (line) => console.error(line));
    rows.push(figures);
    notes.push(...figures.notes.map((note) => `${caseLabel(releaseCase)}, ${note}`));
  }
}

console.log(`${members} members per run; times in ms after the instant on the club's clock, of each member's first post at or after it;`);
console.log(`contested: slots some member asked for that were free at the instant, per course "won by the contender/by rivals of n";`);
console.log(
  `1st choices: held at the end (how many the fairness rule gives; how many of those were missed); with slot: held at the end (the most any engine could, a maximum matching).`,
);
console.log(figuresTable(rows));
for (const note of notes) console.log(note);
