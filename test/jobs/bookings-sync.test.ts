import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, bookings, users } from "../../src/db/schema.ts";
import { createBookingsSync } from "../../src/jobs/bookings-sync.ts";
import { RELEASE_GUARD_MS, recordAttemptSent } from "../../src/lifecycle/request-lifecycle.ts";
import { PLAY, RELEASE, startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

const DATE = "2026-11-27";
let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const rows = (fx: ReleaseFixture) => fx.t.deps.database.db.select().from(bookings);

test("bookings made or cancelled on the club's own site show up in Teebox", async () => {
  f = await startReleaseFixture({ startEngine: false });
  const sync = createBookingsSync(f.t.deps);
  sync.start();
  try {
    const maria = await f.user("maria");
    const session = await f.t.deps.sessions.forMember(maria.id);
    const { ref } = await session.book({
      date: DATE,
      course: "masters",
      slotId: "MAS-20261127-0600",
      time: "06:00",
      players: [
        { type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" },
        { type: "Guest", firstName: "Pat", lastName: "Guest", cart: "Walking", fee: "Charge my guest" },
      ],
    });

    expect(await sync.syncMember(maria.id)).toBe(true);
    const [row] = await rows(f);
    expect(row).toMatchObject({ bookingRef: ref, userId: maria.id, playDate: DATE, time: "06:00", courseId: "masters", requestId: null });
    expect(f.t.published.at(-1)).toEqual({ topic: `user:${maria.id}`, message: { type: "status", status: "updated", changed: ["my.bookings"] } });
    const cookie = await f.t.signIn("maria", "demo1234");
    const listed = await (await f.t.call("GET", "/v1/my/bookings", { cookie })).json();
    expect(listed[0].playersInfo.map((p: { name: string }) => p.name)).toEqual(["Maria Santos", "Pat Guest"]);

    // Nothing new: no change, no message.
    const published = f.t.published.length;
    expect(await sync.syncMember(maria.id)).toBe(false);
    expect(f.t.published.length).toBe(published);

    await f.clock.advance(1000);
    await session.cancelBooking(ref);
    expect(await sync.syncMember(maria.id)).toBe(true);
    expect(await rows(f)).toHaveLength(0);
  } finally {
    await sync.stop();
  }
});

test("each member's last read of their club bookings is kept, and only a read that was applied counts", async () => {
  f = await startReleaseFixture({ startEngine: false });
  const sync = createBookingsSync(f.t.deps);
  sync.start();
  const readAt = async (userId: number) => (await f!.t.deps.database.db.select({ at: users.clubBookingsReadAt }).from(users).where(eq(users.id, userId)))[0]?.at;
  try {
    const maria = await f.user("maria");
    expect(await readAt(maria.id)).toBeNull();
    await sync.syncMember(maria.id);
    const first = f.clock.now();
    expect(await readAt(maria.id)).toBe(first);

    // The club fails every request: nothing was read, so the last read stays the one before.
    await f.clock.advance(60_000);
    f.sim.setFaults({ down: true });
    await expect(sync.syncMember(maria.id)).rejects.toThrow();
    expect(await readAt(maria.id)).toBe(first);

    f.sim.setFaults({ down: false });
    await sync.syncMember(maria.id);
    expect(await readAt(maria.id)).toBe(first + 60_000);
  } finally {
    await sync.stop();
  }
});

test("the periodic round reads every member with a club login", async () => {
  f = await startReleaseFixture({ startEngine: false });
  const sync = createBookingsSync(f.t.deps, { intervalMs: 60_000, firstRoundDelayMs: 1000 });
  sync.start();
  try {
    const jose = await f.user("jose");
    await (await f.t.deps.sessions.forMember(jose.id)).book({
      date: DATE,
      course: "masters",
      slotId: "MAS-20261127-0608",
      time: "06:08",
      players: [{ type: "Member", lastName: "Reyes", memberId: "SW-1002", cart: "Walking", fee: "Charge to my account" }],
    });
    expect(await rows(f)).toHaveLength(0);
    await f.clock.advance(1000);
    // The round talks to the club over real sockets: wait for what it reports.
    for (let i = 0; i < 400 && !f.t.deps.jobs.get("bookings sync")?.lastRunAt; i++) await new Promise((r) => setTimeout(r, 5));
    expect(f.t.deps.jobs.get("bookings sync")?.lastRunAt).not.toBeNull();
    expect((await rows(f)).map((r) => [r.userId, r.time])).toEqual([[jose.id, "06:08"]]);
  } finally {
    await sync.stop();
  }
});

test("a request Teebox could not settle at its release is confirmed once the club lists its booking; one the club does not list still needs attention", async () => {
  f = await startReleaseFixture({ startEngine: false });
  const sync = createBookingsSync(f.t.deps);
  sync.start();
  try {
    const { db } = f.t.deps.database;
    const maria = await f.user("maria");
    await f.submit("maria", submission(DATE, ["06:00", "06:08"]));
    await f.submit("maria", submission(DATE, ["06:16"]));
    const [booked, absent] = (await db.select().from(bookingRequests).orderBy(bookingRequests.id)).map((r) => r.id);
    // As the engine leaves them (decision 117): needs attention, with the times they posted for.
    for (const [id, time] of [
      [booked, "06:08"],
      [absent, "06:16"],
    ] as const) {
      await db
        .update(bookingRequests)
        .set({ status: "needs_attention", reasonKey: "bookings.reason.could_not_tell", reasonContext: { date: DATE, minutes: "10" } })
        .where(eq(bookingRequests.id, id));
      await recordAttemptSent(db, { requestId: id, time, slotId: null, firedAtClub: 0, firedAtLocal: 0 });
    }
    // The club made the first post's booking; it lists no booking at 06:16 (one at 06:24 is another matter).
    const session = await f.t.deps.sessions.forMember(maria.id);
    const player = { type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" };
    const { ref } = await session.book({ date: DATE, course: "masters", slotId: "MAS-20261127-0608", time: "06:08", players: [player] });
    await session.book({ date: DATE, course: "masters", slotId: "MAS-20261127-0624", time: "06:24", players: [player] });

    expect(await sync.syncMember(maria.id)).toBe(true);
    const [first, second] = await db.select().from(bookingRequests).orderBy(bookingRequests.id);
    expect(first).toMatchObject({ status: "confirmed", bookingRef: ref, reasonKey: null });
    expect(second).toMatchObject({ status: "needs_attention", bookingRef: null, reasonKey: "bookings.reason.could_not_tell" });
    const linked = await db.select().from(bookings).where(eq(bookings.bookingRef, ref));
    expect(linked).toMatchObject([{ requestId: booked, time: "06:08" }]);
    // Read again: nothing more changes, and the 06:24 booking is never claimed for the other request.
    expect(await sync.syncMember(maria.id)).toBe(false);
    expect((await db.select().from(bookingRequests).where(eq(bookingRequests.id, absent)))[0].status).toBe("needs_attention");
  } finally {
    await sync.stop();
  }
});

test("a session the club dropped mid-sync is signed in again once and the booking is still read", async () => {
  f = await startReleaseFixture({ startEngine: false });
  const sync = createBookingsSync(f.t.deps);
  sync.start();
  try {
    const maria = await f.user("maria");
    const session = await f.t.deps.sessions.forMember(maria.id);
    const { ref } = await session.book({
      date: DATE,
      course: "masters",
      slotId: "MAS-20261127-0600",
      time: "06:00",
      players: [{ type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" }],
    });
    const actionsBefore = f.clubActions.length;
    f.sim.dropAllSessions();

    expect(await sync.syncMember(maria.id)).toBe(true);
    expect((await rows(f)).map((r) => r.bookingRef)).toEqual([ref]);
    expect(f.clubActions.slice(actionsBefore).filter((a) => a.action === "login" && a.email === "maria@southwoods.demo")).toHaveLength(1);
  } finally {
    await sync.stop();
  }
});

test("no round reads the club within 15 minutes of a release: a round of every member would spend the club budget the release then waits for", async () => {
  f = await startReleaseFixture({ now: RELEASE - 10 * 60_000, startEngine: false });
  const sync = createBookingsSync(f.t.deps);
  sync.start();
  try {
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const jose = await f.user("jose");
    await (await f.t.deps.sessions.forMember(jose.id)).book({
      date: DATE,
      course: "masters",
      slotId: "MAS-20261127-0608",
      time: "06:08",
      players: [{ type: "Member", lastName: "Reyes", memberId: "SW-1002", cart: "Walking", fee: "Charge to my account" }],
    });
    const readsBefore = f.clubActions.length;

    // Ten minutes before the release: the round reads nobody, and says it is healthy.
    await sync.syncAll();
    expect(await rows(f)).toHaveLength(0);
    expect(f.clubActions.length).toBe(readsBefore);
    expect(f.t.deps.jobs.get("bookings sync")?.lastError ?? null).toBeNull();

    // Past the guard after the release, the next round reads every member again.
    await f.clock.set(RELEASE + RELEASE_GUARD_MS + 1000);
    await sync.syncAll();
    expect((await rows(f)).map((r) => [r.userId, r.time])).toEqual([[jose.id, "06:08"]]);
  } finally {
    await sync.stop();
  }
});
