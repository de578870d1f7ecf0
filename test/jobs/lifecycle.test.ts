/** A request's life against the demo club: a freed slot can be booked again; a disabled member's requests are held. */
import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, bookings, uiText, users } from "../../src/db/schema.ts";
import { confirmRequest, knownBookingRefs } from "../../src/lifecycle/request-lifecycle.ts";
import { recordBooking, removeBookingByRef } from "../../src/lifecycle/booking-records.ts";
import { claimedBookingRefs } from "../../src/lifecycle/watch-lifecycle.ts";
import { GUEST_FEE_CHOICES } from "../../src/club-sim/demo-data.ts";
import { ADMIN_PASSWORD } from "../helpers/api.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { startReleaseFixture, submission, type ReleaseFixture, PLAY, RELEASE } from "./release-engine.fixture.ts";

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const latestRequest = async (fx: ReleaseFixture) => (await fx.t.deps.database.db.select().from(bookingRequests).orderBy(bookingRequests.id)).at(-1)!;

async function act(fx: ReleaseFixture, username: string, action: string, payload: unknown): Promise<ServerMessage> {
  const member = await fx.user(username);
  let answer: ServerMessage | null = null;
  await fx.t.deps.hub.dispatch({ user: member, sessionId: "test" }, JSON.stringify({ action, payload }), (m) => (answer = m));
  await fx.engine.idle();
  if (!answer) throw new Error("no answer");
  return answer;
}

test("after a member cancels a confirmed booking, a new request books the freed slot again", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE);
  const first = await latestRequest(f);
  expect(first.status).toBe("confirmed");

  expect(await act(f, "maria", "CANCEL_CONFIRMED_BOOKING", { bookingId: first.bookingRef })).toMatchObject({ type: "ack" });
  expect(await f.bookingsOf("maria")).toHaveLength(0);

  // The date is open now: the new request is taken at once.
  expect(await f.submit("maria", submission(PLAY, ["06:00"]))).toMatchObject({ type: "submissionResult", status: "submitted" });
  const fx = f;
  await f.stepUntil(async () => (await latestRequest(fx)).status !== "processing" && (await latestRequest(fx)).status !== "pending");
  const second = await latestRequest(f);
  expect(second.id).not.toBe(first.id);
  expect(second).toMatchObject({ status: "confirmed", failureReason: null });
  const [booking] = await f.bookingsOf("maria");
  expect(booking).toMatchObject({ time: "06:00", playDate: PLAY, bookingRef: second.bookingRef });
});

test("a disabled member's request is held at the release: nothing is posted, and it fires if the member is enabled before it", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const maria = await f.user("maria");
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE - 1);
  expect((await latestRequest(f)).status).toBe("held");
  await f.t.deps.database.db.update(users).set({ status: "active" }).where(eq(users.id, maria.id));
  f.engine.wake();
  await f.moveTo(RELEASE);
  const fx = f;
  await f.stepUntil(async () => (await latestRequest(fx)).status === "confirmed");
  expect(f.sim.attempts().filter((a) => !a.isRival)).toHaveLength(1);
});

test("a held request whose release passes while the member is still disabled fails with a clear reason, never reaching the club", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const maria = await f.user("maria");
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE);
  await f.moveTo(RELEASE + 5_000);
  const request = await latestRequest(f);
  expect(request).toMatchObject({ status: "failed", reasonKey: "bookings.reason.member_disabled" });
  expect(request.failureReason).toContain("disabled");
  expect(f.sim.attempts().filter((a) => !a.isRival)).toHaveLength(0);
});

