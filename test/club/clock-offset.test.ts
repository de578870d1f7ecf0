import { describe, expect, test } from "bun:test";
import { createClubSim } from "../../src/club-sim/index.ts";
import { createClubClient } from "../../src/club/client.ts";
import { measureClockOffset } from "../../src/club/clock-offset.ts";
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

  test("a single probe only knows the second", async () => {
    const clock = new JumpingClock(1_700_000_000_000);
    const result = await measureClockOffset(simulatedClub(clock, 250, 2), { clock, maxProbes: 1 });
    expect(result.uncertaintyMs).toBeGreaterThanOrEqual(500);
    expect(Math.abs(result.offsetMs - 250)).toBeLessThanOrEqual(result.uncertaintyMs);
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
