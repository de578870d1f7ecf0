/** The counts of Teebox's requests to the club: by kind and outcome, per minute, the busiest member, bounded. */
import { describe, expect, test } from "bun:test";
import { BUSIEST_WINDOW_MINUTES, createClubTraffic, TRAFFIC_MINUTES_KEPT } from "../../src/club/traffic.ts";
import { FakeClock } from "../../src/lib/clock.ts";

const START = Date.UTC(2026, 10, 22, 1, 0, 0);

describe("club traffic", () => {
  test("counts every request by kind and outcome since start", () => {
    const clock = new FakeClock(START);
    const traffic = createClubTraffic(clock);
    traffic.record("sign_in", 7, "ok");
    traffic.record("sign_in", 7, "ok");
    traffic.record("book", 7, "not_yet_open");
    traffic.record("book", 8, "ok");
    traffic.record("sheet", null, "429");
    const snapshot = traffic.snapshot();
    expect(snapshot.total).toBe(5);
    expect(snapshot.totals).toEqual({ sign_in: { ok: 2 }, book: { not_yet_open: 1, ok: 1 }, sheet: { "429": 1 } });
    expect(snapshot.sinceMs).toBe(START);
  });

  test("requests in the last minute slide with the clock; the per-minute series keeps each minute", async () => {
    const clock = new FakeClock(START);
    const traffic = createClubTraffic(clock);
    for (let i = 0; i < 3; i++) traffic.record("sheet", null, "ok");
    await clock.advance(30_000);
    traffic.record("sheet", null, "ok");
    expect(traffic.snapshot().lastMinute).toBe(4);
    await clock.advance(31_000);
    // The first three are more than a minute old now.
    expect(traffic.snapshot().lastMinute).toBe(1);
    expect(traffic.snapshot().perMinute).toEqual([
      { atMs: START, requests: 4 },
      { atMs: START + 60_000, requests: 0 },
    ]);
  });

  test("the busiest member is the one with the most requests in the last window, and members are forgotten after it", async () => {
    const clock = new FakeClock(START);
    const traffic = createClubTraffic(clock);
    for (let i = 0; i < 5; i++) traffic.record("book", 1, "ok");
    await clock.advance(60_000);
    for (let i = 0; i < 3; i++) traffic.record("book", 2, "ok");
    traffic.record("clock_probe", null, "ok");
    expect(traffic.snapshot().busiestMember).toEqual({ userId: 1, requests: 5, windowMinutes: BUSIEST_WINDOW_MINUTES });
    await clock.advance(BUSIEST_WINDOW_MINUTES * 60_000 - 30_000);
    // Member 1's minute has left the window; member 2's has not.
    expect(traffic.snapshot().busiestMember).toEqual({ userId: 2, requests: 3, windowMinutes: BUSIEST_WINDOW_MINUTES });
    await clock.advance(60_000);
    expect(traffic.snapshot().busiestMember).toBeNull();
  });

  test("requests skipped for the budget are counted apart and are not requests", () => {
    const traffic = createClubTraffic(new FakeClock(START));
    traffic.recordSkipped("sheet");
    traffic.recordSkipped("sheet");
    expect(traffic.snapshot()).toMatchObject({ total: 0, skipped: { sheet: 2 } });
  });

  test("a year of requests keeps one day of minutes and the same few totals", async () => {
    const clock = new FakeClock(START);
    const traffic = createClubTraffic(clock);
    // One request from a different member every 7 minutes for a year.
    for (let minute = 0; minute < 365 * 24 * 60; minute += 7) {
      await clock.set(START + minute * 60_000);
      traffic.record("sheet", minute % 500, "ok");
    }
    const snapshot = traffic.snapshot();
    expect(snapshot.perMinute.length).toBe(TRAFFIC_MINUTES_KEPT);
    expect(snapshot.perMinute.reduce((sum, m) => sum + m.requests, 0)).toBeLessThanOrEqual(Math.ceil(TRAFFIC_MINUTES_KEPT / 7));
    expect(Object.keys(snapshot.totals)).toEqual(["sheet"]);
    expect(snapshot.total).toBe(Math.ceil((365 * 24 * 60) / 7));
  });
});
