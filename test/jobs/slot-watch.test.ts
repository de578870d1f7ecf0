/**
 * Slot watches end to end against the demo club in process (its clock is our fake one): a freed
 * slot goes to the earliest watcher only, "tell me only" books nothing, an upgrade leaves exactly
 * one booking, a watch past its date ends, and a crash while a watch is booking books at most once.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookings, mailOutbox, slotWatches, watchAttempts } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { createSlotWatch } from "../../src/jobs/slot-watch.ts";
import { watchesResponseSchema } from "../../src/features/watches/watches.schemas.ts";
import { requestStoryResponseSchema, type RequestStory } from "../../src/features/bookings/bookings-responses.schemas.ts";
import type { MemberSessions } from "../../src/club/member-sessions.ts";
import { recordBooking } from "../../src/lifecycle/booking-records.ts";
import { GUEST_FEE_CHOICES } from "../../src/club-sim/demo-data.ts";
import { startReleaseFixture, type ReleaseFixture } from "./release-engine.fixture.ts";

/** A Monday, open at the club since its release a week before (the fixture's now is 2026-11-22 09:00 Manila). */
const PLAY = "2026-11-23";
/** Masters' morning tee times 06:00, 06:08 fall in the watched range. */
const RANGE = { fromTime: "06:00", toTime: "06:10" };
const EMAIL = { maria: "maria@southwoods.demo", jose: "jose@southwoods.demo", ana: "ana@southwoods.demo" };

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

function watchBody(overrides: Record<string, unknown> = {}) {
  return { course: "masters", targetDate: PLAY, memberCartType: "Rental Cart - Solo", playerDetails: { players: [] }, ...RANGE, mode: "book", ...overrides };
}

async function start(): Promise<ReleaseFixture> {
  const fx = await startReleaseFixture({ startEngine: false });
  // Every slot of the range is taken before anyone watches.
  fx.sim.setSlotStatus(PLAY, "masters", "06:00", "BOOKED");
  fx.sim.setSlotStatus(PLAY, "masters", "06:08", "BOOKED");
  return fx;
}

async function watch(fx: ReleaseFixture, username: "maria" | "jose" | "ana", overrides: Record<string, unknown> = {}) {
  const cookie = await fx.t.signIn(username, "demo1234");
  const res = await fx.t.call("POST", "/v1/my/watches", { cookie, body: watchBody(overrides) });
  const body = (await res.json()) as { watch: { id: number } };
  expect(res.status).toBe(201);
  return { id: body.watch.id, cookie };
}

const watchRow = async (fx: ReleaseFixture, id: number) => (await fx.t.deps.database.db.select().from(slotWatches).where(eq(slotWatches.id, id)))[0];
const clubPostsOf = (fx: ReleaseFixture, email: string) => fx.sim.attempts().filter((a) => !a.isRival && a.email === email);

/** Moves past the poll interval (60 s by default) and runs one pass of the watch. */
async function nextPoll(fx: ReleaseFixture) {
  await fx.clock.advance(61_000);
  await fx.t.deps.slotWatch.pass();
}

/** The status messages a member was sent since `from`: what their screens reloaded. */
const statusesTo = (fx: ReleaseFixture, userId: number, from: number) =>
  fx.t.published
    .slice(from)
    .filter((p) => p.topic === `user:${userId}` && p.message.type === "status")
    .map((p) => p.message);

