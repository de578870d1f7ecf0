/**
 * The member's notification list and email switches over the API (the other channels' switches:
 * test/api/push.test.ts): newest first in
 * bounded pages, read all or by id, each member's own only; the wording an admin chose; and the
 * notifications the bookings sync leaves when a booking is cancelled or changed on the club's site
 * (and none for what Teebox itself did).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, notifications, uiText } from "../../src/db/schema.ts";
import { NOTIFICATION_KINDS } from "../../src/domain/notifications.ts";
import { createTestApp, userIdOf, type TestApp } from "../helpers/api.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";

let t: TestApp | null = null;
let f: ReleaseFixture | null = null;
afterEach(async () => {
  await t?.close();
  await f?.close();
  t = null;
  f = null;
});

interface Listed {
  items: { id: number; kind: string; text: string; createdAt: number; readAt: number | null }[];
  unread: number;
  hasMore: boolean;
}

async function twoMembers() {
  const app = await createTestApp();
  const miaId = await app.createUser({ username: "mia", password: "mia-pass-1" });
  const leoId = await app.createUser({ username: "leo", password: "leo-pass-1" });
  return { app, miaId, leoId, mia: await app.signIn("mia", "mia-pass-1"), leo: await app.signIn("leo", "leo-pass-1") };
}

/** `count` confirmed bookings for the member, a minute apart, refs R1…Rn (with `prefix`). */
async function confirmSome(app: TestApp, userId: number, count: number, prefix = "R"): Promise<void> {
  for (let i = 1; i <= count; i++) {
    app.deps.notifier.publish({ type: "booking_confirmed", userId, course: "Masters", date: "2026-11-29", time: `06:${String(i).padStart(2, "0")}`, ref: `${prefix}${i}` });
    await app.deps.notifier.settled!();
    await app.clock.advance(60_000);
  }
}

const list = async (app: TestApp, cookie: string, query = ""): Promise<Listed> => {
  const res = await app.call("GET", `/v1/my/notifications${query}`, { cookie });
  expect(res.status).toBe(200);
  return res.json();
};
const markRead = (app: TestApp, cookie: string, body: unknown) => app.call("POST", "/v1/my/notifications/read", { cookie, body });