test("an edit whose first post times out reads the club before anything else and books exactly once", async () => {
  f = await startReleaseFixture({ clubTimeoutMs: 150 });
  const OPEN_DATE = "2026-11-27";
  await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
  await f.stepUntil(async () => (await f!.bookingsOf("maria")).length === 1);
  const [old] = await f.bookingsOf("maria");
  const cookie = await f.t.signIn("maria", "demo1234");
  const maria = await f.user("maria");
  await (await f.t.deps.sessions.forMember(maria.id)).renew();
  const postsBefore = f.sim.attempts().filter((a) => !a.isRival).length;

  // The post is slower than the adapter waits: it gets no answer, but the club books it.
  f.sim.setFaults({ latencyMs: 400 });
  // Slot ids given, so the only call to the club before the post is none (the session is signed in).
  const body = {
    ...submission(OPEN_DATE, []),
    selectionOrder: [
      { time: "06:16", slotId: "MAS-20261127-0616" },
      { time: "06:24", slotId: "MAS-20261127-0624" },
    ],
  };
  const editing = f.t.call("POST", `/v1/bookings/${old.bookingRef}/edit`, { cookie, body });
  await Bun.sleep(40);
  f.sim.setFaults({ latencyMs: 0 });
  let settled = false;
  void editing.finally(() => (settled = true));
  // The edit pauses (on the fake clock) before it reads the club; let the post land, then move time.
  while (!settled && f.sim.attempts().filter((a) => !a.isRival).length === postsBefore) await Bun.sleep(10);
  while (!settled) {
    await f.clock.advance(200);
    await Bun.sleep(10);
  }
  const res = await editing;
  expect(res.status).toBe(200);
  const answer = await res.json();
  expect(answer.booking).toMatchObject({ time: "06:16", date: OPEN_DATE });
  const posts = f.sim
    .attempts()
    .filter((a) => !a.isRival)
    .slice(postsBefore);
  expect(posts.map((p) => [p.time, p.outcome])).toEqual([["06:16", "confirmed"]]);
  expect(f.sim.bookingsOf("maria@southwoods.demo").map((b) => b.time)).toEqual(["06:16"]);
  expect((await f.bookingsOf("maria")).map((b) => [b.time, b.bookingRef])).toEqual([["06:16", answer.booking.bookingId]]);
});

test("an edit that cannot read the club after an unanswered post answers 504 and leaves the post for the slot watch's next pass, which completes the edit", async () => {
  f = await startReleaseFixture({ clubTimeoutMs: 150 });
  const OPEN_DATE = "2026-11-27";
  await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
  await f.stepUntil(async () => (await f!.bookingsOf("maria")).length === 1);
  const [old] = await f.bookingsOf("maria");
  const cookie = await f.t.signIn("maria", "demo1234");
  const maria = await f.user("maria");
  await (await f.t.deps.sessions.forMember(maria.id)).renew();
  const postsBefore = f.sim.attempts().filter((a) => !a.isRival).length;

  f.sim.setFaults({ latencyMs: 400 });
  const body = { ...submission(OPEN_DATE, []), selectionOrder: [{ time: "06:16", slotId: "MAS-20261127-0616" }] };
  const editing = f.t.call("POST", `/v1/bookings/${old.bookingRef}/edit`, { cookie, body });
  let settled = false;
  void editing.finally(() => (settled = true));
  // The post lands at the club unheard; then the club stops answering, so its outcome cannot be read.
  while (f.sim.attempts().filter((a) => !a.isRival).length === postsBefore) await Bun.sleep(10);
  f.sim.setFaults({ latencyMs: 0, down: true });
  while (!settled) {
    await f.clock.advance(200);
    await Bun.sleep(10);
  }
  const res = await editing;
  expect(res.status).toBe(504);
  expect(await res.json()).toMatchObject({ errorKey: "bookings.error.edit_unsettled" });
  expect((await f.bookingsOf("maria")).map((b) => b.time)).toEqual(["06:00"]);

  // The club answers again: the next pass reads the member's bookings first and completes the edit.
  f.sim.setFaults({ down: false });
  await f.t.deps.slotWatch.pass();
  const [moved] = f.sim.bookingsOf("maria@southwoods.demo");
  expect(f.sim.bookingsOf("maria@southwoods.demo").map((b) => b.time)).toEqual(["06:16"]);
  expect((await f.bookingsOf("maria")).map((b) => [b.time, b.bookingRef])).toEqual([["06:16", moved.ref]]);
  expect(
    f.sim
      .attempts()
      .filter((a) => !a.isRival)
      .slice(postsBefore)
      .map((p) => p.time),
  ).toEqual(["06:16"]);
});