describe("slot watch against the demo club", () => {
  test("a freed slot is booked for the earliest watcher only; the later one keeps watching", async () => {
    f = await start();
    const maria = await watch(f, "maria");
    await f.clock.advance(1000);
    const jose = await watch(f, "jose");
    await f.t.deps.slotWatch.pass();
    expect(clubPostsOf(f, EMAIL.maria)).toHaveLength(0);

    expect(f.sim.freeSlot(PLAY, "masters", "06:08")).toBeNull();
    const beforeBooked = f.t.published.length;
    await nextPoll(f);

    const clubMaria = f.sim.bookingsOf(EMAIL.maria);
    expect(clubMaria.map((b) => [b.date, b.courseId, b.time])).toEqual([[PLAY, "masters", "06:08"]]);
    expect(f.sim.bookingsOf(EMAIL.jose)).toHaveLength(0);
    expect(clubPostsOf(f, EMAIL.jose)).toHaveLength(0);
    expect(await watchRow(f, maria.id)).toMatchObject({ status: "booked", bookingRef: clubMaria[0].ref, foundTime: "06:08" });
    expect((await watchRow(f, jose.id)).status).toBe("watching");
    const [booking] = await f.bookingsOf("maria");
    expect(booking).toMatchObject({ bookingRef: clubMaria[0].ref, playDate: PLAY, time: "06:08", courseId: "masters" });
    const mariaUser = await f.user("maria");
    const told = f.t.published.filter((p) => p.topic === `user:${mariaUser.id}`).map((p) => p.message);
    expect(told).toContainEqual(expect.objectContaining({ type: "toast", toast: expect.objectContaining({ kind: "success", textKey: "notifications.text.watch_booked" }) }));
    // Told once: one message names all the booking changed, the notification it left among them.
    await f.t.deps.notifier.settled?.();
    expect(statusesTo(f, mariaUser.id, beforeBooked)).toEqual([{ type: "status", status: "updated", changed: ["my.watches", "my.bookings", "my.notifications"] }]);

    // The list shows the state and what was tried.
    const list = (await (await f.t.call("GET", "/v1/my/watches", { cookie: maria.cookie })).json()) as {
      status: string;
      tried: { time: string; outcome: string }[];
      reason: string;
    }[];
    expect(list).toHaveLength(1);
    // What the web app reads passes the schema it checks it with.
    expect(watchesResponseSchema.safeParse(list).success).toBe(true);
    expect(list[0].status).toBe("booked");
    expect(list[0].tried).toEqual([expect.objectContaining({ time: "06:08", outcome: "confirmed" })]);
    expect(list[0].reason).toContain(clubMaria[0].ref);

    // "How this was booked" on that booking tells the watch and the posts it made.
    const story = (await (await f.t.call("GET", `/v1/my/bookings/${clubMaria[0].ref}/story`, { cookie: maria.cookie })).json()) as RequestStory;
    expect(requestStoryResponseSchema.safeParse(story).success).toBe(true);
    expect(story.request).toBeNull();
    expect(story.watch).toMatchObject({ id: maria.id, playDate: PLAY, course: "masters", fromTime: "06:00", toTime: "06:10" });
    expect(story.watch?.attempts).toEqual([
      expect.objectContaining({
        course: "masters",
        time: "06:08",
        outcome: "confirmed",
        answerKey: "watches.reason.booked",
        answer: `Booked Masters at 06:08 (${clubMaria[0].ref}).`,
      }),
    ]);
    // Another member's reference is not theirs to read.
    expect((await f.t.call("GET", `/v1/my/bookings/${clubMaria[0].ref}/story`, { cookie: jose.cookie })).status).toBe(404);

    // The next slot freed goes to the next watcher.
    f.sim.freeSlot(PLAY, "masters", "06:00");
    await nextPoll(f);
    expect(f.sim.bookingsOf(EMAIL.jose).map((b) => b.time)).toEqual(["06:00"]);
    expect(f.sim.bookingsOf(EMAIL.maria)).toHaveLength(1);
  });

  test("'tell me only' books nothing and tells the member what came free", async () => {
    f = await start();
    const ana = await watch(f, "ana", { mode: "notify" });
    f.sim.freeSlot(PLAY, "masters", "06:00");
    const beforeFound = f.t.published.length;
    await nextPoll(f);
    expect(clubPostsOf(f, EMAIL.ana)).toHaveLength(0);
    expect(f.sim.bookingsOf(EMAIL.ana)).toHaveLength(0);
    expect(f.sim.slotStatus(PLAY, "masters", "06:00")).toBe("AVAILABLE");
    expect(await watchRow(f, ana.id)).toMatchObject({ status: "found", foundTime: "06:00", foundCourseId: "masters", bookingRef: null });
    expect(await f.bookingsOf("ana")).toHaveLength(0);
    const anaUser = await f.user("ana");
    const told = f.t.published.filter((p) => p.topic === `user:${anaUser.id}`).map((p) => p.message);
    expect(told).toContainEqual(
      expect.objectContaining({
        type: "toast",
        toast: expect.objectContaining({ textKey: "notifications.text.watch_found", context: expect.objectContaining({ time: "06:00" }) }),
      }),
    );
    await f.t.deps.notifier.settled?.();
    expect(statusesTo(f, anaUser.id, beforeFound)).toEqual([{ type: "status", status: "updated", changed: ["my.watches", "my.notifications"] }]);
  });

  test("a new watch that finds the same free slot again is told again: a notification and an email each time", async () => {
    f = await start();
    const first = await watch(f, "ana", { mode: "notify" });
    f.sim.freeSlot(PLAY, "masters", "06:00");
    await nextPoll(f);
    expect((await watchRow(f, first.id)).status).toBe("found");
    await f.t.deps.notifier.settled?.();
    // The slot is still free: Ana makes a new watch for the same range, and it finds it too.
    const second = await watch(f, "ana", { mode: "notify" });
    await nextPoll(f);
    expect((await watchRow(f, second.id)).status).toBe("found");
    await f.t.deps.notifier.settled?.();
    const listed = (await (await f.t.call("GET", "/v1/my/notifications", { cookie: first.cookie })).json()) as { items: { kind: string; text: string }[] };
    expect(listed.items.filter((n) => n.kind === "watch_found")).toHaveLength(2);
    const anaUser = await f.user("ana");
    const mails = await f.t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, anaUser.id));
    expect(mails).toHaveLength(2);
    // The same find raised again is still one.
    f.t.deps.notifier.publish({ type: "watch_found", userId: anaUser.id, watchId: second.id, course: "Masters", date: PLAY, time: "06:00" });
    await f.t.deps.notifier.settled?.();
    expect(await f.t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, anaUser.id))).toHaveLength(2);
  });

  test("an upgrade books the better time first and then cancels the old booking: exactly one booking", async () => {
    f = await start();
    const mariaUser = await f.user("maria");
    const session = await f.t.deps.sessions.forMember(mariaUser.id);
    const slot = (await session.fetchTeeSheet(PLAY, "masters")).slots.find((s) => s.time === "07:04" && s.status === "AVAILABLE");
    expect(slot).toBeDefined();
    const old = await session.book({
      date: PLAY,
      course: "masters",
      slotId: slot!.slotId!,
      time: "07:04",
      players: [{ type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001", cart: "Rental Cart - Solo", fee: "Charge to my account" }],
    });
    await recordBooking(f.t.deps.database.db, {
      userId: mariaUser.id,
      bookingRef: old.ref,
      courseId: "masters",
      playDate: PLAY,
      time: "07:04",
      players: [],
      requestId: null,
      createdAt: f.clock.now(),
    });

    for (const time of ["06:16", "06:24", "06:32", "06:40", "06:48", "06:56"]) f.sim.setSlotStatus(PLAY, "masters", time, "BOOKED");
    const upgrade = await watch(f, "maria", { upgradeBookingId: old.ref, fromTime: "06:00", toTime: "07:10" });
    // 07:04 is in the range but is the booking it replaces: never "found".
    await f.t.deps.slotWatch.pass();
    expect((await watchRow(f, upgrade.id)).status).toBe("watching");

    f.sim.freeSlot(PLAY, "masters", "06:08");
    await nextPoll(f);
    const atClub = f.sim.bookingsOf(EMAIL.maria);
    expect(atClub.map((b) => b.time)).toEqual(["06:08"]);
    const ours = await f.bookingsOf("maria");
    expect(ours.map((b) => [b.time, b.bookingRef])).toEqual([["06:08", atClub[0].ref]]);
    expect(f.sim.slotStatus(PLAY, "masters", "07:04")).toBe("AVAILABLE");
    expect(await watchRow(f, upgrade.id)).toMatchObject({ status: "booked", bookingRef: atClub[0].ref });
  });

  test("an upgrade must name the member's own booking on that date, and cannot be 'tell me only'", async () => {
    f = await start();
    const cookie = await f.t.signIn("maria", "demo1234");
    const unknown = await f.t.call("POST", "/v1/my/watches", { cookie, body: watchBody({ upgradeBookingId: "SWB-1" }) });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ errorKey: "watches.error.upgrade_booking" });
    const notify = await f.t.call("POST", "/v1/my/watches", { cookie, body: watchBody({ upgradeBookingId: "SWB-1", mode: "notify" }) });
    expect(await notify.json()).toMatchObject({ errorKey: "watches.error.upgrade_notify" });
  });

  test("a watch past its date ends and posts nothing", async () => {
    f = await start();
    const maria = await watch(f, "maria");
    await f.clock.set(manilaInstant("2026-11-24", "06:00"));
    f.sim.freeSlot(PLAY, "masters", "06:08");
    await f.t.deps.slotWatch.pass();
    expect(await watchRow(f, maria.id)).toMatchObject({ status: "ended", reasonKey: "watches.reason.date_passed" });
    expect(clubPostsOf(f, EMAIL.maria)).toHaveLength(0);
    const list = (await (await f.t.call("GET", "/v1/my/watches", { cookie: maria.cookie })).json()) as { status: string; reason: string }[];
    expect(list[0]).toMatchObject({ status: "ended", reason: "The date has passed." });
  });

  test("a crash while a watch is booking books at most once: the restart reconciles before posting", async () => {
    f = await start();
    const maria = await watch(f, "maria");
    const deps = f.t.deps;
    // The post reaches the club (which books it), and Teebox dies before reading the answer.
    let postLeft!: () => void;
    const left = new Promise<void>((resolve) => (postLeft = resolve));
    const dying: MemberSessions = {
      hasLogin: (id) => deps.sessions.hasLogin(id),
      async forMember(id) {
        const session = await deps.sessions.forMember(id);
        return Object.assign(Object.create(session), {
          book: async (input: Parameters<typeof session.book>[0]) => {
            await session.book(input);
            postLeft();
            return new Promise<never>(() => undefined);
          },
        });
      },
    };
    const doomed = createSlotWatch({ ...deps, sessions: dying });
    f.sim.freeSlot(PLAY, "masters", "06:08");
    await f.clock.advance(61_000);
    void doomed.pass();
    await left;
    const [sent] = await deps.database.db.select().from(watchAttempts).where(eq(watchAttempts.watchId, maria.id));
    expect(sent).toMatchObject({ state: "sent", time: "06:08" });
    expect(f.sim.bookingsOf(EMAIL.maria)).toHaveLength(1);

    // Another slot comes free before the restart: nothing may be posted until the club was read.
    f.sim.freeSlot(PLAY, "masters", "06:00");
    const restarted = createSlotWatch(deps);
    restarted.start();
    await restarted.pass();
    await f.clock.advance(61_000);
    await restarted.pass();
    await restarted.stop();

    const atClub = f.sim.bookingsOf(EMAIL.maria);
    expect(atClub.map((b) => b.time)).toEqual(["06:08"]);
    expect(clubPostsOf(f, EMAIL.maria)).toHaveLength(1);
    expect(await watchRow(f, maria.id)).toMatchObject({ status: "booked", bookingRef: atClub[0].ref });
    const ours = await deps.database.db.select().from(bookings).where(eq(bookings.bookingRef, atClub[0].ref));
    expect(ours).toHaveLength(1);
    const [settled] = await deps.database.db.select().from(watchAttempts).where(eq(watchAttempts.watchId, maria.id));
    expect(settled).toMatchObject({ state: "answered", outcome: "confirmed" });
  });
});

