import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, bookings, teeTimeSlots, users } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { memberPlayer, startReleaseFixture, submission, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";
import { ADMIN_PASSWORD } from "../helpers/api.ts";

/** TEST_NOW is Sunday 2026-11-22 09:00 Manila; dates up to 2026-11-29 are already released. */
const PLAY = "2026-11-30";
const RELEASE = manilaInstant("2026-11-23", "07:00");
const OPEN_DATE = "2026-11-27";

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

async function act(fx: ReleaseFixture, username: string, action: string, payload: unknown): Promise<ServerMessage[]> {
  const member = await fx.user(username);
  const replies: ServerMessage[] = [];
  await fx.t.deps.hub.dispatch({ user: member, sessionId: "s" }, JSON.stringify({ action, payload }), (m) => replies.push(m));
  await fx.engine.idle();
  return replies;
}

const countRequests = async (fx: ReleaseFixture) => (await fx.t.deps.database.db.select().from(bookingRequests)).length;

describe("the windows an admin sets are the ones every check uses", () => {
  test("a DEFAULT window added and DEFAULT's end moved later: requests, watches and the readiness check on a DEFAULT course accept their times", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const admin = await f.t.signIn("admin", ADMIN_PASSWORD);
    // A course named neither Masters nor Legends plays its weekdays on the DEFAULT windows.
    expect((await f.t.call("POST", "/v1/admin/courses", { cookie: admin, body: { id: "champ", name: "Championship", days_active: [1, 2, 3, 4, 5, 6, 7] } })).status).toBe(201);
    expect((await f.t.call("POST", "/v1/admin/booking-windows", { cookie: admin, body: { rule_key: "DEFAULT", start_time: "02:00", end_time: "04:00" } })).status).toBe(201);
    const config = (await (await f.t.call("GET", "/v1/admin/full-config", { cookie: admin })).json()) as { bookingWindows: { id: number; rule_key: string; end_time: string }[] };
    const usual = config.bookingWindows.find((w) => w.rule_key === "DEFAULT" && w.end_time === "16:48")!;
    expect((await f.t.call("PUT", `/v1/admin/booking-windows/${usual.id}`, { cookie: admin, body: { rule_key: "DEFAULT", start_time: "05:04", end_time: "17:30" } })).status).toBe(
      200,
    );

    // PLAY is a Monday.
    for (const time of ["02:40", "03:12", "17:12", "09:04"]) {
      const [answer] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, [time], "champ"));
      expect({ time, answer }).toMatchObject({ time, answer: { type: "submissionResult", status: "pending" } });
    }
    const cookie = await f.t.signIn("jose", "demo1234");
    const watch = await f.t.call("POST", "/v1/my/watches", {
      cookie,
      body: { course: "champ", targetDate: PLAY, memberCartType: "Rental Cart - Solo", playerDetails: { players: [] }, fromTime: "02:00", toTime: "03:50", mode: "notify" },
    });
    expect(watch.status).toBe(201);
    const late = await f.t.call("POST", "/v1/my/watches", {
      cookie,
      body: { course: "champ", targetDate: PLAY, memberCartType: "Rental Cart - Solo", playerDetails: { players: [] }, fromTime: "17:00", toTime: "17:30", mode: "notify" },
    });
    expect(late.status).toBe(201);
    const check = await f.t.call("POST", "/v1/my/requests/check", { cookie: await f.t.signIn("maria", "demo1234") });
    expect(await check.json()).toEqual({ checked: 4, problems: 0 });
    // Masters keeps the SATURDAY_MASTERS windows every day, as the product's rule says: DEFAULT's new times are not its.
    expect(await act(f, "ana", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["02:40"], "masters"))).toEqual([
      expect.objectContaining({ type: "error", errorKey: "booking.time_outside_window" }),
    ]);
    // What the admin removes is refused again.
    expect((await f.t.call("PUT", `/v1/admin/booking-windows/${usual.id}`, { cookie: admin, body: { rule_key: "DEFAULT", start_time: "05:04", end_time: "16:48" } })).status).toBe(
      200,
    );
    expect(await act(f, "ana", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["17:04"], "champ"))).toEqual([
      expect.objectContaining({ type: "error", errorKey: "booking.time_outside_window" }),
    ]);
  });
});

