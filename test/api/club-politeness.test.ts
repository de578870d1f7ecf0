/**
 * The club request budget through the admin API (its settings, bounds and effect) and the System
 * Monitor's figures: requests to the club in the last minute, the busiest member, and the club's
 * "slow down" told once, in the monitor and the audit log (decisions 145, 146).
 */
import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import { auditLog } from "../../src/db/schema.ts";
import type { Clock } from "../../src/lib/clock.ts";
import { ADMIN_PASSWORD, createTestApp, ORIGIN, TEST_NOW, userIdOf, type TestApp } from "../helpers/api.ts";

let t: TestApp | null = null;
let stopClub: (() => Promise<void>) | null = null;
afterEach(async () => {
  await t?.close();
  await stopClub?.();
  t = null;
  stopClub = null;
});

/** Teebox (its own club client, every action audited) against a demo club on the test's clock. */
async function start(): Promise<{ t: TestApp; sim: ClubSim; admin: string }> {
  let shared: Clock | null = null;
  // The club reads the test's clock once the app (which makes it) exists.
  const clubClock: Clock = { now: () => shared?.now() ?? TEST_NOW, sleepUntil: (at, signal) => (shared ? shared.sleepUntil(at, signal) : Promise.resolve()) };
  const sim = createClubSim({ clock: clubClock, seed: 5 });
  const running = await sim.start();
  stopClub = running.stop;
  const app = await createTestApp({ demo: true, clubUrl: running.url });
  shared = app.clock;
  t = app;
  return { t: app, sim, admin: await app.signIn("admin", ADMIN_PASSWORD) };
}

type Stats = {
  club: {
    requestsLastMinute: number;
    totalSinceStart: number;
    busiestMember: { name: string; requests: number } | null;
    budget: Record<string, number>;
    slowDown: Record<string, unknown> | null;
  };
};
const statsOf = async (app: TestApp, admin: string) => (await (await app.call("GET", "/v1/admin/system-stats", { cookie: admin })).json()) as Stats;
const slowDownRows = (app: TestApp) => app.deps.database.db.select().from(auditLog).where(eq(auditLog.action, "club.slow_down"));

/** The audit rows are written after the answer, off its path: waits until `count` are there. */
async function rowsOnceWritten(app: TestApp, count: number) {
  for (let turn = 0; turn < 200; turn++) {
    const rows = await slowDownRows(app);
    if (rows.length >= count) return rows;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return slowDownRows(app);
}

test("the budget's sizes are app settings with defaults and bounds, applied at once", async () => {
  const { t, admin } = await start();
  const read = async () => ((await (await t.call("GET", "/v1/admin/app-settings", { cookie: admin })).json()) as { settings: Record<string, unknown> }).settings;
  const settings = await read();
  expect(settings).toMatchObject({ club_requests_per_minute: 60, club_request_burst: 1000, member_requests_per_minute: 12, member_request_burst: 60 });
  const put = (extra: Record<string, unknown>) => t.call("PUT", "/v1/admin/app-settings", { cookie: admin, body: { ...settings, ...extra } });
  const tooSmall = await put({ member_request_burst: 4 });
  expect(tooSmall.status).toBe(400);
  expect(await tooSmall.json()).toMatchObject({ errorKey: "settings.number_range", message: "member_request_burst must be a whole number from 5 to 600." });
  expect((await put({ club_requests_per_minute: 601 })).status).toBe(400);
  expect((await put({ member_request_burst: 10, club_requests_per_minute: 30 })).status).toBe(200);
  expect(t.deps.club.politeness.budget.limits()).toEqual({ clubPerMinute: 30, clubBurst: 1000, memberPerMinute: 12, memberBurst: 10 });
  expect((await statsOf(t, admin)).club.budget).toMatchObject({ clubPerMinute: 30, memberBurst: 10, waiting: 0 });
});

test("the monitor shows the requests of the last minute and the busiest member", async () => {
  const { t, admin } = await start();
  const maria = await t.deps.sessions.forMember(await userIdOf(t, "maria"));
  await maria.fetchMyBookings();
  await (await t.deps.sessions.forMember(await userIdOf(t, "jose"))).login();
  await t.deps.club.fetchAdvisories();
  const { club } = await statsOf(t, admin);
  // Maria: three for the sign-in and her bookings page; Jose: three; the advisories: nobody's.
  expect(club).toMatchObject({ requestsLastMinute: 8, totalSinceStart: 8, busiestMember: { name: expect.stringContaining("Maria"), requests: 4 }, slowDown: null });
  await t.clock.advance(61_000);
  expect((await statsOf(t, admin)).club.requestsLastMinute).toBe(0);
});

test("a club asking Teebox to slow down is one line in the monitor and one audit row per episode, not one per request", async () => {
  const { t, sim, admin } = await start();
  sim.setFaults({ slowDown: "429", retryAfterSeconds: 30 });
  for (let i = 0; i < 3; i++) {
    await t.deps.club.fetchAdvisories().catch(() => undefined);
    await t.clock.advance(30_000);
  }
  expect((await rowsOnceWritten(t, 1)).map((r) => r.outcome)).toEqual(["started"]);
  expect((await statsOf(t, admin)).club.slowDown).toMatchObject({ isActive: true, reason: "429", signals: 3, startedAt: TEST_NOW, pausedUntil: TEST_NOW + 90_000 });

  sim.setFaults({ slowDown: "off" });
  await t.clock.advance(1_000);
  await t.deps.club.fetchAdvisories();
  const rows = await rowsOnceWritten(t, 2);
  expect(rows.map((r) => r.outcome)).toEqual(["started", "ended"]);
  expect(rows[0].detail).toContain("HTTP 429, Retry-After 30 s");
  expect((await statsOf(t, admin)).club.slowDown).toMatchObject({ isActive: false, signals: 3, endedAt: t.clock.now() });
});

test("/metrics counts the requests to the club by kind and outcome, and the telemetry samples them each minute", async () => {
  const { t, sim } = await start();
  await (await t.deps.sessions.forMember(await userIdOf(t, "maria"))).fetchMyBookings();
  sim.setFaults({ slowDown: "challenge" });
  await t.deps.club.fetchAdvisories().catch(() => undefined);
  const res = await Promise.resolve(t.app.request(`${ORIGIN}/metrics`, {}, { clientIp: () => "127.0.0.1" }));
  const text = await res.text();
  expect(text).toContain('teebox_club_requests_total{kind="sign_in",outcome="ok"} 3');
  expect(text).toContain('teebox_club_requests_total{kind="my_bookings",outcome="ok"} 1');
  expect(text).toContain('teebox_club_requests_total{kind="advisories",outcome="challenge"} 1');
  expect(text).toContain("teebox_club_requests_last_minute 5");
  expect(text).toContain("teebox_club_slow_down 1");
  await t.deps.telemetry.sampleNow();
  expect(t.deps.telemetry.latest()?.clubRequests).toBe(5);
});