describe("who may post", () => {
  test("a disabled member's watch and a member whose request is being released post nothing; the next watcher gets the slot", async () => {
    f = await start();
    const { users, bookingRequests } = await import("../../src/db/schema.ts");
    const db = f.t.deps.database.db;
    const maria = await watch(f, "maria");
    await f.clock.advance(1000);
    const jose = await watch(f, "jose");
    await f.clock.advance(1000);
    const ana = await watch(f, "ana");
    const mariaUser = await f.user("maria");
    await db.update(users).set({ status: "disabled" }).where(eq(users.id, mariaUser.id));
    // Jose has a request the engine is posting right now.
    const joseUser = await f.user("jose");
    await db.insert(bookingRequests).values({
      userId: joseUser.id,
      courseId: "masters",
      playDate: "2026-11-30",
      selection: [{ time: "06:00", slotId: null }],
      players: [],
      status: "processing",
      releaseAt: f.clock.now(),
      submittedAt: f.clock.now(),
      updatedAt: f.clock.now(),
    });
    f.sim.freeSlot(PLAY, "masters", "06:08");
    await nextPoll(f);
    expect(clubPostsOf(f, EMAIL.maria)).toHaveLength(0);
    expect(clubPostsOf(f, EMAIL.jose)).toHaveLength(0);
    expect(f.sim.bookingsOf(EMAIL.ana).map((b) => b.time)).toEqual(["06:08"]);
    expect((await watchRow(f, maria.id)).status).toBe("watching");
    expect((await watchRow(f, jose.id)).status).toBe("watching");
    expect((await watchRow(f, ana.id)).status).toBe("booked");
  });
});