describe("SUBMIT_BOOKING_REQUEST", () => {
  test("before the release instant: stored Pending, answered 'pending' with the release instant", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const [answer] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:08", "06:00"]));
    expect(answer).toEqual({ type: "submissionResult", status: "pending", details: { play_date: PLAY, course: "masters", time: "06:08", releaseAt: RELEASE } });
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(row).toMatchObject({
      status: "pending",
      releaseAt: RELEASE,
      playDate: PLAY,
      selection: [
        { time: "06:08", slotId: null },
        { time: "06:00", slotId: null },
      ],
    });
    expect(row.players[0]).toMatchObject({ type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001" });
  });

  test("at or after the release instant: processed at once and answered 'submitted'", async () => {
    f = await startReleaseFixture();
    const [answer] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, ["06:00"]));
    expect(answer).toMatchObject({ type: "submissionResult", status: "submitted", details: { play_date: OPEN_DATE, time: "06:00", releaseAt: null } });
    await f.engine.idle();
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(row.status).toBe("confirmed");
    expect(f.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(1);
  });

  test("after the release, asking every partner to accept when none could: held, and answered 'needs_attention' with the reason", async () => {
    f = await startReleaseFixture();
    const late = { ...submission(OPEN_DATE, ["06:00"], "masters", [memberPlayer("Reyes", "SW-1002")]), partnersMustAccept: true };
    const [answer] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", late);
    expect(answer).toEqual({
      type: "submissionResult",
      status: "needs_attention",
      details: { play_date: OPEN_DATE, course: "masters", time: "06:00", releaseAt: null },
      reason: { key: "partners.reason.not_accepted", context: { names: "Reyes" } },
    });
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(row).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.not_accepted" });
    expect(f.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(0);
  });

  test("a rule violation answers the product's message and stores nothing", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const guest = (first: string) => ({ type: "Guest", cartType: { Walking: true }, chargeFeesTo: { "Charge my guest": true }, firstName: first, lastName: "Guest" });
    const tooMany = submission(PLAY, ["06:00"], "masters", [guest("A"), guest("B"), guest("C"), guest("D")]);
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", tooMany)).toEqual([{ type: "error", message: "Maximum of 4 players allowed.", errorKey: "booking.max_players" }]);
    const self = { type: "Member", cartType: { Walking: true }, chargeFeesTo: { "Charge to their account": true }, searchLastName: "Santos", searchIdNumber: "sw-1001" };
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"], "masters", [self]))).toEqual([
      { type: "error", message: "You cannot add yourself as another player.", errorKey: "booking.add_self" },
    ]);
    // 2026-11-30 is a Monday: Legends is closed.
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"], "legends"))).toEqual([
      { type: "error", message: "This course is not open on that day.", errorKey: "booking.course_closed" },
    ]);
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, []))).toEqual([
      { type: "error", message: "Please complete all required fields.", errorKey: "booking.incomplete" },
    ]);
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["04:00"]))).toEqual([
      { type: "error", message: "The tee time 04:00 is outside the booking windows.", errorKey: "booking.time_outside_window" },
    ]);
    const [bad] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", { course: 3 });
    expect(bad).toMatchObject({ type: "error", message: "course must be text.", errorKey: "validation.expected_text" });
    expect(await countRequests(f)).toBe(0);
  });

  test("on a live date every time must be on the scraped sheet, with its slot id", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await f.t.deps.database.db.insert(teeTimeSlots).values([
      { date: OPEN_DATE, courseId: "masters", time: "06:00", status: "AVAILABLE", slotId: "MAS-20261127-0600", scrapedAt: 1 },
      { date: OPEN_DATE, courseId: "masters", time: "06:08", status: "AVAILABLE", slotId: "MAS-20261127-0608", scrapedAt: 1 },
    ]);
    const wrongId = { ...submission(OPEN_DATE, ["06:00"]), selectionOrder: [{ time: "06:00", slotId: "FORGED-1" }] };
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", wrongId)).toEqual([
      { type: "error", message: "The tee time 06:00 is not offered on that date.", errorKey: "bookings.error.unknown_slot" },
    ]);
    // 06:16 is on the estimated grid, but the club's live sheet for the date does not list it.
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, ["06:16"]))).toEqual([
      { type: "error", message: "The club has no tee time at 06:16 on that date. Choose one of the times it lists.", errorKey: "booking.time_not_on_sheet" },
    ]);
    expect(await countRequests(f)).toBe(0);
    const [ok] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, ["06:08"]));
    expect(ok).toMatchObject({ type: "submissionResult", status: "submitted" });
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(row.selection).toEqual([{ time: "06:08", slotId: "MAS-20261127-0608" }]);
  });

  test("without a live sheet, a time must be on the estimated grid of the windows", async () => {
    f = await startReleaseFixture({ startEngine: false });
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["05:05"]))).toEqual([
      { type: "error", message: "There is no tee time at 05:05. Choose one of the times offered for that date.", errorKey: "booking.time_not_on_grid" },
    ]);
    // A later preference off the grid is refused too: the engine must never ask the club for it.
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["05:04", "06:10"]))).toEqual([
      { type: "error", message: "There is no tee time at 06:10. Choose one of the times offered for that date.", errorKey: "booking.time_not_on_grid" },
    ]);
    expect(await countRequests(f)).toBe(0);
    const [ok] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["05:04", "06:00"]));
    expect(ok).toMatchObject({ type: "submissionResult", status: "pending" });
    // Editing the request through the socket is checked the same way.
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", { ...submission(PLAY, ["05:05"]), editTarget: row.id })).toEqual([
      { type: "error", message: "There is no tee time at 05:05. Choose one of the times offered for that date.", errorKey: "booking.time_not_on_grid" },
    ]);
    const [after] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(after.selection.map((s) => s.time)).toEqual(["05:04", "06:00"]);
  });

  test("a request Teebox could not settle is listed as needing attention with what to do, and can be cancelled or submitted again", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"]));
    await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:16"]));
    const [first, second] = (await f.t.deps.database.db.select().from(bookingRequests).orderBy(bookingRequests.id)).map((r) => r.id);
    await f.t.deps.database.db
      .update(bookingRequests)
      .set({ status: "needs_attention", reasonKey: "bookings.reason.could_not_tell", reasonContext: { date: PLAY, minutes: "10" } });
    const cookie = await f.t.signIn("maria", "demo1234");
    const listed = await (await f.t.call("GET", "/v1/my/requests", { cookie })).json();
    expect(listed.map((r: { status: string; phase: unknown }) => [r.status, r.phase])).toEqual([
      ["Needs attention", null],
      ["Needs attention", null],
    ]);
    expect(listed[0].failureReason).toStartWith(`Teebox could not tell whether the club booked ${PLAY}: its site could not be read for 10 minutes.`);
    expect(await act(f, "maria", "CANCEL_REQUEST", { id: first })).toEqual([{ type: "ack", action: "CANCEL_REQUEST" }]);
    const [edited] = await act(f, "maria", "SUBMIT_BOOKING_REQUEST", { ...submission(PLAY, ["06:24"]), editTarget: second });
    expect(edited).toMatchObject({ type: "submissionResult", status: "pending" });
    const rows = await f.t.deps.database.db.select().from(bookingRequests).orderBy(bookingRequests.id);
    expect(rows.map((r) => [r.status, r.reasonKey])).toEqual([
      ["cancelled", "bookings.reason.could_not_tell"],
      ["pending", null],
    ]);
  });

  test("a member without a club login is told to connect it", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const maria = await f.user("maria");
    await f.t.deps.database.db.update(users).set({ clubPasswordSealed: null }).where(eq(users.id, maria.id));
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"]))).toEqual([
      { type: "error", message: "Connect your club account in your profile first.", errorKey: "club.no_login" },
    ]);
  });

  test("editTarget must be the member's own pending request", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"]));
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(await act(f, "jose", "SUBMIT_BOOKING_REQUEST", { ...submission(PLAY, ["06:08"]), editTarget: row.id })).toEqual([
      { type: "error", message: "That request was not found.", errorKey: "bookings.error.request_not_found" },
    ]);
    await f.t.deps.database.db.update(bookingRequests).set({ status: "processing" }).where(eq(bookingRequests.id, row.id));
    expect(await act(f, "maria", "SUBMIT_BOOKING_REQUEST", { ...submission(PLAY, ["06:08"]), editTarget: row.id })).toEqual([
      { type: "error", message: "This request is being processed right now and can no longer be changed.", errorKey: "bookings.error.processing_edit" },
    ]);
    expect(await countRequests(f)).toBe(1);
  });
});

