/**
 * Seven simulated days of a 200-member club, in a few minutes: the soak benchmark's harness
 * (scripts/bench/soak/run.ts) on its defaults for one week, which holds every kind of day it plays
 * (a club down at the instant, a club that opens late, the mail server down, a kill -9 and a
 * SIGTERM restart, watches made Monday to Thursday and none left at the weekend). Any invariant
 * broken on any day fails the test, with the day and what broke.
 */
import { expect, test } from "bun:test";
import { runSoak } from "../../scripts/bench/soak/run.ts";

test(
  "seven simulated days: nothing lost, doubled or orphaned; every job alive; quiet at rest; memory, storage and club requests within bounds",
  async () => {
    const result = await runSoak({ days: 7, chartFile: null });
    console.log(result.table);
    const sum = (pick: (d: (typeof result.days)[number]) => number) => result.days.reduce((total, d) => total + pick(d), 0);

    // It lived the week it was asked to, and the week held what the soak is for.
    expect(result.days).toHaveLength(7);
    expect(sum((d) => d.released)).toBeGreaterThan(50);
    expect(sum((d) => d.releasedConfirmed)).toBeGreaterThan(0);
    expect(sum((d) => d.activity.requests)).toBeGreaterThan(0);
    expect(sum((d) => d.activity.edits + d.activity.cancels)).toBeGreaterThan(0);
    expect(sum((d) => d.activity.watches)).toBeGreaterThan(0);
    expect(sum((d) => d.activity.memberBookingCancels + d.activity.clubBookingCancels)).toBeGreaterThan(0);
    expect(sum((d) => d.restarts.length)).toBe(2);
    expect(result.days.flatMap((d) => d.faults).length).toBeGreaterThan(0);

    expect(result.failures.map((f) => `day ${f.day} (${f.date}) ${f.invariant}: ${f.detail}`)).toEqual([]);
  },
  20 * 60_000,
);