test("a member disabled while their request is being retried is not retried for: it fails with the reason", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  await f.moveTo(RELEASE - 60_000);
  f.sim.setFaults({ down: true });
  await f.moveTo(RELEASE);
  const request = await latestRequest(f);
  expect(request.status).toBe("processing");
  const posts = () => f!.sim.attempts().filter((a) => !a.isRival).length;
  const postsWhileEnabled = posts();
  expect(postsWhileEnabled).toBeGreaterThanOrEqual(1);
  const maria = await f.user("maria");
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));
  f.sim.setFaults({ down: false });
  const fx = f;
  await f.stepUntil(async () => (await latestRequest(fx)).status !== "processing", 50);
  expect(await latestRequest(f)).toMatchObject({ status: "failed", reasonKey: "bookings.reason.member_disabled" });
  expect(posts()).toBe(postsWhileEnabled);
  expect(f.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(0);
});

test("the member's Bookings page and the admin's user list show a held request; the reason is reworded by the UI text", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const maria = await f.user("maria");
  const cookie = await f.t.signIn("maria", "demo1234");
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE - 1);
  const [held] = await f.t.deps.database.db.select().from(bookingRequests);
  expect(held.status).toBe("held");

  // The member's page (read as the member would once enabled; the row is what the API answers).
  await f.t.deps.database.db.update(users).set({ status: "active" }).where(eq(users.id, maria.id));
  const listed = await (await f.t.call("GET", "/v1/my/requests", { cookie })).json();
  expect(listed).toEqual([
    expect.objectContaining({ id: held.id, status: "On hold", reasonKey: "bookings.reason.member_held", failureReason: expect.stringContaining("disabled") }),
  ]);
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));

  const admin = await f.t.signIn("admin", ADMIN_PASSWORD);
  const usersList: { username: string; heldRequests: number }[] = await (await f.t.call("GET", "/v1/admin/users", { cookie: admin })).json();
  expect(usersList.find((u) => u.username === "maria")?.heldRequests).toBe(1);
  expect(usersList.find((u) => u.username === "jose")?.heldRequests).toBe(0);

  // Past the release while still disabled: failed, and the text is the admin's wording.
  await f.t.deps.database.db
    .insert(uiText)
    .values({ key: "bookings.reason.member_disabled", value: "Account off on {date}." })
    .onConflictDoUpdate({ target: uiText.key, set: { value: "Account off on {date}." } });
  await f.moveTo(RELEASE + 1000);
  await f.t.deps.database.db.update(users).set({ status: "active" }).where(eq(users.id, maria.id));
  const after = await (await f.t.call("GET", "/v1/my/requests", { cookie })).json();
  expect(after).toEqual([
    expect.objectContaining({ status: "Failed", failureReason: `Account off on ${PLAY}.`, reasonKey: "bookings.reason.member_disabled", reasonContext: { date: PLAY } }),
  ]);
});

test("attempt answers are stored as keys with their context and rendered from the UI text an admin edited", async () => {
  f = await startReleaseFixture();
  f.sim.setSlotStatus(PLAY, "masters", "06:00", "BOOKED");
  await f.submit("maria", submission(PLAY, ["06:00", "06:08"]));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE);
  const request = await latestRequest(f);
  expect(request.status).toBe("confirmed");
  const stored = await f.attempts(request.id);
  expect(stored.map((a) => [a.outcome, a.answerKey, a.answerContext])).toEqual([
    ["slot_taken", "bookings.reason.club_refused", { message: stored[0].answer! }],
    ["confirmed", "bookings.reason.booked", { ref: request.bookingRef! }],
  ]);
  expect(stored[1].answer).toBe(`Booked, reference ${request.bookingRef}.`);
  // A confirmed request is not listed; the rendering is the same function for both lists, so a failed one shows it.
  f.sim.setSlotStatus(PLAY, "masters", "06:16", "BOOKED");
  await f.t.deps.database.db
    .insert(uiText)
    .values({ key: "bookings.reason.club_refused", value: "Club: {message}" })
    .onConflictDoUpdate({ target: uiText.key, set: { value: "Club: {message}" } });
  await f.submit("maria", submission(PLAY, ["06:16"]));
  const fx = f;
  await f.stepUntil(async () => (await latestRequest(fx)).status === "failed");
  const cookie = await f.t.signIn("maria", "demo1234");
  const [listed] = await (await f.t.call("GET", "/v1/my/requests", { cookie })).json();
  expect(listed.attempts).toEqual([expect.objectContaining({ outcome: "slot_taken", answerKey: "bookings.reason.club_refused", answer: expect.stringMatching(/^Club: /) })]);
});