describe("GET /v1/my/requests and /v1/my/bookings", () => {
  test("a member sees their own requests with the attempt record, and their own bookings", async () => {
    f = await startReleaseFixture();
    f.sim.setSlotStatus(PLAY, "masters", "06:00", "BOOKED");
    await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00", "06:08"]));
    await act(
      f,
      "jose",
      "SUBMIT_BOOKING_REQUEST",
      submission(PLAY, ["06:16"], "masters", [
        { type: "Member", cartType: { Walking: true }, chargeFeesTo: { "Charge to their account": true }, searchLastName: "Nobody", searchIdNumber: "SW-4040" },
      ]),
    );
    await f.moveTo(RELEASE - 60_000);
    await f.moveTo(RELEASE);

    const mariaCookie = await f.t.signIn("maria", "demo1234");
    const joseCookie = await f.t.signIn("jose", "demo1234");
    const mariaRequests = await (await f.t.call("GET", "/v1/my/requests", { cookie: mariaCookie })).json();
    expect(mariaRequests).toEqual([]);
    const mariaBookings = await (await f.t.call("GET", "/v1/my/bookings", { cookie: mariaCookie })).json();
    expect(mariaBookings).toEqual([
      {
        bookingId: expect.stringMatching(/^SWB-/),
        course: "masters",
        date: PLAY,
        time: "06:08",
        createdAt: RELEASE,
        playersInfo: [{ name: "Maria Santos", type: "Member", id: "SW-1001", cart: "Rental Cart - Solo", fee: "Charge to my account" }],
      },
    ]);
    const joseRequests = await (await f.t.call("GET", "/v1/my/requests", { cookie: joseCookie })).json();
    expect(joseRequests).toHaveLength(1);
    expect(joseRequests[0]).toMatchObject({
      course: "masters",
      play_date: PLAY,
      times: ["06:16"],
      status: "Failed",
      release_at: RELEASE,
      failureReason: expect.stringContaining("Player not found"),
      latenessMs: 0,
      players: [
        { name: "Jose Reyes", type: "Member", memberId: "SW-1002" },
        { name: "Nobody", type: "Member", memberId: "SW-4040" },
      ],
      attempts: [
        {
          time: "06:16",
          firedAtClub: RELEASE,
          offsetFromReleaseMs: 0,
          outcome: "player_not_found",
          answer: expect.stringContaining("Player not found"),
          durationMs: expect.any(Number),
        },
      ],
    });
    expect(await (await f.t.call("GET", "/v1/my/bookings", { cookie: joseCookie })).json()).toEqual([]);
    expect((await f.t.call("GET", "/v1/my/requests")).status).toBe(401);
  });
});