describe("GET /v1/my/notifications", () => {
  test("newest first, a bounded page at a time, with the count of all unread", async () => {
    const m = await twoMembers();
    t = m.app;
    await confirmSome(t, m.miaId, 25);
    const first = await list(t, m.mia);
    expect(first.items).toHaveLength(20);
    expect(first.unread).toBe(25);
    expect(first.hasMore).toBe(true);
    expect(first.items[0]).toMatchObject({ kind: "request_confirmed", text: "Booked: Masters on 2026-11-29 at 06:25 (R25).", readAt: null });
    expect(first.items.map((n) => n.createdAt)).toEqual([...first.items.map((n) => n.createdAt)].sort((a, b) => b - a));
    const rest = await list(t, m.mia, `?before=${first.items.at(-1)!.id}&limit=50`);
    expect(rest.items.map((n) => n.text.match(/\((R\d+)\)/)![1])).toEqual(["R5", "R4", "R3", "R2", "R1"]);
    expect(rest.hasMore).toBe(false);
    expect((await list(t, m.mia, "?limit=3&_=123")).items).toHaveLength(3);
    for (const query of ["?limit=0", "?limit=51", "?limit=abc", "?before=-1", "?before=1.5"]) {
      const res = await t.call("GET", `/v1/my/notifications${query}`, { cookie: m.mia });
      expect(res.status).toBe(400);
      expect((await res.json()).errorKey).toMatch(/^validation\.(too_small|too_big|expected_whole_number)$/);
    }
    expect((await t.call("GET", "/v1/my/notifications")).status).toBe(401);
  });

  test("each member reads and marks only their own", async () => {
    const m = await twoMembers();
    t = m.app;
    await confirmSome(t, m.miaId, 3, "M");
    await confirmSome(t, m.leoId, 2, "L");
    const mia = await list(t, m.mia);
    const leo = await list(t, m.leo);
    expect(mia.items.map((n) => n.text.match(/\((\w+)\)/)![1])).toEqual(["M3", "M2", "M1"]);
    expect(leo.items.map((n) => n.text.match(/\((\w+)\)/)![1])).toEqual(["L2", "L1"]);
    // Leo's ids in Mia's call change nothing of Leo's; Mia's own id is read.
    const before = t.published.length;
    const read = await markRead(t, m.mia, { ids: [leo.items[0].id, leo.items[1].id, mia.items[2].id] });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ unread: 2 });
    expect((await list(t, m.leo)).unread).toBe(2);
    expect((await list(t, m.mia)).items.map((n) => n.readAt !== null)).toEqual([false, false, true]);
    // Mia's other screens refresh; Leo's are told nothing.
    expect(t.published.slice(before)).toEqual([{ topic: `user:${m.miaId}`, message: { type: "status", status: "updated", changed: ["my.notifications"] } }]);
    expect(await (await markRead(t, m.mia, { all: true })).json()).toEqual({ unread: 0 });
    expect((await list(t, m.leo)).unread).toBe(2);
    // Nothing left to read: nothing changes and no one is told.
    const quiet = t.published.length;
    expect(await (await markRead(t, m.mia, { all: true })).json()).toEqual({ unread: 0 });
    expect(t.published.length).toBe(quiet);
  });

  test("POST /v1/my/notifications/read takes all or a list of ids, nothing else", async () => {
    const m = await twoMembers();
    t = m.app;
    await confirmSome(t, m.miaId, 1);
    for (const body of [{}, { all: false }, { all: "true" }, { ids: [] }, { ids: ["1"] }, { ids: [0] }, { ids: [1], all: true }, { ids: [1], userId: m.leoId }, [1], "all"]) {
      const res = await markRead(t, m.mia, body);
      expect(res.status).toBe(400);
      expect((await res.json()).errorKey).toMatch(/^validation\./);
    }
    expect((await list(t, m.mia)).unread).toBe(1);
  });

  test("a line reads in the wording an admin chose, with the reason in its own key's wording", async () => {
    const m = await twoMembers();
    t = m.app;
    t.deps.notifier.publish({
      type: "request_failed",
      userId: m.miaId,
      course: "Masters",
      date: "2026-11-29",
      reason: { key: "bookings.reason.no_time_available", context: {} },
      requestId: 4,
      submittedAt: 1,
    });
    await t.deps.notifier.settled!();
    expect((await list(t, m.mia)).items[0].text).toBe("Your request for Masters on 2026-11-29 failed: No selected time was available.");
    await t.deps.database.db.update(uiText).set({ value: "{course}, {date}: not booked ({reason})" }).where(eq(uiText.key, "notifications.text.request_failed"));
    await t.deps.database.db.update(uiText).set({ value: "every time was taken" }).where(eq(uiText.key, "bookings.reason.no_time_available"));
    expect((await list(t, m.mia)).items[0].text).toBe("Masters, 2026-11-29: not booked (every time was taken)");
  });

  test("a stored notification refreshes its member's screens once it is stored; the same event twice is one", async () => {
    const m = await twoMembers();
    t = m.app;
    const event = { type: "club_booking_cancelled", userId: m.miaId, ref: "SW-7", course: "Masters", date: "2026-11-29", time: "06:00" } as const;
    t.deps.notifier.publish(event);
    t.deps.notifier.publish(event);
    await t.deps.notifier.settled!();
    const mine = t.published.filter((p) => p.topic === `user:${m.miaId}`).map((p) => p.message.type);
    expect(mine).toEqual(["toast", "toast", "status"]);
    const listed = await list(t, m.mia);
    expect(listed.items.map((n) => n.text)).toEqual(["Your booking SW-7 for Masters on 2026-11-29 at 06:00 was cancelled on the club's site."]);
  });
});

describe("GET and PUT /v1/my/notification-settings", () => {
  test("every kind is on until switched off; a member changes only their own; unknown kinds and non-booleans are refused", async () => {
    const m = await twoMembers();
    t = m.app;
    const read = async (cookie: string) => (await t!.call("GET", "/v1/my/notification-settings", { cookie })).json();
    const initial = await read(m.mia);
    const allOn = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, true]));
    expect(initial).toEqual({ address: "mia@southwoods.demo", inApp: allOn, push: allOn, email: allOn });
    const saved = await t.call("PUT", "/v1/my/notification-settings", { cookie: m.mia, body: { email: { request_failed: false, watch_found: false } } });
    expect(saved.status).toBe(200);
    expect((await saved.json()).email).toMatchObject({ request_failed: false, watch_found: false, request_confirmed: true });
    expect((await read(m.mia)).email.request_failed).toBe(false);
    expect((await read(m.leo)).email.request_failed).toBe(true);
    // On again.
    await t.call("PUT", "/v1/my/notification-settings", { cookie: m.mia, body: { email: { request_failed: true } } });
    expect((await read(m.mia)).email.request_failed).toBe(true);
    for (const body of [{ email: { unknown_kind: true } }, { email: { request_failed: "no" } }, { email: { request_failed: true }, userId: m.leoId }, {}, { email: null }]) {
      const res = await t.call("PUT", "/v1/my/notification-settings", { cookie: m.mia, body });
      expect(res.status).toBe(400);
    }
    expect((await read(m.mia)).email.watch_found).toBe(false);
    expect((await t.call("PUT", "/v1/my/notification-settings", { body: { email: {} } })).status).toBe(401);
  });
});

