import { describe, expect, test } from "bun:test";
import { createClubSim } from "../../src/club-sim/index.ts";
import { createClubClient } from "../../src/club/client.ts";
import { fireAtOf, measureClockOffset, preciseFireAtOf } from "../../src/club/clock-offset.ts";
import type { Clock } from "../../src/lib/clock.ts";

/** A clock whose sleeps jump straight to their moment, for a club simulated in the same time line. */
class JumpingClock implements Clock {
  constructor(public current: number) {}
  now() {
    return this.current;
  }
  async sleepUntil(atMs: number) {
    this.current = Math.max(this.current, atMs);
  }
}

/** A club whose Date header is its clock floored to the second, answering after `tripMs`. */
function simulatedClub(clock: JumpingClock, offsetMs: number, tripMs: number) {
  return {
    async clubTime() {
      const sentMs = clock.current;
      clock.current += tripMs / 2;
      const clubMs = Math.floor((clock.current + offsetMs) / 1000) * 1000;
      clock.current += tripMs / 2;
      return { clubMs, sentMs, receivedMs: clock.current, localMs: (sentMs + clock.current) / 2 };
    },
  };
}

describe("clock offset, simulated", () => {
  test.each([0, 1, 437, 999, 1_300, -700, -12_345, 86_400_123])("finds an offset of %p ms within its uncertainty", async (offset) => {
    const clock = new JumpingClock(1_700_000_000_123);
    const result = await measureClockOffset(simulatedClub(clock, offset, 4), { clock });
    expect(result.uncertaintyMs).toBeLessThanOrEqual(25);
    expect(Math.abs(result.offsetMs - offset)).toBeLessThanOrEqual(result.uncertaintyMs);
  });

  test("a deadline ends the rounds in time with the interval so far, which still holds the offset (decision 210)", async () => {
    const start = 1_700_000_000_123;
    const clock = new JumpingClock(start);
    // A noisy line that never reaches 0 ms: only the deadline (or the 121 probes, ~30 s) ends it.
    const club = distantClub(clock, 437, 15, 5, 3);
    const result = await measureClockOffset(club, { clock, targetUncertaintyMs: 0, maxProbes: 121, probesPerRound: 4, deadlineMs: start + 4_000 });
    expect(clock.now()).toBeLessThanOrEqual(start + 4_000);
    expect(result.isCutShort).toBe(true);
    expect(Math.abs(result.offsetMs - 437)).toBeLessThanOrEqual(result.uncertaintyMs);
    // A deadline already past leaves the first probe alone.
    const late = new JumpingClock(start);
    const one = await measureClockOffset(simulatedClub(late, 437, 4), { clock: late, targetUncertaintyMs: 0, maxProbes: 121, deadlineMs: start });
    expect(one.uncertaintyMs).toBeGreaterThanOrEqual(500);
    expect(one.isCutShort).toBe(true);
  });

  test("an aborted measurement sends no further probe and answers with what it has", async () => {
    const start = 1_700_000_000_000;
    const clock = new JumpingClock(start);
    const stop = new AbortController();
    const club = simulatedClub(clock, -700, 4);
    let probes = 0;
    const counting = {
      clubTime: () => {
        if (++probes === 6) stop.abort();
        return club.clubTime();
      },
    };
    const result = await measureClockOffset(counting, { clock, targetUncertaintyMs: 0, maxProbes: 121, signal: stop.signal });
    expect(probes).toBe(6);
    expect(result.isCutShort).toBe(true);
    expect(Math.abs(result.offsetMs + 700)).toBeLessThanOrEqual(result.uncertaintyMs);
  });

  test("a single probe only knows the second", async () => {
    const clock = new JumpingClock(1_700_000_000_000);
    const result = await measureClockOffset(simulatedClub(clock, 250, 2), { clock, maxProbes: 1 });
    expect(result.uncertaintyMs).toBeGreaterThanOrEqual(500);
    expect(Math.abs(result.offsetMs - 250)).toBeLessThanOrEqual(result.uncertaintyMs);
  });
});

/**
 * A club across a network: each way takes `delayMs` ± `jitterMs` (a fresh draw for every probe),
 * the Date header is stamped when the probe arrives. Our clock reads whole milliseconds.
 */
function distantClub(clock: JumpingClock, offsetMs: number, delayMs: number, jitterMs: number, seed: number) {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const way = () => delayMs - jitterMs + 2 * jitterMs * random();
  return {
    way,
    async clubTime() {
      const sentMs = Math.floor(clock.current);
      const out = way();
      const clubMs = Math.floor((clock.current + out + offsetMs) / 1000) * 1000;
      const receivedMs = Math.ceil(clock.current + out + way());
      return { clubMs, sentMs, receivedMs, localMs: (sentMs + receivedMs) / 2 };
    },
  };
}