describe("CANCEL_REQUEST", () => {
  test("a pending request is cancelled with a toast; another member's id and a processing one are refused", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await act(f, "maria", "SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"]));
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(await act(f, "jose", "CANCEL_REQUEST", { id: row.id })).toEqual([
      { type: "error", message: "That request was not found.", errorKey: "bookings.error.request_not_found" },
    ]);
    expect(await act(f, "maria", "CANCEL_REQUEST", { id: "x" })).toEqual([
      expect.objectContaining({ type: "error", message: "id must be a number.", errorKey: "validation.expected_number" }),
    ]);

    await f.t.deps.database.db.update(bookingRequests).set({ status: "processing" }).where(eq(bookingRequests.id, row.id));
    expect(await act(f, "maria", "CANCEL_REQUEST", { id: row.id })).toEqual([
      { type: "error", message: "This request is being processed right now and cannot be cancelled.", errorKey: "bookings.error.processing_cancel" },
    ]);
    await f.t.deps.database.db.update(bookingRequests).set({ status: "failed" }).where(eq(bookingRequests.id, row.id));
    const maria = await f.user("maria");
    const before = f.t.published.length;
    expect(await act(f, "maria", "CANCEL_REQUEST", { id: row.id })).toEqual([{ type: "ack", action: "CANCEL_REQUEST" }]);
    expect(f.t.published.slice(before)).toEqual([
      { topic: `user:${maria.id}`, message: { type: "toast", toast: { kind: "success", textKey: "bookings.toast.request_cancelled", message: "Request cancelled." } } },
      { topic: `user:${maria.id}`, message: { type: "status", status: "updated", changed: ["my.requests"] } },
    ]);
    const [after] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(after.status).toBe("cancelled");
  });
});