describe("making a watch", () => {
  test("booking rules are checked as for a request, and members have a bounded number of watches", async () => {
    f = await start();
    const cookie = await f.t.signIn("maria", "demo1234");
    const post = (body: Record<string, unknown>) => f!.t.call("POST", "/v1/my/watches", { cookie, body: watchBody(body) });
    const backwards = await post({ fromTime: "08:00", toTime: "07:00" });
    expect(backwards.status).toBe(400);
    expect(await backwards.json()).toMatchObject({ errorKey: "watches.error.bad_range" });
    const instant = await post({ fromTime: "13:00", toTime: "13:00" });
    expect(instant.status).toBe(400);
    expect(await instant.json()).toMatchObject({ errorKey: "watches.error.bad_range" });
    const unknownCourse = await post({ course: "nowhere" });
    expect(await unknownCourse.json()).toMatchObject({ errorKey: "booking.unknown_course" });
    const tooMany = await post({
      playerDetails: {
        players: Array.from({ length: 4 }, (_, i) => ({
          type: "Guest",
          firstName: "G",
          lastName: `Guest ${i}`,
          cartType: { "Rental Cart - Solo": true },
          chargeFeesTo: { [GUEST_FEE_CHOICES[0]]: true },
        })),
      },
    });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ errorKey: "booking.max_players" });
    const badMode = await post({ mode: "maybe" });
    expect(badMode.status).toBe(400);

    for (const [from, to] of [
      ["06:00", "06:10"],
      ["06:10", "06:30"],
      ["06:30", "06:50"],
    ])
      expect((await post({ fromTime: from, toTime: to })).status).toBe(201);
    const fourth = await post({ fromTime: "07:00", toTime: "07:30" });
    expect(fourth.status).toBe(400);
    expect(await fourth.json()).toMatchObject({ errorKey: "watches.error.too_many", message: "You can have at most 3 active watches." });
    const again = await post({});
    expect(again.status).toBe(400);

    // Cancelling frees a place; another member's watch cannot be cancelled.
    const list = (await (await f.t.call("GET", "/v1/my/watches", { cookie })).json()) as { id: number }[];
    const jose = await f.t.signIn("jose", "demo1234");
    const foreign = await f.t.call("POST", `/v1/my/watches/${list[0].id}/cancel`, { cookie: jose });
    expect(foreign.status).toBe(404);
    expect((await f.t.call("POST", `/v1/my/watches/${list[0].id}/cancel`, { cookie })).status).toBe(204);
    expect((await f.t.call("POST", `/v1/my/watches/${list[0].id}/cancel`, { cookie })).status).toBe(409);
    expect((await post({ fromTime: "07:00", toTime: "07:30" })).status).toBe(201);
    const unsigned = await f.t.call("GET", "/v1/my/watches");
    expect(unsigned.status).toBe(401);
  });
});