test("a request a stop left processing is not resumed for a member disabled meanwhile", async () => {
  f = await startReleaseFixture({ startEngine: false });
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const request = await latestRequest(f);
  await f.clock.set(RELEASE + 1000);
  const maria = await f.user("maria");
  await f.t.deps.database.db.update(bookingRequests).set({ status: "processing" }).where(eq(bookingRequests.id, request.id));
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));
  await f.engine.start();
  await f.engine.idle();
  expect(await latestRequest(f)).toMatchObject({ status: "failed", reasonKey: "bookings.reason.member_disabled" });
  expect(f.sim.attempts().filter((a) => !a.isRival)).toHaveLength(0);
});

test("a club reference issued again to another member: each member's booking stays theirs, found by member and reference", async () => {
  f = await startReleaseFixture({ startEngine: false });
  const db = f.t.deps.database.db;
  const maria = await f.user("maria");
  const ana = await f.user("ana");
  // Maria's request was booked under SWB-100100; the club, restarted from its seed, issues that
  // reference again, to Ana.
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const mariaRequest = await latestRequest(f);
  expect(await confirmRequest(f.t.deps.database, { request: mariaRequest, attemptId: null, time: "06:00", ref: "SWB-100100", durationMs: null, now: f.clock.now() })).toMatchObject(
    { type: "booking_confirmed" },
  );
  const mariaBooking = (await f.bookingsOf("maria"))[0]!;
  await f.submit(
    "ana",
    submission(PLAY, ["06:08"], "masters", [
      { type: "Guest", firstName: "Gina", lastName: "Guest", cartType: { "Rental Cart - Solo": true }, chargeFeesTo: { [GUEST_FEE_CHOICES[0]]: true } },
    ]),
  );
  const anaRequest = await latestRequest(f);
  expect(await confirmRequest(f.t.deps.database, { request: anaRequest, attemptId: null, time: "06:08", ref: "SWB-100100", durationMs: null, now: f.clock.now() })).toMatchObject({
    type: "booking_confirmed",
  });

  // Maria's row is untouched: her players, her request, her time.
  expect(await f.bookingsOf("maria")).toEqual([mariaBooking]);
  const [anaBooking] = await f.bookingsOf("ana");
  expect(anaBooking).toMatchObject({ userId: ana.id, bookingRef: "SWB-100100", time: "06:08", requestId: anaRequest.id });
  expect(anaBooking!.players.map((p) => p.lastName)).toEqual(["Cruz", "Guest"]);

  // An edit's booking, a watch's and the sync's copy under the same reference are each member's own.
  await recordBooking(db, { userId: ana.id, bookingRef: "SWB-100100", courseId: "masters", playDate: PLAY, time: "06:08", players: [], requestId: null, createdAt: f.clock.now() });
  expect(await f.bookingsOf("maria")).toEqual([mariaBooking]);
  // A reconcile for one member never counts another member's reference as already held.
  expect(await knownBookingRefs(db, ana.id, ["SWB-100100", "SWB-1"])).toEqual(new Set(["SWB-100100"]));
  expect(await knownBookingRefs(db, maria.id, ["SWB-100100"])).toEqual(new Set(["SWB-100100"]));
  const jose = await f.user("jose");
  expect(await knownBookingRefs(db, jose.id, ["SWB-100100"])).toEqual(new Set());
  expect(await claimedBookingRefs(db, jose.id, ["SWB-100100"])).toEqual(new Set());
  // Cancelling Ana's booking leaves Maria's.
  await removeBookingByRef(db, ana.id, "SWB-100100");
  expect(await f.bookingsOf("maria")).toEqual([mariaBooking]);
  expect(await db.select().from(bookings).where(eq(bookings.bookingRef, "SWB-100100"))).toHaveLength(1);
});
