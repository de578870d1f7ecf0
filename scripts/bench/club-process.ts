/**
 * The demo club in a process of its own, for the benchmarks: what Teebox or a bot books there is
 * the club's truth, whatever the contender believes. Prints `{"url": …}` once listening.
 *
 *   bun scripts/bench/club-process.ts '<ClubProcessOptions as JSON>'
 *
 * With `simClockFile` the club lives on the simulated clock the soak drives (src/lib/sim-clock.ts),
 * the same one Teebox reads, instead of real time.
 */
import { createClubSim } from "../../src/club-sim/index.ts";
import { openSimClock } from "../../src/lib/sim-clock.ts";

export interface ClubProcessOptions {
  seed: number;
  clockOffsetMs: number;
  releaseTime: string;
  releaseDaysBefore: number;
  members: number;
  rivalShare: number;
  rivalDelayMs: number;
  controlToken: string;
  /** Rivals also cancel one of their bookings this often (club clock); off when absent. */
  rivalCancelEveryMs?: number;
  /** Shares of slots taken by other members and blocked by the club before anyone looks (club defaults when absent). */
  prebookedShare?: number;
  blockedShare?: number;
  simClockFile?: string;
}

if (import.meta.main) {
  const options = JSON.parse(process.argv[2] ?? "{}") as ClubProcessOptions;
  const clock = options.simClockFile ? openSimClock(options.simClockFile) : undefined;
  const sim = createClubSim({
    seed: options.seed,
    clock,
    clockOffsetMs: options.clockOffsetMs,
    releaseTime: options.releaseTime,
    releaseDaysBefore: options.releaseDaysBefore,
    extraAccounts: options.members,
    rivals: { share: options.rivalShare, delayMs: options.rivalDelayMs, cancelEveryMs: options.rivalCancelEveryMs },
    prebookedShare: options.prebookedShare,
    blockedShare: options.blockedShare,
    controlToken: options.controlToken,
  });
  const running = await sim.start();
  console.log(JSON.stringify({ url: running.url }));
  process.on("SIGTERM", () =>
    void running.stop().then(() => {
      clock?.close();
      process.exit(0);
    }),
  );
}