describe("finding freed slots", () => {
  test("a slot the scraper stored as free is booked without waiting for the next poll; the club is polled at most once per interval", async () => {
    f = await start();
    const { teeTimeSlots } = await import("../../src/db/schema.ts");
    const maria = await watch(f, "maria");
    await f.t.deps.slotWatch.pass();
    expect(await f.t.deps.slotWatch.stats()).toMatchObject({ activeWatches: 1, pollsPerMinute: 1, pollSeconds: 60 });
    // Within the poll interval: no second read of the club's sheet.
    await f.clock.advance(10_000);
    await f.t.deps.slotWatch.pass();
    expect((await f.t.deps.slotWatch.stats()).pollsPerMinute).toBe(1);

    f.sim.freeSlot(PLAY, "masters", "06:00");
    await f.t.deps.database.db
      .insert(teeTimeSlots)
      .values({ date: PLAY, courseId: "masters", time: "06:00", status: "AVAILABLE", slotId: "MAS-20261123-0600", scrapedAt: f.clock.now() });
    await f.clock.advance(5_000);
    await f.t.deps.slotWatch.pass();
    expect((await f.t.deps.slotWatch.stats()).pollsPerMinute).toBe(1);
    expect(f.sim.bookingsOf(EMAIL.maria).map((b) => b.time)).toEqual(["06:00"]);
    expect((await watchRow(f, maria.id)).status).toBe("booked");
    expect((await f.t.deps.slotWatch.stats()).activeWatches).toBe(0);
  });

  test("a stored free slot that is in fact taken is tried once, then left until a newer sheet shows it free", async () => {
    f = await start();
    const { teeTimeSlots } = await import("../../src/db/schema.ts");
    const maria = await watch(f, "maria");
    await f.t.deps.slotWatch.pass();
    // The scraper read the sheet after our poll, and got it wrong (or the slot went again since).
    await f.clock.advance(1000);
    await f.t.deps.database.db
      .insert(teeTimeSlots)
      .values({ date: PLAY, courseId: "masters", time: "06:08", status: "AVAILABLE", slotId: "MAS-20261123-0608", scrapedAt: f.clock.now() });
    await f.t.deps.slotWatch.pass();
    await f.clock.advance(5_000);
    await f.t.deps.slotWatch.pass();
    const posts = clubPostsOf(f, EMAIL.maria);
    expect(posts.map((p) => [p.time, p.outcome])).toEqual([["06:08", "slot_taken"]]);
    const list = (await (await f.t.call("GET", "/v1/my/watches", { cookie: maria.cookie })).json()) as { status: string; tried: { time: string; outcome: string }[] }[];
    expect(list[0]).toMatchObject({ status: "watching", tried: [{ time: "06:08", outcome: "slot_taken" }] });
  });
});

