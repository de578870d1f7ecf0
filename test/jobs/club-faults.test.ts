/**
 * The club buckling at the release instant, against the demo club in a process of its
 * own on the real clock: what the club holds is read through its control API, whatever Teebox
 * believes. Time is scaled down: a "minute" of the app setting club_retry_minutes lasts 4 s here,
 * and the faults last 8 s and 5 s instead of the 40 s of a real rush (the setting's 2 minutes, 8 s,
 * outlast them as the default 10 minutes outlast a real one).
 */
import { afterEach, expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { createClubClient } from "../../src/club/client.ts";
import { generateAccounts } from "../../src/club-sim/demo-data.ts";
import type { ClubFaultsInput } from "../../src/club-sim/faults.ts";
import { bookingRequests, bookings } from "../../src/db/schema.ts";
import { addDays, manilaDate, manilaTimeOfDay, weekdayOf } from "../../src/domain/manila-time.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { listRequests, submitBookingRequest } from "../../src/features/bookings/bookings.service.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { writeSettings } from "../../src/services/settings.service.ts";
import { toSessionUser } from "../../src/services/sessions.ts";
import { createTestApp, enrolClubAccounts, type TestApp } from "../helpers/api.ts";
import { startClubProcess, type ClubProcess } from "../helpers/club-process.ts";

const MEMBERS = 8;
/** The club's clock reaches the release instant this long after the club starts. */
const LEAD_MS = 9000;
/** Masters tee times on the club's grid, from 06:00 every 8 minutes. */
const TIMES = Array.from({ length: MEMBERS + 2 }, (_, i) => {
  const m = 6 * 60 + i * 8;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
});

let club: ClubProcess | null = null;
let app: TestApp | null = null;

afterEach(async () => {
  await app?.deps.releaseEngine.stop();
  await app?.close();
  await club?.stop();
  app = null;
  club = null;
});

interface Release {
  releaseAt: number;
  offsetMs: number;
  playDate: string;
  members: { userId: number; email: string; requestId: number }[];
  clubNow(): number;
}

/**
 * A release a whole minute on the club's clock, LEAD_MS from now: the club's clock is set ahead so
 * that the instant comes soon. Eight members, earliest first, each asking for their own time and a
 * shared later one (one member also asks first for member 1's time, so a slot is contested).
 */
async function startRelease(): Promise<Release> {
  const releaseAt = Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000;
  const offsetMs = releaseAt - (Date.now() + LEAD_MS);
  const releaseDaysBefore = weekdayOf(addDays(manilaDate(releaseAt), 7)) === 7 ? 8 : 7;
  const playDate = addDays(manilaDate(releaseAt), releaseDaysBefore);
  const releaseTime = manilaTimeOfDay(releaseAt).slice(0, 5);
  club = await startClubProcess({ clockOffsetMs: offsetMs, releaseTime, releaseDaysBefore, extraAccounts: MEMBERS });
  const clubUrl = club.url;
  app = await createTestApp({
    now: Date.now(),
    clubUrl,
    extend: () => ({ clock: systemClock, club: createClubClient({ baseUrl: clubUrl, clock: systemClock, maxConnections: 16, timeoutMs: 2000 }) }),
    // The club's clock is known exactly here (we set it); the retry window comes from the setting.
    releaseEngine: { measureOffset: async () => ({ offsetMs, uncertaintyMs: 2 }), prepareLeadMs: 5000, retryMinuteMs: 4000 },
  });
  const { db } = app.deps.database;
  await writeSettings(db, { ...DEFAULT_SETTINGS, release_time: releaseTime, release_days_before: releaseDaysBefore, ui_date_range_days: 14, club_retry_minutes: 2 });
  const now = Date.now();
  const accounts = generateAccounts(MEMBERS);
  const rows = await enrolClubAccounts(app.deps, accounts, "golfer", now);
  const members: Release["members"] = [];
  for (const [i, row] of rows.entries()) {
    const times = i === MEMBERS - 1 ? [TIMES[1], TIMES[i], TIMES[MEMBERS]] : [TIMES[i], TIMES[MEMBERS]];
    const outcome = await submitBookingRequest(app.deps, toSessionUser(row), {
      course: "masters",
      targetDate: playDate,
      selectionOrder: times.map((time) => ({ time, slotId: null })),
      memberCartType: "Rental Cart - Solo",
      playerDetails: { players: [] },
    });
    expect(outcome.status).toBe("pending");
    members.push({ userId: row.id, email: accounts[i].email, requestId: outcome.requestId });
  }
  await app.deps.releaseEngine.start();
  return { releaseAt, offsetMs, playDate, members, clubNow: () => Date.now() + offsetMs };
}

/** Sleeps until the club's clock reads `clubMs`. */
const untilClub = (release: Release, clubMs: number) => Bun.sleep(Math.max(0, clubMs - release.clubNow()));

async function statuses(release: Release) {
  const ids = release.members.map((m) => m.requestId);
  return app!.deps.database.db.select().from(bookingRequests).where(inArray(bookingRequests.id, ids));
}

async function waitUntilSettled(release: Release, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    if ((await statuses(release)).every((r) => r.status !== "processing" && r.status !== "pending")) return;
    await Bun.sleep(200);
  }
  throw new Error("the requests were still being processed");
}