describe("confirmed bookings", () => {
  async function bookedFixture() {
    const fx = await startReleaseFixture();
    await act(fx, "maria", "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, ["06:00"]));
    const [booking] = await fx.t.deps.database.db.select().from(bookings);
    return { fx, booking };
  }

  test("CANCEL_CONFIRMED_BOOKING cancels at the club, then removes it; another member's id is not found", async () => {
    const { fx, booking } = await bookedFixture();
    f = fx;
    expect(await act(fx, "jose", "CANCEL_CONFIRMED_BOOKING", { bookingId: booking.bookingRef })).toEqual([
      { type: "error", message: "That booking was not found.", errorKey: "bookings.error.booking_not_found" },
    ]);
    expect(await act(fx, "maria", "CANCEL_CONFIRMED_BOOKING", {})).toEqual([
      expect.objectContaining({ type: "error", message: "bookingId is required.", errorKey: "validation.required" }),
    ]);
    expect(await act(fx, "maria", "CANCEL_CONFIRMED_BOOKING", { bookingId: booking.bookingRef })).toEqual([{ type: "ack", action: "CANCEL_CONFIRMED_BOOKING" }]);
    expect(fx.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(0);
    expect(await fx.t.deps.database.db.select().from(bookings)).toHaveLength(0);
    expect(fx.t.published.map((p) => p.message)).toContainEqual(
      expect.objectContaining({ type: "toast", toast: expect.objectContaining({ textKey: "bookings.toast.booking_cancelled" }) }),
    );
  });

  test("editing players only is an edit at the club", async () => {
    const { fx, booking } = await bookedFixture();
    f = fx;
    const cookie = await fx.t.signIn("maria", "demo1234");
    const garcia = { type: "Member", cartType: { Walking: true }, chargeFeesTo: { "Charge to their account": true }, searchLastName: "Garcia", searchIdNumber: "sw-1004" };
    const before = fx.t.published.length;
    const res = await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie, body: submission(OPEN_DATE, ["06:00"], "masters", [garcia]) });
    expect(res.status).toBe(200);
    const pushedByEdit = fx.t.published.slice(before);
    const body = await res.json();
    expect(body.booking).toMatchObject({ bookingId: booking.bookingRef, time: "06:00", playersInfo: [{ name: "Maria Santos" }, { name: "Garcia", id: "SW-1004" }] });
    const [atClub] = fx.sim.bookingsOf("maria@southwoods.demo");
    expect(atClub.players.map((p) => p.lastName)).toEqual(["Santos", "Garcia"]);
    // The member's open pages reload to show the new players, and the sync that follows keeps them.
    const mariaId = body.booking && (await fx.t.deps.database.db.select().from(bookings))[0].userId;
    expect(pushedByEdit).toContainEqual({ topic: `user:${mariaId}`, message: { type: "status", status: "updated", changed: ["my.bookings"] } });
    await fx.t.deps.bookingsSync.syncMember(mariaId);
    const listed = await (await fx.t.call("GET", "/v1/my/bookings", { cookie })).json();
    expect(listed[0].playersInfo.map((p: { name: string }) => p.name)).toEqual(["Maria Santos", "Garcia"]);
  });

  test("a guest added to a confirmed booking stays after the club is read again", async () => {
    const { fx, booking } = await bookedFixture();
    f = fx;
    const cookie = await fx.t.signIn("maria", "demo1234");
    const guest = { type: "Guest", cartType: { Walking: true }, chargeFeesTo: { "Charge my guest": true }, firstName: "Maria", lastName: "Clara" };
    const res = await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie, body: submission(OPEN_DATE, ["06:00"], "masters", [guest]) });
    expect(res.status).toBe(200);
    const [row] = await fx.t.deps.database.db.select().from(bookings);
    await fx.t.deps.bookingsSync.syncMember(row.userId);
    const listed = await (await fx.t.call("GET", "/v1/my/bookings", { cookie })).json();
    expect(listed[0].playersInfo.map((p: { name: string }) => p.name)).toEqual(["Maria Santos", "Maria Clara"]);
  });

  test("a new time books the new slot first, then cancels the old one", async () => {
    const { fx, booking } = await bookedFixture();
    f = fx;
    const cookie = await fx.t.signIn("maria", "demo1234");
    fx.sim.setSlotStatus(OPEN_DATE, "masters", "06:08", "BOOKED");
    const res = await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie, body: submission(OPEN_DATE, ["06:08", "06:16"]) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.booking).toMatchObject({ time: "06:16", date: OPEN_DATE });
    expect(body.booking.bookingId).not.toBe(booking.bookingRef);
    expect(fx.sim.bookingsOf("maria@southwoods.demo").map((b) => b.time)).toEqual(["06:16"]);
    expect((await fx.t.deps.database.db.select().from(bookings)).map((b) => b.time)).toEqual(["06:16"]);
    expect(fx.sim.slotStatus(OPEN_DATE, "masters", "06:00")).toBe("AVAILABLE");
  });

  test("when no new time is free the old booking is kept", async () => {
    const { fx, booking } = await bookedFixture();
    f = fx;
    const cookie = await fx.t.signIn("maria", "demo1234");
    fx.sim.setSlotStatus(OPEN_DATE, "masters", "06:08", "BOOKED");
    const res = await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie, body: submission(OPEN_DATE, ["06:08"]) });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: "None of the selected times is available; your booking is unchanged.", errorKey: "bookings.error.no_time_free" });
    expect(fx.sim.bookingsOf("maria@southwoods.demo").map((b) => b.ref)).toEqual([booking.bookingRef]);
  });

  test("an edit to a time that does not exist is refused before anything is sent to the club", async () => {
    const { fx, booking } = await bookedFixture();
    f = fx;
    const cookie = await fx.t.signIn("maria", "demo1234");
    const res = await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie, body: submission(OPEN_DATE, ["06:05"]) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "There is no tee time at 06:05. Choose one of the times offered for that date.", errorKey: "booking.time_not_on_grid" });
    expect(fx.sim.bookingsOf("maria@southwoods.demo").map((b) => b.ref)).toEqual([booking.bookingRef]);
  });

  test("another member's booking id answers 404; a bad payload 400", async () => {
    const { fx, booking } = await bookedFixture();
    f = fx;
    const jose = await fx.t.signIn("jose", "demo1234");
    const other = await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie: jose, body: submission(OPEN_DATE, ["06:00"]) });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: "That booking was not found.", errorKey: "bookings.error.booking_not_found" });
    const maria = await fx.t.signIn("maria", "demo1234");
    const bad = await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { cookie: maria, body: { course: "masters" } });
    expect(bad.status).toBe(400);
    expect((await fx.t.call("POST", `/v1/bookings/${booking.bookingRef}/edit`, { body: submission(OPEN_DATE, ["06:00"]) })).status).toBe(401);
  });
});
