/**
 * Requests a crash left processing after their release instant: on start every member's club
 * bookings are read at once, and one member whose bookings cannot be read holds nobody else back.
 * A year of soak found the first resumed post of 18 requests waiting for each member's sign-in and
 * read in turn, and behind one unreadable member's retries.
 */
import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { MemberClubSession } from "../../src/club/client.ts";
import { ClubError } from "../../src/club/errors.ts";
import type { MemberSessions } from "../../src/club/member-sessions.ts";
import { bookingRequests, requestAttempts } from "../../src/db/schema.ts";
import { createReleaseEngine, type ReleaseEngine } from "../../src/jobs/release-engine.ts";
import { PLAY, RELEASE, startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

const WINDOW_MS = 60_000;
/** Each member's first choice, on Masters' 8-minute grid; each was posted before the crash. */
const MEMBERS = [
  { username: "maria", email: "maria@southwoods.demo", time: "06:00" },
  { username: "jose", email: "jose@southwoods.demo", time: "06:16" },
  { username: "ana", email: "ana@southwoods.demo", time: "06:32" },
] as const;

let f: ReleaseFixture | null = null;
let engine: ReleaseEngine | null = null;
afterEach(async () => {
  await engine?.stop();
  engine = null;
  await f?.close();
  f = null;
});

/** How the wrapped sessions' bookings reads went: the most in flight at once, and every read. */
interface Reads {
  most: number;
  byMember: number[];
}

/**
 * The members' sessions, each bookings read held 20 ms (a club across the internet) and counted;
 * the reads of the members in `unreadable` fail as a club page that answers 500 does, and those of
 * the members in `held` wait for their promise (a club slow to answer one member).
 */
function countedSessions(inner: MemberSessions, unreadable: ReadonlySet<number>, held = new Map<number, Promise<void>>()): { sessions: MemberSessions; reads: Reads } {
  const reads: Reads = { most: 0, byMember: [] };
  let inFlight = 0;
  const wrap = (userId: number, session: MemberClubSession): MemberClubSession => ({
    ...session,
    async fetchMyBookings(options) {
      inFlight++;
      reads.most = Math.max(reads.most, inFlight);
      reads.byMember.push(userId);
      try {
        await Bun.sleep(20);
        await held.get(userId);
        if (unreadable.has(userId)) throw new ClubError("unavailable", "The club site answered 500.");
        return await session.fetchMyBookings(options);
      } finally {
        inFlight--;
      }
    },
  });
  return { reads, sessions: { ...inner, forMember: async (userId) => wrap(userId, await inner.forMember(userId)) } };
}

/** Every member's request submitted, then left processing by a crash 1 s after the instant with its first post unanswered. */
async function crashedRelease(): Promise<{ fx: ReleaseFixture; ids: Map<string, number>; userIds: Map<string, number> }> {
  const fx = await startReleaseFixture({ startEngine: false });
  const ids = new Map<string, number>();
  const userIds = new Map<string, number>();
  const db = fx.t.deps.database.db;
  for (const member of MEMBERS) {
    await fx.submit(member.username, submission(PLAY, [member.time]));
    const user = await fx.user(member.username);
    const [row] = await db.select({ id: bookingRequests.id }).from(bookingRequests).where(eq(bookingRequests.userId, user.id));
    ids.set(member.username, row.id);
    userIds.set(member.username, user.id);
  }
  await fx.clock.set(RELEASE + 1000);
  for (const member of MEMBERS) {
    const id = ids.get(member.username)!;
    await db.update(bookingRequests).set({ status: "processing" }).where(eq(bookingRequests.id, id));
    const slotId = `MAS-20261130-${member.time.replace(":", "")}`;
    await db.insert(requestAttempts).values({ requestId: id, time: member.time, slotId, state: "sent", firedAtClub: RELEASE, firedAtLocal: RELEASE });
  }
  return { fx, ids, userIds };
}

function startEngine(fx: ReleaseFixture, sessions: MemberSessions): ReleaseEngine {
  const { database, clock, logger, jobs, club, notifier } = fx.t.deps;
  return createReleaseEngine(
    { database, clock, logger, jobs, club, sessions, notifier },
    { measureOffset: async () => ({ offsetMs: 0, uncertaintyMs: 0 }), unavailableWindowMs: WINDOW_MS },
  );
}

test("on start, the club bookings of every request a crash left processing are read at once, not one member after another", async () => {
  const crashed = await crashedRelease();
  f = crashed.fx;
  // Maria's post did reach the club before the crash: it is found there, not posted again.
  const maria = await f.t.deps.sessions.forMember(crashed.userIds.get("maria")!);
  const { ref } = await maria.book({
    date: PLAY,
    course: "masters",
    slotId: "MAS-20261130-0600",
    time: "06:00",
    players: [{ type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" }],
  });
  const { sessions, reads } = countedSessions(f.t.deps.sessions, new Set());
  engine = startEngine(f, sessions);
  await engine.start();
  await engine.idle();

  expect(reads.most).toBe(MEMBERS.length);
  expect(await f.request(crashed.ids.get("maria")!)).toMatchObject({ status: "confirmed", bookingRef: ref });
  for (const member of MEMBERS.slice(1)) {
    expect(await f.request(crashed.ids.get(member.username)!)).toMatchObject({ status: "confirmed" });
    expect(f.sim.bookingsOf(member.email).map((b) => b.time)).toEqual([member.time]);
  }
  expect(f.sim.attempts().filter((a) => a.email === "maria@southwoods.demo")).toHaveLength(1);
});

test("a member whose club bookings cannot be read after a crash holds nobody back: the others are resumed and booked while that one is checked again", async () => {
  const crashed = await crashedRelease();
  f = crashed.fx;
  const mariaId = crashed.userIds.get("maria")!;
  const { sessions, reads } = countedSessions(f.t.deps.sessions, new Set([mariaId]));
  engine = startEngine(f, sessions);
  await engine.start();
  await engine.idle();

  for (const member of MEMBERS.slice(1)) {
    expect(await f.request(crashed.ids.get(member.username)!)).toMatchObject({ status: "confirmed" });
    expect(f.sim.bookingsOf(member.email).map((b) => b.time)).toEqual([member.time]);
  }
  expect(await f.request(crashed.ids.get("maria")!)).toMatchObject({ status: "processing", phase: "checking_with_club" });

  // Maria's is checked again until the club's retry window is over, never posted while it may hold her booking.
  const readsBefore = reads.byMember.filter((id) => id === mariaId).length;
  for (let at = f.clock.now(); at <= RELEASE + 1000 + WINDOW_MS + 2000; at += 1000) {
    await f.clock.set(at);
    await engine.idle();
  }
  expect(reads.byMember.filter((id) => id === mariaId).length).toBeGreaterThan(readsBefore);
  expect(await f.request(crashed.ids.get("maria")!)).toMatchObject({ status: "needs_attention", reasonKey: "bookings.reason.could_not_tell" });
  expect(f.sim.attempts().filter((a) => a.email === "maria@southwoods.demo")).toHaveLength(0);
});

test("a member whose club bookings are slow to read after a crash holds nobody back: the others are booked before that read answers", async () => {
  const crashed = await crashedRelease();
  f = crashed.fx;
  let answer!: () => void;
  const mariaRead = new Promise<void>((resolve) => (answer = resolve));
  const { sessions } = countedSessions(f.t.deps.sessions, new Set(), new Map([[crashed.userIds.get("maria")!, mariaRead]]));
  engine = startEngine(f, sessions);
  await engine.start();
  // Maria's read is under way all along, so the engine is never idle: the others are awaited in real time.
  const othersConfirmed = async () => {
    for (const member of MEMBERS.slice(1)) if ((await f!.request(crashed.ids.get(member.username)!)).status !== "confirmed") return false;
    return true;
  };
  for (let waited = 0; waited < 4_000 && !(await othersConfirmed()); waited += 20) await Bun.sleep(20);
  expect(await othersConfirmed()).toBe(true);
  expect(await f.request(crashed.ids.get("maria")!)).toMatchObject({ status: "processing" });
  expect(f.sim.attempts().filter((a) => a.email === "maria@southwoods.demo")).toHaveLength(0);

  answer();
  await engine.idle();
  expect(await f.request(crashed.ids.get("maria")!)).toMatchObject({ status: "confirmed" });
  expect(f.sim.bookingsOf("maria@southwoods.demo").map((b) => b.time)).toEqual(["06:00"]);
});
