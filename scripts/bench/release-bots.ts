/**
 * The release bots golfers run, as contenders of the release benchmarks, each written to behave
 * as the public bots are documented to (docs/decisions/091-release-bots-as-peers.md).
 * A bot is one process per member, as golfers run them, with no coordination between members. It
 * signs in to the club and posts through the club's own HTML forms, with the club adapter any bot
 * needs for that. Each bot's host clock is true time; only the club's clock is off.
 *
 * - Cron bot: fires at the release minute by its host's clock; a refused time is tried again a
 *   few times a second apart, then the next time on its list.
 * - Burst bot: a burst of posts for its first time from 70 ms before to 70 ms after the instant on
 *   its host's clock, each retrying "not open yet" every 35 ms; then the rest of its list likewise.
 * - Ladder bot: posts its top three times at −400, −250 and 0 ms, keeps the best one it wins and
 *   cancels the others; with none won, walks its list once from the top.
 *
 *   bun scripts/bench/release-bots.ts < bot.json   (a BotSetup, one member; prints a BotReport line)
 */
import { CART_CHOICES, MEMBER_FEE_CHOICES, type ClubAccount } from "../../src/club-sim/demo-data.ts";
import { slotIdOf } from "../../src/club-sim/tee-sheet.ts";
import { createClubClient } from "../../src/club/client.ts";
import { isClubError } from "../../src/club/errors.ts";
import { UNMETERED_LIMITS } from "../../src/club/politeness.ts";
import { ownPeakRssMb, readJsonInput, runJsonProcess, sleepUntilHost, type Contender, type ContenderReport, type RunSetup } from "./release-support.ts";

type BotKind = "cron" | "burst" | "ladder";

interface BotSetup {
  kind: BotKind;
  clubUrl: string;
  account: ClubAccount;
  course: string;
  date: string;
  times: string[];
  /** The release instant as the club announces it; the bot reads it on its host's clock. */
  releaseAt: number;
}

interface BotReport {
  sentHostMs: number[];
  peakRssMb: number;
}

const CRON_TRIES_PER_TIME = 3;
const CRON_RETRY_MS = 1000;
const BURST_OFFSETS_MS = [-70, -35, 0, 35, 70];
const BURST_RETRY_MS = 35;
/** A bot stops retrying "not open yet" after this long. */
const NOT_OPEN_WINDOW_MS = 20_000;
const LADDER_OFFSETS_MS = [-400, -250, 0];

type PostResult = { outcome: "confirmed"; ref: string } | { outcome: string; ref?: undefined };

async function runBot(setup: BotSetup): Promise<BotReport> {
  const { account } = setup;
  const session = createClubClient({ baseUrl: setup.clubUrl, budget: UNMETERED_LIMITS }).forMember({ userId: 1, email: account.email, password: account.password });
  const self = { type: "Member", firstName: account.firstName, lastName: account.lastName, memberId: account.membershipNumber, cart: CART_CHOICES[0], fee: MEMBER_FEE_CHOICES[1] };
  const sentHostMs: number[] = [];
  // Signed in ahead, with the slot ids known from earlier sheets: the bots are given every help.
  await session.login();

  async function post(time: string): Promise<PostResult> {
    sentHostMs.push(Date.now());
    try {
      const { ref } = await session.book({ date: setup.date, course: setup.course, slotId: slotIdOf(setup.date, setup.course, time), time, players: [self] });
      return { outcome: "confirmed", ref };
    } catch (error) {
      return { outcome: isClubError(error) ? error.kind : "error" };
    }
  }

  const R = setup.releaseAt;
  if (setup.kind === "cron") {
    await sleepUntilHost(R);
    walk: for (const time of setup.times) {
      for (let attempt = 0; attempt < CRON_TRIES_PER_TIME; attempt++) {
        if (attempt > 0) await Bun.sleep(CRON_RETRY_MS);
        if ((await post(time)).outcome === "confirmed") break walk;
      }
    }
  } else if (setup.kind === "burst") {
    let hasWon = false;
    const untilOpen = async (time: string, atMs: number) => {
      await sleepUntilHost(atMs);
      for (;;) {
        if (hasWon) return;
        const result = await post(time);
        if (result.outcome === "confirmed") hasWon = true;
        if (result.outcome !== "not_yet_open" || Date.now() > R + NOT_OPEN_WINDOW_MS) return;
        await Bun.sleep(BURST_RETRY_MS);
      }
    };
    await Promise.all(BURST_OFFSETS_MS.map((offset) => untilOpen(setup.times[0], R + offset)));
    for (const time of setup.times.slice(1)) {
      if (hasWon) break;
      await untilOpen(time, Date.now());
    }
  } else {
    const rungs = await Promise.all(setup.times.slice(0, LADDER_OFFSETS_MS.length).map((time, i) => sleepUntilHost(R + LADDER_OFFSETS_MS[i]).then(() => post(time))));
    const wins = rungs.filter((r): r is Extract<PostResult, { outcome: "confirmed" }> => r.outcome === "confirmed");
    // The rungs are in the member's order, so the first win is the best one.
    for (const extra of wins.slice(1)) await session.cancelBooking(extra.ref).catch(() => undefined);
    if (wins.length === 0) for (const time of setup.times) if ((await post(time)).outcome === "confirmed") break;
  }
  return { sentHostMs, peakRssMb: await ownPeakRssMb() };
}

function botContender(kind: BotKind, name: string): Contender {
  return {
    name,
    leadMs: 20_000,
    async run(setup: RunSetup): Promise<ContenderReport> {
      const releaseAt = setup.plan.releaseAtClub;
      const timeoutMs = releaseAt - Date.now() + 60_000;
      const reports = await Promise.all(
        setup.members.map((m) => {
          const bot: BotSetup = { kind, clubUrl: setup.clubUrl, account: m.account, course: m.course, date: setup.plan.playDate, times: m.times, releaseAt };
          return runJsonProcess<BotReport>(import.meta.path, bot, timeoutMs).catch(() => ({ sentHostMs: [], peakRssMb: 0 }));
        }),
      );
      const sentHostMs: Record<string, number[]> = {};
      for (const [i, m] of setup.members.entries()) sentHostMs[m.account.email] = reports[i].sentHostMs;
      const failed = reports.filter((r) => r.peakRssMb === 0).length;
      return {
        sentHostMs,
        peakRssMb: reports.reduce((sum, r) => sum + r.peakRssMb, 0),
        notes: [`${name}: ${reports.length} processes (peak memory is the sum of their peaks)${failed ? `, ${failed} ended without a report` : ""}`],
      };
    },
  };
}

export const cronBot = botContender("cron", "Cron bot");
export const burstBot = botContender("burst", "Burst bot");
export const ladderBot = botContender("ladder", "Ladder bot");

if (import.meta.main) {
  const report = await runBot(await readJsonInput<BotSetup>());
  console.log(JSON.stringify(report));
  process.exit(0);
}