/**
 * Every request ends Confirmed with exactly the booking the club holds in its member's name, and
 * every member's time (or, for the one who lost the contested slot, their next) is booked.
 */
async function expectClubAndTeeboxAgree(release: Release): Promise<void> {
  const { db } = app!.deps.database;
  const rows = await statuses(release);
  expect(rows.map((r) => r.status)).toEqual(release.members.map(() => "confirmed"));
  expect(rows.every((r) => r.phase === null)).toBe(true);
  for (const [i, member] of release.members.entries()) {
    const atClub = await club!.bookingsOf(member.email);
    const inTeebox = await db.select().from(bookings).where(eq(bookings.userId, member.userId));
    expect(atClub.map((b) => ({ ref: b.ref, date: b.date, time: b.time }))).toEqual(inTeebox.map((b) => ({ ref: b.bookingRef, date: b.playDate, time: b.time })));
    expect(atClub).toHaveLength(1);
    expect(atClub[0].time).toBe(TIMES[i]);
    expect(rows.find((r) => r.id === member.requestId)?.bookingRef).toBe(atClub[0].ref);
  }
}

/** Switches a fault on from `fromMs` to `toMs` on the club's clock, sampling Teebox's states at `sampleAtMs`. */
async function faultWindow(release: Release, fault: ClubFaultsInput, clear: ClubFaultsInput, fromMs: number, toMs: number, sampleAtMs: number) {
  await untilClub(release, release.releaseAt + fromMs);
  await club!.setFaults(fault);
  await untilClub(release, release.releaseAt + sampleAtMs);
  const during = await statuses(release);
  const listed = await listRequests(app!.deps.database.db, release.members[0].userId);
  await untilClub(release, release.releaseAt + toMs);
  await club!.setFaults(clear);
  return { during, listed };
}

test("the club answers 500 to everything from 3 s before the instant: Teebox waits for the club, then books every free slot", async () => {
  const release = await startRelease();
  const { during, listed } = await faultWindow(release, { errorRate: 1 }, { errorRate: 0 }, -3000, 5000, 3500);

  // Meanwhile nothing is given up: every request is processing, waiting for the club.
  expect(during.map((r) => `${r.status}/${r.phase}`)).toEqual(release.members.map(() => "processing/waiting_for_club"));
  expect(listed).toEqual([expect.objectContaining({ status: "Processing", phase: "waiting_for_club" })]);

  await waitUntilSettled(release, 30_000);
  await expectClubAndTeeboxAgree(release);
  const attempts = await club!.attempts();
  // The first posts met the fault; the slots were booked only after the club recovered.
  expect(attempts.filter((a) => a.outcome === "server_error").length).toBeGreaterThanOrEqual(MEMBERS);
  expect(attempts.filter((a) => a.outcome === "confirmed").every((a) => a.arrivedClubMs >= release.releaseAt + 5000)).toBe(true);
}, 60_000);

test("the club's pages change layout from the instant: every booking the club makes is known to Teebox, none ends Failed", async () => {
  const release = await startRelease();
  const { during } = await faultWindow(release, { layout: "changed" }, { layout: "standard" }, -200, 5000, 3000);

  // The posts were booked at the club, but their answers could not be read: checking with the club.
  const booked = (await club!.attempts()).filter((a) => a.outcome === "confirmed" && a.arrivedClubMs < release.releaseAt + 3000);
  expect(booked.length).toBeGreaterThan(0);
  expect(during.every((r) => r.status === "processing")).toBe(true);
  expect(during.filter((r) => r.phase === "checking_with_club").length).toBeGreaterThanOrEqual(booked.length);

  await waitUntilSettled(release, 30_000);
  await expectClubAndTeeboxAgree(release);
  // Nothing was booked twice: one confirmed post per member.
  expect((await club!.attempts()).filter((a) => a.outcome === "confirmed")).toHaveLength(MEMBERS);
}, 60_000);
