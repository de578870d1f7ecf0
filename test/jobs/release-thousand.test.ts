/**
 * A release for a thousand members at the club budget's defaults (decision 196): the budget is
 * sized for Teebox at rest (60 requests a minute, 1,000 saved up), and a thousand sign-ins alone
 * are 3,000 requests. The release's own allowance, sized by the requests due, carries its
 * preparation and its posts; without it the sign-ins waited behind the club's bucket and not one
 * post was sent.
 */
import { afterEach, expect, test } from "bun:test";
import { DEFAULT_STORED_SETTINGS } from "../../src/domain/settings.ts";
import { generateAccounts } from "../../src/club-sim/demo-data.ts";
import { count, inArray } from "drizzle-orm";
import { bookingRequests } from "../../src/db/schema.ts";
import { submitBookingRequest } from "../../src/features/bookings/bookings.service.ts";
import { toSessionUser } from "../../src/services/sessions.ts";
import { enrolClubAccounts } from "../helpers/api.ts";
import { PLAY, RELEASE, startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

const MEMBERS = 1000;
const TIMES = Array.from({ length: 12 }, (_, k) => `0${6 + Math.floor((k * 8) / 60)}:${String((k * 8) % 60).padStart(2, "0")}`);

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

test("a thousand members' release sends every first post at the instant, within the budget's defaults", async () => {
  const accounts = generateAccounts(MEMBERS);
  f = await startReleaseFixture({ extraAccounts: accounts });
  const limits = f.t.deps.club.politeness.budget.limits();
  expect(limits).toMatchObject({ clubPerMinute: DEFAULT_STORED_SETTINGS.club_requests_per_minute, clubBurst: DEFAULT_STORED_SETTINGS.club_request_burst });
  expect(MEMBERS * 3).toBeGreaterThan(limits.clubBurst);

  const rows = await enrolClubAccounts(f.t.deps, accounts, "member", f.clock.now());
  // Each member lists three of the morning's first times, from a different start.
  for (const [i, row] of rows.entries()) {
    const times = TIMES.map((_, k) => TIMES[(i + k) % TIMES.length]).slice(0, 3);
    await submitBookingRequest(f.t.deps, toSessionUser(row), submission(PLAY, times));
  }

  await f.moveTo(RELEASE - 60_000);
  const signIns = f.clubActions.filter((a) => a.action === "login" && a.outcome === "ok").length;
  await f.moveTo(RELEASE);
  await f.stepUntil(async () => (await openRequests(f!)) === 0, 50, 400);

  expect(signIns).toBe(MEMBERS);
  expect(await openRequests(f)).toBe(0);
  const posts = f.sim.attempts().filter((a) => !a.isRival);
  // Never early; one first post for each time a member claimed, all at the instant.
  expect(posts.filter((p) => p.arrivedClubMs < RELEASE)).toHaveLength(0);
  const firstWave = posts.filter((p) => p.arrivedClubMs === RELEASE);
  expect(firstWave.length).toBe(TIMES.length);
  // Every slot asked for is booked, each by one member, and no member holds two.
  const held = f.sim.allBookings().filter((b) => accounts.some((a) => a.email === b.email));
  expect(held).toHaveLength(TIMES.length);
  expect(new Set(held.map((b) => b.email)).size).toBe(held.length);
}, 120_000);

async function openRequests(fx: ReleaseFixture): Promise<number> {
  const rows = await fx.t.deps.database.db
    .select({ n: count() })
    .from(bookingRequests)
    .where(inArray(bookingRequests.status, ["pending", "processing"]));
  return rows[0]?.n ?? 0;
}