describe("the running watch", () => {
  test("started, it polls each watched sheet once per interval and books a freed slot within one interval", async () => {
    f = await start();
    const { writeSettings, readSettings } = await import("../../src/services/settings.service.ts");
    const db = f.t.deps.database.db;
    await writeSettings(db, { ...(await readSettings(db)), watch_poll_seconds: 15 });
    const maria = await watch(f, "maria");
    const waitUntil = async (what: () => Promise<boolean>) => {
      for (let i = 0; i < 500 && !(await what()); i++) await Bun.sleep(10);
      expect(await what()).toBe(true);
    };
    f.t.deps.slotWatch.start();
    await waitUntil(async () => (await f!.t.deps.slotWatch.stats()).pollsPerMinute === 1);
    f.sim.freeSlot(PLAY, "masters", "06:08");
    // Passes every 5 s read only the database: no second read of the club before 15 s.
    await f.clock.advance(5_000);
    await f.clock.advance(5_000);
    await f.clock.advance(4_000);
    await Bun.sleep(50);
    expect(f.sim.bookingsOf(EMAIL.maria)).toHaveLength(0);
    expect((await f.t.deps.slotWatch.stats()).pollsPerMinute).toBe(1);
    await f.clock.advance(1_000);
    await waitUntil(async () => (await watchRow(f!, maria.id)).status === "booked");
    expect(f.sim.bookingsOf(EMAIL.maria).map((b) => b.time)).toEqual(["06:08"]);
    expect((await f.t.deps.slotWatch.stats()).pollsPerMinute).toBe(2);
    await f.t.deps.slotWatch.stop();
  });
});

describe("the watch at rest", () => {
  test("after the last watch ends, the running watch makes no pass sooner than its interval and leaves no sleeper behind", async () => {
    f = await start();
    const maria = await watch(f, "maria");
    f.t.deps.slotWatch.start();
    for (let i = 0; i < 500 && (await f.t.deps.slotWatch.stats()).pollsPerMinute === 0; i++) await Bun.sleep(5);
    expect((await f.t.deps.slotWatch.stats()).pollsPerMinute).toBe(1);
    expect((await f.t.call("POST", `/v1/my/watches/${maria.id}/cancel`, { cookie: maria.cookie })).status).toBe(204);
    // Past the poll interval (60 s), then a minute in one-second steps: the poll of a sheet nobody
    // watches any more must not fall due for ever and make every step a pass (each pass of any
    // shape ends in one sleep on the clock).
    const steps = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await f!.clock.advance(1_000);
        await Bun.sleep(1);
      }
    };
    await steps(65);
    const before = f.clock.sleepCalls;
    await steps(60);
    expect(f.clock.sleepCalls - before).toBeLessThanOrEqual(60 / 5 + 1);
    // One wait at a time: the loop never piles up sleepers on the clock.
    expect(f.clock.sleeperCount).toBeLessThanOrEqual(3);
    await f.t.deps.slotWatch.stop();
  });
});