describe("bookings cancelled or changed on the club's site", () => {
  const OPEN_DATE = "2026-11-27";
  const kindsOf = async (fx: ReleaseFixture, userId: number) =>
    (await fx.t.deps.database.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(notifications.id)).map((n) => n.kind);

  test("the sync tells the member once; Teebox's own booking and its own edits tell nothing", async () => {
    f = await startReleaseFixture();
    const maria = await userIdOf(f.t, "maria");
    await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
    const [booking] = await f.bookingsOf("maria");
    f.t.deps.bookingsSync.start();
    const sync = async () => {
      await f!.clock.advance(1000);
      await f!.t.deps.bookingsSync.syncMember(maria);
      await f!.t.deps.notifier.settled!();
    };
    await sync();
    expect(await kindsOf(f, maria)).toEqual(["request_confirmed"]);

    // Players changed in Teebox (an edit at the club): no "changed on the club's site".
    const cookie = await f.t.signIn("maria", "demo1234");
    const garcia = { type: "Member", cartType: { Walking: true }, chargeFeesTo: { "Charge to their account": true }, searchLastName: "Garcia", searchIdNumber: "sw-1004" };
    expect((await f.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie, body: submission(OPEN_DATE, ["06:00"], "masters", [garcia]) })).status).toBe(200);
    await sync();
    expect(await kindsOf(f, maria)).toEqual(["request_confirmed"]);

    // Players changed on the club's own site: told once.
    const session = await f.t.deps.sessions.forMember(maria);
    await session.editBooking(booking.bookingRef, [
      { type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" },
      { type: "Guest", firstName: "Pat", lastName: "Guest", cart: "Walking", fee: "Charge my guest" },
    ]);
    await sync();
    await sync();
    expect(await kindsOf(f, maria)).toEqual(["request_confirmed", "booking_changed"]);

    // Cancelled there: told once, with the booking as it was.
    await session.cancelBooking(booking.bookingRef);
    await sync();
    await sync();
    expect(await kindsOf(f, maria)).toEqual(["request_confirmed", "booking_changed", "booking_cancelled"]);
    const listed = await (await f.t.call("GET", "/v1/my/notifications", { cookie })).json();
    expect(listed.items.map((n: { text: string }) => n.text)).toEqual([
      `Your booking ${booking.bookingRef} for Masters on ${OPEN_DATE} at 06:00 was cancelled on the club's site.`,
      `Your booking ${booking.bookingRef} was changed on the club's site: now Masters on ${OPEN_DATE} at 06:00.`,
      `Booked: Masters on ${OPEN_DATE} at 06:00 (${booking.bookingRef}).`,
    ]);
    expect(listed.unread).toBe(3);
  });

  test("a booking cancelled in Teebox by its member is not 'cancelled on the club's site'", async () => {
    f = await startReleaseFixture();
    const maria = await f.user("maria");
    await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
    const [booking] = await f.bookingsOf("maria");
    f.t.deps.bookingsSync.start();
    await f.t.deps.hub.dispatch(
      { user: maria, sessionId: "s" },
      JSON.stringify({ action: "CANCEL_CONFIRMED_BOOKING", payload: { bookingId: booking.bookingRef } }),
      () => undefined,
    );
    await f.clock.advance(1000);
    await f.t.deps.bookingsSync.syncMember(maria.id);
    await f.t.deps.notifier.settled!();
    expect(await kindsOf(f, maria.id)).toEqual(["request_confirmed"]);
  });
});

describe("a release whose outcome Teebox could not tell", () => {
  test("needs attention (a notification with the reason), then booked (another) once the sync finds the booking at the club", async () => {
    const PLAY = "2026-11-30";
    const RELEASE = manilaInstant("2026-11-23", "07:00");
    f = await startReleaseFixture({ engine: { unavailableWindowMs: 2000 } });
    const maria = await f.user("maria");
    await f.submit("maria", submission(PLAY, ["06:00"]));
    await f.moveTo(RELEASE - 60_000);
    f.sim.setFaults({ errorRate: 1 });
    await f.moveTo(RELEASE);
    const [request] = await f.t.deps.database.db.select().from(bookingRequests);
    await f.stepUntil(async () => (await f!.request(request.id)).status === "needs_attention", 100, 2000);
    await f.t.deps.notifier.settled!();
    const cookie = await f.t.signIn("maria", "demo1234");
    const first = await (await f.t.call("GET", "/v1/my/notifications", { cookie })).json();
    expect(first.items.map((n: { kind: string }) => n.kind)).toEqual(["needs_attention"]);
    expect(first.items[0].text).toStartWith("Your request for Masters on 2026-11-30 needs attention: ");

    // The club had booked it after all: the sync confirms the request and the member hears of it.
    f.sim.setFaults({ errorRate: 0 });
    const session = await f.t.deps.sessions.forMember(maria.id);
    const { ref } = await session.book({
      date: PLAY,
      course: "masters",
      slotId: "MAS-20261130-0600",
      time: "06:00",
      players: [{ type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" }],
    });
    f.t.deps.bookingsSync.start();
    await f.t.deps.bookingsSync.syncMember(maria.id);
    await f.t.deps.notifier.settled!();
    expect((await f.request(request.id)).status).toBe("confirmed");
    const second = await (await f.t.call("GET", "/v1/my/notifications", { cookie })).json();
    expect(second.items.map((n: { text: string }) => n.text)[0]).toBe(`Booked: Masters on ${PLAY} at 06:00 (${ref}).`);
    expect(second.unread).toBe(2);
  });
});
