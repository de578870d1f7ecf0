/**
 * The demo club in a process of its own, for the benchmarks: what Teebox or a bot books there is
 * the club's truth, whatever the contender believes. Prints `{"url": …}` once listening.
 *
 * A club's booking site has served bookings all day before a release; a fresh process has not, and
 * the first burst of posts would run its booking code cold, in the interpreter, several times
 * slower (its own queue, not the contender's lateness). So before it listens, the club books a few
 * hundred times on a scratch copy of itself, which warms the same code and leaves its state alone.
 *
 *   bun scripts/bench/club-process.ts '<ClubProcessOptions as JSON>'
 *
 * With `simClockFile` the club lives on the simulated clock the soak drives (src/lib/sim-clock.ts),
 * the same one Teebox reads, instead of real time.
 */
import { createClubSim } from "../../src/club-sim/index.ts";
import { CART_CHOICES, generateAccounts, MEMBER_FEE_CHOICES } from "../../src/club-sim/demo-data.ts";
import { createClubClient } from "../../src/club/client.ts";
import { addDays, manilaDate } from "../../src/domain/manila-time.ts";
import { openSimClock } from "../../src/lib/sim-clock.ts";

export interface ClubProcessOptions {
  seed: number;
  clockOffsetMs: number;
  releaseTime: string;
  releaseDaysBefore: number;
  members: number;
  /** Groups of rivals, each taking its share of the popular slots still available at its delay (and cancelling one of their bookings every `cancelEveryMs`, club clock, when given). */
  rivals: { share: number; delayMs: number; cancelEveryMs?: number }[];
  /** The club opens each date this much later than announced (0: on time). */
  openLateMs?: number;
  controlToken: string;
  /** Shares of slots taken by other members and blocked by the club before anyone looks (club defaults when absent). */
  prebookedShare?: number;
  blockedShare?: number;
  simClockFile?: string;
}

/** Booking posts on a scratch club, through HTTP as the contenders post: answers of every kind. */
async function warmUp(posts = 600): Promise<void> {
  const scratch = await createClubSim({ seed: 1, extraAccounts: 20 }).start();
  try {
    const client = createClubClient({ baseUrl: scratch.url, maxConnections: 16 });
    const members = generateAccounts(20).map((a, i) => ({ account: a, session: client.forMember({ userId: i + 1, email: a.email, password: a.password }) }));
    // The first open day of Masters among the next week's, already released at the club.
    let date = "";
    let slots: { time: string; slotId: string }[] = [];
    for (let ahead = 1; ahead <= 7 && slots.length === 0; ahead++) {
      date = addDays(manilaDate(Date.now()), ahead);
      slots = (await members[0].session.fetchTeeSheet(date, "masters").catch(() => null))?.slots ?? [];
    }
    if (slots.length === 0) return;
    for (let i = 0; i < posts; i += members.length) {
      await Promise.allSettled(
        members.map(({ account, session }, j) => {
          const slot = slots[(i + j) % slots.length];
          const player = {
            type: "Member",
            firstName: account.firstName,
            lastName: account.lastName,
            memberId: account.membershipNumber,
            cart: CART_CHOICES[0],
            fee: MEMBER_FEE_CHOICES[0],
          };
          return session.book({ date, course: "masters", slotId: slot.slotId, time: slot.time, players: [player] });
        }),
      );
    }
  } finally {
    await scratch.stop();
  }
}

if (import.meta.main) {
  const options = JSON.parse(process.argv[2] ?? "{}") as ClubProcessOptions;
  const clock = options.simClockFile ? openSimClock(options.simClockFile) : undefined;
  await warmUp();
  const sim = createClubSim({
    seed: options.seed,
    clock,
    clockOffsetMs: options.clockOffsetMs,
    releaseTime: options.releaseTime,
    releaseDaysBefore: options.releaseDaysBefore,
    extraAccounts: options.members,
    rivals: options.rivals,
    prebookedShare: options.prebookedShare,
    blockedShare: options.blockedShare,
    controlToken: options.controlToken,
    faults: { openLateMs: options.openLateMs ?? 0 },
  });
  const running = await sim.start();
  console.log(JSON.stringify({ url: running.url }));
  process.on(
    "SIGTERM",
    () =>
      void running.stop().then(() => {
        clock?.close();
        process.exit(0);
      }),
  );
}