describe("clock offset of a distant club (decision 191)", () => {
  test("15 ms ± 5 ms each way: the offset within half the jitter, and posts sent ahead by the way out are never early", async () => {
    let early = 0;
    let latest = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const offset = ((seed * 7919) % 4000) - 2000;
      const clock = new JumpingClock(1_700_000_000_000 + seed * 37);
      const club = distantClub(clock, offset, 15, 5, seed);
      const result = await measureClockOffset(club, { clock, targetUncertaintyMs: 1, maxProbes: 121, probesPerRound: 4 });
      expect(Math.abs(result.offsetMs - offset)).toBeLessThanOrEqual(2.5);
      expect(result.sendAheadMs).toBeGreaterThan(10);
      // A post timed as the engine times it, reaching the club after one more way out.
      const releaseAt = 1_800_000_000_000;
      const fireAt = fireAtOf(result, releaseAt);
      for (let post = 0; post < 200; post++) {
        const arrival = fireAt + club.way() + offset - releaseAt;
        if (arrival < 0) early++;
        latest = Math.max(latest, arrival);
      }
    }
    expect(early).toBe(0);
    // Within the way out's jitter and the guard of the instant: about 10 + 5 ms, never the 30 ms of a whole round trip.
    expect(latest).toBeLessThanOrEqual(20);
  });

  test("a short measurement (the planner's coarse one) sends nothing ahead: its upper end may be far above the way out", async () => {
    const clock = new JumpingClock(1_700_000_000_000);
    const result = await measureClockOffset(distantClub(clock, 1300, 15, 5, 3), { clock, targetUncertaintyMs: 250, maxProbes: 5, probesPerRound: 4 });
    expect(result.uncertaintyMs).toBeGreaterThan(20);
    expect(result.sendAheadMs).toBe(0);
  });

  test("a near club sends nothing ahead: its interval is narrower than the guard", async () => {
    const clock = new JumpingClock(1_700_000_000_123);
    const result = await measureClockOffset(simulatedClub(clock, 1300, 1), { clock, targetUncertaintyMs: 1, maxProbes: 121 });
    expect(result.sendAheadMs).toBe(0);
    expect(Math.abs(result.offsetMs - 1300)).toBeLessThanOrEqual(result.uncertaintyMs);
  });
});

/**
 * A club read with a precise clock (decision 202): stamps to a fraction of a millisecond, off from
 * the truth by up to `errorMs` either way (drawn afresh for each stamp). As in distantClub, a probe
 * takes no time on the test's clock, so the probes of a round are in flight together.
 */
function preciselyReadClub(clock: JumpingClock, offsetMs: number, way: () => number, errorMs: number, seed: number) {
  let state = seed;
  const noise = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return (2 * (state / 0x7fffffff) - 1) * errorMs;
  };
  return {
    async clubTime() {
      const sentMs = clock.current + noise();
      const out = way();
      const clubMs = Math.floor((clock.current + out + offsetMs) / 1000) * 1000;
      const receivedMs = clock.current + out + way() + noise();
      return { clubMs, sentMs, receivedMs, localMs: (sentMs + receivedMs) / 2, stampError: { behindMs: errorMs, aheadMs: errorMs } };
    },
  };
}

