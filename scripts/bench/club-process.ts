/**
 * The demo club in a process of its own, for the release benchmarks: what Teebox or a bot books
 * there is the club's truth, whatever the contender believes. Prints `{"url": …}` once listening.
 *
 *   bun scripts/bench/club-process.ts '<ClubProcessOptions as JSON>'
 */
import { createClubSim } from "../../src/club-sim/index.ts";

export interface ClubProcessOptions {
  seed: number;
  clockOffsetMs: number;
  releaseTime: string;
  releaseDaysBefore: number;
  members: number;
  /** Groups of rivals, each taking its share of the popular slots still available at its delay. */
  rivals: { share: number; delayMs: number }[];
  controlToken: string;
}

if (import.meta.main) {
  const options = JSON.parse(process.argv[2] ?? "{}") as ClubProcessOptions;
  const sim = createClubSim({
    seed: options.seed,
    clockOffsetMs: options.clockOffsetMs,
    releaseTime: options.releaseTime,
    releaseDaysBefore: options.releaseDaysBefore,
    extraAccounts: options.members,
    rivals: options.rivals,
    controlToken: options.controlToken,
  });
  const running = await sim.start();
  console.log(JSON.stringify({ url: running.url }));
  process.on("SIGTERM", () => void running.stop().then(() => process.exit(0)));
}