describe("clock offset read on a precise clock (decision 202)", () => {
  test("a near club: the interval narrows below a millisecond, holds the truth, and a wave timed by it is never early and never later than by whole milliseconds", async () => {
    let latest = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const offset = ((seed * 7919) % 4000) - 2000 + seed / 7;
      const clock = new JumpingClock(1_700_000_000_000 + seed * 37.3);
      const way = () => 0.05 + (0.1 * ((seed * 31) % 7)) / 7;
      const result = await measureClockOffset(preciselyReadClub(clock, offset, way, 0.05, seed), { clock, targetUncertaintyMs: 0, maxProbes: 61 });
      const { lo, hi } = result.interval!;
      expect(lo).toBeLessThanOrEqual(offset);
      expect(hi).toBeGreaterThanOrEqual(offset);
      expect(hi - lo).toBeLessThan(1);
      expect(result.sendAheadMs).toBe(0);
      const releaseAt = 1_800_000_000_000;
      const fireAt = preciseFireAtOf(result, releaseAt);
      expect(fireAt).toBeLessThanOrEqual(fireAtOf(result, releaseAt));
      // The post leaves at fireAt on our true clock and reaches the club one way later.
      const arrival = fireAt + offset + way() - releaseAt;
      expect(arrival).toBeGreaterThanOrEqual(0);
      latest = Math.max(latest, arrival);
    }
    expect(latest).toBeLessThan(1);
  });

  test("a distant club, 15 ms ± 5 ms each way: posts sent ahead by the way out are never early", async () => {
    let early = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const offset = ((seed * 7919) % 4000) - 2000 + seed / 3;
      const clock = new JumpingClock(1_700_000_000_000 + seed * 37.7);
      const lines = distantClub(clock, offset, 15, 5, seed);
      const result = await measureClockOffset(preciselyReadClub(clock, offset, lines.way, 0.05, seed), { clock, targetUncertaintyMs: 0.5, maxProbes: 121, probesPerRound: 4 });
      expect(result.sendAheadMs).toBeGreaterThan(10);
      const releaseAt = 1_800_000_000_000;
      const fireAt = preciseFireAtOf(result, releaseAt);
      expect(fireAt).toBeLessThanOrEqual(fireAtOf(result, releaseAt));
      for (let post = 0; post < 200; post++) if (fireAt + lines.way() + offset - releaseAt < 0) early++;
    }
    expect(early).toBe(0);
  });

  test("a first probe held up by a busy moment (a near club): the later rounds still narrow the interval below a millisecond", async () => {
    for (const [firstOut, firstBack] of [
      [1, 5],
      [3, 9],
      [6, 6],
    ]) {
      for (let seed = 1; seed <= 20; seed++) {
        const offset = ((seed * 7919) % 4000) - 2000 + seed / 7;
        const clock = new JumpingClock(1_700_000_000_000 + seed * 37.3);
        let probes = 0;
        let state = seed;
        const random = () => {
          state = (state * 1103515245 + 12345) & 0x7fffffff;
          return state / 0x7fffffff;
        };
        // Quick ways, a tenth to a quarter of a millisecond, but for the first probe and now and then a busy one.
        const club = {
          async clubTime() {
            const isFirst = probes++ === 0;
            const isBusy = !isFirst && random() < 0.3;
            const out = isFirst ? firstOut : 0.1 + 0.15 * random() + (isBusy ? 3 * random() : 0);
            const back = isFirst ? firstBack : 0.1 + 0.15 * random() + (isBusy ? 5 * random() : 0);
            const sentMs = clock.current;
            const clubMs = Math.floor((clock.current + out + offset) / 1000) * 1000;
            return { clubMs, sentMs, receivedMs: sentMs + out + back, localMs: sentMs + (out + back) / 2, stampError: { behindMs: 0.02, aheadMs: 0.02 } };
          },
        };
        const result = await measureClockOffset(club, { clock, targetUncertaintyMs: 0.25, maxProbes: 121, probesPerRound: 4 });
        const { lo, hi } = result.interval!;
        expect(lo).toBeLessThanOrEqual(offset);
        expect(hi).toBeGreaterThanOrEqual(offset);
        // Aimed by the first trip, every later probe fell on one side of the boundary: 3.8–7.5 ms wide.
        expect(hi - lo).toBeLessThan(1);
      }
    }
  });

  test("without an interval (an offset given by hand) the wave keeps the whole-millisecond moment", () => {
    expect(preciseFireAtOf({ offsetMs: 250, uncertaintyMs: 3 }, 1_800_000_000_000)).toBe(1_800_000_000_000 - 250 + 3);
  });
});

describe("clock offset against the demo club", () => {
  test("measures club clocks +1300 ms and -700 ms off to within 50 ms, the true offset always inside its bounds", async () => {
    // Both at once: each measurement spends most of its time waiting for second boundaries.
    const measured = await Promise.all(
      [1_300, -700].map(async (offset) => {
        const running = await createClubSim({ clockOffsetMs: offset }).start();
        try {
          return { offset, result: await measureClockOffset(createClubClient({ baseUrl: running.url })) };
        } finally {
          await running.stop();
        }
      }),
    );
    for (const { offset, result } of measured) {
      expect(result.uncertaintyMs).toBeLessThanOrEqual(50);
      // Same process, same clock: the club is exactly `offset` ahead, and the bounds must hold it.
      expect(Math.abs(result.offsetMs - offset)).toBeLessThanOrEqual(result.uncertaintyMs);
    }
  });
});

describe("clock offset when the club fails a probe", () => {
  test("a probe the club answers with an error fails the measurement, and no rejection is left unhandled while the round's later probes wait to leave", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      // Sleeps that really yield to the event loop, as the system clock's do.
      const clock = new JumpingClock(1_700_000_000_123);
      const yielding: Clock = {
        now: () => clock.now(),
        sleepUntil: async (atMs: number) => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          await clock.sleepUntil(atMs);
        },
      };
      const club = simulatedClub(clock, 300, 4);
      let calls = 0;
      const failing = {
        clubTime() {
          // The second probe (the first of a round) fails at once, as a 500 does.
          return ++calls === 2 ? Promise.reject(new Error("The club site answered 500.")) : club.clubTime();
        },
      };
      await expect(measureClockOffset(failing, { clock: yielding })).rejects.toThrow("The club site answered 500.");
      // Give a rejection nobody handled the turn it needs to be reported.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
