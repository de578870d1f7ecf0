import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, requestAttempts, users } from "../../src/db/schema.ts";
import { NO_TIME_AVAILABLE } from "../../src/jobs/release-engine.ts";
import { NOT_YET_OPEN_SCHEDULE } from "../../src/attempt/policy.ts";
import { startReleaseFixture, submission, type ReleaseFixture, PLAY, RELEASE } from "./release-engine.fixture.ts";

/** A Monday: Masters runs, its morning tee times are 05:04 + 8 min steps (06:00, 06:08, 06:16 …). */
/** Seven days before at 07:00 Manila, on the club's clock. */

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const requestIdOf = async (fx: ReleaseFixture) =>
  (await fx.t.deps.database.db.select({ id: bookingRequests.id }).from(bookingRequests).orderBy(bookingRequests.id)).map((r) => r.id);
const clubPosts = (fx: ReleaseFixture, email?: string) => fx.sim.attempts().filter((a) => !a.isRival && (!email || a.email === email));

describe("firing at the release instant", () => {
  test("a pending request fires at the release instant on the club's clock, not a millisecond before", async () => {
    f = await startReleaseFixture({ clubOffsetMs: 1300 });
    const answer = await f.submit("maria", submission(PLAY, ["06:00", "06:08"]));
    expect(answer).toMatchObject({ type: "submissionResult", status: "pending", details: { play_date: PLAY, course: "masters", time: "06:00", releaseAt: RELEASE } });

    await f.moveTo(RELEASE - 1300 - 60_000);
    await f.moveTo(RELEASE - 1300 - 1000);
    const [id] = await requestIdOf(f);
    expect((await f.request(id)).status).toBe("pending");
    // Made ready just before the instant, but nothing leaves early.
    await f.moveTo(RELEASE - 1300 - 1);
    expect(clubPosts(f)).toHaveLength(0);
    expect((await f.request(id)).status).toBe("processing");

    await f.moveTo(RELEASE - 1300);
    const posts = clubPosts(f);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ time: "06:00", outcome: "confirmed", arrivedClubMs: RELEASE });
    const request = await f.request(id);
    expect(request).toMatchObject({ status: "confirmed", latenessMs: 0, bookingRef: posts[0].ref });
    const [booking] = await f.bookingsOf("maria");
    expect(booking).toMatchObject({ bookingRef: posts[0].ref, playDate: PLAY, time: "06:00", courseId: "masters", requestId: id });
    const maria = await f.user("maria");
    await f.t.deps.notifier.settled?.();
    const mine = f.t.published.filter((p) => p.topic === `user:${maria.id}`).map((p) => p.message);
    expect(mine).toContainEqual(expect.objectContaining({ type: "toast", toast: expect.objectContaining({ kind: "success", textKey: "bookings.toast.booked" }) }));
    // One message for the confirmation: the requests, the bookings and the notification it left.
    const statuses = mine.filter((m) => m.type === "status");
    expect(statuses.at(-1)).toEqual({ type: "status", status: "updated", changed: ["my.requests", "my.bookings", "my.notifications"] });
    expect(statuses.filter((m) => m.changed?.includes("my.bookings"))).toHaveLength(1);
  });

  test("for a distant club the first post leaves earlier by the measured way there, and no earlier (decision 191)", async () => {
    // The club is 1.3 s ahead; the probes found the offset ± 12 ms and a way out of at least 18 ms.
    f = await startReleaseFixture({ clubOffsetMs: 1300, engine: { measureOffset: async () => ({ offsetMs: 1300, uncertaintyMs: 12, sendAheadMs: 18 }) } });
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    const fireAt = RELEASE - 1300 + 12 - 18;
    await f.moveTo(RELEASE - 1300 - 60_000);
    await f.moveTo(fireAt - 1);
    expect(clubPosts(f)).toHaveLength(0);
    await f.moveTo(fireAt);
    expect((await f.attempts(id)).map((a) => a.firedAtLocal)).toEqual([fireAt]);
  });

  test("a taken first choice falls back to the next time at once", async () => {
    f = await startReleaseFixture();
    f.sim.setSlotStatus(PLAY, "masters", "06:00", "BOOKED");
    await f.submit("maria", submission(PLAY, ["06:00", "06:08", "06:16"]));
    await f.moveTo(RELEASE - 60_000);
    await f.moveTo(RELEASE);
    const [id] = await requestIdOf(f);
    const attempts = await f.attempts(id);
    expect(attempts.map((a) => [a.time, a.outcome])).toEqual([
      ["06:00", "slot_taken"],
      ["06:08", "confirmed"],
    ]);
    expect(attempts.every((a) => a.firedAtClub === RELEASE)).toBe(true);
    expect((await f.request(id)).status).toBe("confirmed");
  });

  describe("a time the club does not have fails that slot, never the member", () => {
    /** Requests stored before the club changed its grid: the submission check would refuse them now. */
    const setTimes = (fx: ReleaseFixture, id: number, selection: { time: string; slotId: string | null }[]) =>
      fx.t.deps.database.db.update(bookingRequests).set({ selection }).where(eq(bookingRequests.id, id));

    test("a predicted id for a missing time: the sheet is read once, then the next time is booked; nobody else posts for it", async () => {
      f = await startReleaseFixture();
      await f.submit("maria", submission(PLAY, ["06:00", "06:08"]));
      await f.submit("jose", submission(PLAY, ["06:16", "06:24"]));
      const [maria, jose] = await requestIdOf(f);
      await setTimes(f, maria, [
        { time: "06:05", slotId: null },
        { time: "06:08", slotId: null },
      ]);
      await setTimes(f, jose, [
        { time: "06:05", slotId: null },
        { time: "06:24", slotId: null },
      ]);
      await f.moveTo(RELEASE - 60_000);
      await f.moveTo(RELEASE);
      await f.stepUntil(async () => (await f!.request(jose)).status !== "processing", 10, 500);
      expect((await f.attempts(maria)).map((a) => [a.time, a.outcome])).toEqual([
        ["06:05", "no_such_time"],
        ["06:08", "confirmed"],
      ]);
      expect(await f.request(maria)).toMatchObject({ status: "confirmed", reasonKey: null });
      // The club's sheet has no 06:05: jose, next in line for it, never asks for it.
      expect(clubPosts(f, "jose@southwoods.demo").map((a) => a.time)).toEqual(["06:24"]);
      expect((await f.request(jose)).status).toBe("confirmed");
      expect(f.sim.bookingsOf("maria@southwoods.demo").map((b) => b.time)).toEqual(["06:08"]);
    });

    test("a stale live id: the sheet gives the real one; a time the sheet lacks is gone, and with none left no time was available (never a refusal)", async () => {
      f = await startReleaseFixture();
      await f.submit("maria", submission(PLAY, ["06:00", "06:08"]));
      await f.submit("jose", submission(PLAY, ["06:16"]));
      const [maria, jose] = await requestIdOf(f);
      await setTimes(f, maria, [
        { time: "06:00", slotId: "MAS-GONE-0600" },
        { time: "06:08", slotId: null },
      ]);
      await setTimes(f, jose, [{ time: "06:13", slotId: "MAS-GONE-0613" }]);
      await f.moveTo(RELEASE - 60_000);
      await f.moveTo(RELEASE);
      await f.stepUntil(async () => (await f!.request(jose)).status !== "processing", 10, 500);
      expect((await f.attempts(maria)).map((a) => [a.time, a.slotId, a.outcome])).toEqual([
        ["06:00", "MAS-GONE-0600", "no_such_time"],
        ["06:00", "MAS-20261130-0600", "confirmed"],
      ]);
      expect((await f.request(maria)).status).toBe("confirmed");
      expect((await f.attempts(jose)).map((a) => [a.time, a.outcome])).toEqual([["06:13", "no_such_time"]]);
      const failed = await f.request(jose);
      expect(failed).toMatchObject({ status: "failed", reasonKey: "bookings.reason.no_time_available", failureReason: NO_TIME_AVAILABLE });
      expect(f.sim.bookingsOf("jose@southwoods.demo")).toHaveLength(0);
    });
  });

  test("'not yet open' is tried again every few tens of milliseconds until the club opens", async () => {
    // The club's clock is 200 ms behind, but the engine believes it is in step: it fires early.
    f = await startReleaseFixture({ clubOffsetMs: -200, measuredOffsetMs: 0 });
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    await f.moveTo(RELEASE - 60_000);
    await f.moveTo(RELEASE);
    await f.stepUntil(async () => (await f!.request(id)).status === "confirmed", 10);
    const posts = clubPosts(f);
    expect(posts.filter((p) => p.outcome === "not_yet_open").length).toBeGreaterThanOrEqual(4);
    expect(posts.at(-1)).toMatchObject({ outcome: "confirmed" });
    expect(posts.at(-1)!.arrivedClubMs).toBeGreaterThanOrEqual(RELEASE);
    // The schedule's first pace (decision 147), never quicker.
    const gaps = posts.slice(1).map((p, i) => p.arrivedClubMs - posts[i].arrivedClubMs);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(NOT_YET_OPEN_SCHEDULE[0].everyMs);
  });

  test("a date the club never opens fails after a bounded while, with the reason", async () => {
    f = await startReleaseFixture({ clubOffsetMs: -3_600_000, measuredOffsetMs: 0, engine: { notYetOpenWindowMs: 400 } });
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    await f.moveTo(RELEASE);
    await f.stepUntil(async () => (await f!.request(id)).status === "failed", 50);
    expect((await f.request(id)).failureReason).toBe(`The club did not open ${PLAY} for booking in time.`);
    expect(clubPosts(f).length).toBeLessThan(20);
  });

  test("a request cancelled before its release is never sent", async () => {
    f = await startReleaseFixture();
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    const maria = await f.user("maria");
    await f.t.deps.hub.dispatch({ user: maria, sessionId: "s" }, JSON.stringify({ action: "CANCEL_REQUEST", payload: { id } }), () => undefined);
    await f.moveTo(RELEASE);
    expect(clubPosts(f)).toHaveLength(0);
    expect((await f.request(id)).status).toBe("cancelled");
  });

  test("an edited pending request keeps its id and fires with the new times", async () => {
    f = await startReleaseFixture();
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    const answer = await f.submit("maria", { ...submission(PLAY, ["06:16", "06:24"]), editTarget: id });
    expect(answer).toMatchObject({ type: "submissionResult", status: "pending", details: { time: "06:16" } });
    expect(await requestIdOf(f)).toEqual([id]);
    await f.moveTo(RELEASE);
    expect((await f.request(id)).status).toBe("confirmed");
    expect(clubPosts(f).map((p) => p.time)).toEqual(["06:16"]);
  });
});

describe("fairness between Teebox members", () => {
  test("overlapping preferences: each slot is posted once, the earliest-submitted request picks first", async () => {
    f = await startReleaseFixture();
    for (const name of ["maria", "jose", "ana"]) {
      await f.submit(name, submission(PLAY, ["06:00", "06:08", "06:16"]));
      await f.clock.advance(1000);
    }
    await f.moveTo(RELEASE);
    // The three posts leave together; their arrival order at the club does not matter.
    const posts = clubPosts(f).sort((a, b) => a.time.localeCompare(b.time));
    expect(posts.map((p) => [p.email.split("@")[0], p.time, p.outcome])).toEqual([
      ["maria", "06:00", "confirmed"],
      ["jose", "06:08", "confirmed"],
      ["ana", "06:16", "confirmed"],
    ]);
  });

  test("a request moves on when the slots it wanted go to other members, and fails when none is left", async () => {
    f = await startReleaseFixture();
    f.sim.setSlotStatus(PLAY, "masters", "06:00", "BOOKED");
    await f.submit("maria", submission(PLAY, ["06:00", "06:08", "06:16"]));
    await f.clock.advance(1000);
    await f.submit("jose", submission(PLAY, ["06:08"]));
    await f.clock.advance(1000);
    await f.submit("ana", submission(PLAY, ["06:16"]));
    await f.moveTo(RELEASE - 60_000);
    await f.moveTo(RELEASE);
    const [mariaId, joseId, anaId] = await requestIdOf(f);
    expect((await f.request(joseId)).status).toBe("confirmed");
    expect((await f.request(anaId)).status).toBe("confirmed");
    expect(await f.request(mariaId)).toMatchObject({ status: "failed", failureReason: NO_TIME_AVAILABLE });
    // Maria never raced the others: her only post was her taken first choice.
    expect(clubPosts(f, "maria@southwoods.demo").map((p) => p.time)).toEqual(["06:00"]);
  });

  test("a slot whose holder fails for its own reason goes to the member waiting for it", async () => {
    f = await startReleaseFixture();
    const stranger = { type: "Member", cartType: { Walking: true }, chargeFeesTo: { "Charge to their account": true }, searchLastName: "Nobody", searchIdNumber: "SW-4040" };
    await f.submit("jose", submission(PLAY, ["06:00"], "masters", [stranger]));
    await f.clock.advance(1000);
    await f.submit("maria", submission(PLAY, ["06:00"]));
    await f.moveTo(RELEASE);
    const [joseId, mariaId] = await requestIdOf(f);
    const jose = await f.request(joseId);
    expect(jose.status).toBe("failed");
    expect(jose.failureReason).toContain("Player not found");
    expect(await f.request(mariaId)).toMatchObject({ status: "confirmed" });
    const joseUser = await f.user("jose");
    expect(f.t.published.filter((p) => p.topic === `user:${joseUser.id}`).map((p) => p.message)).toContainEqual(
      expect.objectContaining({ type: "toast", toast: expect.objectContaining({ kind: "error", textKey: "bookings.toast.failed" }) }),
    );
  });
});

describe("rivals, faults and failures", () => {
  test("firing on time beats rivals who take popular slots 150 ms after release", async () => {
    f = await startReleaseFixture({ rivals: { share: 1, delayMs: 150 } });
    await f.submit("maria", submission(PLAY, ["06:40", "06:48"]));
    await f.moveTo(RELEASE);
    await f.moveTo(RELEASE + 150);
    const [id] = await requestIdOf(f);
    expect(await f.request(id)).toMatchObject({ status: "confirmed" });
    const rivalPosts = f.sim.attempts().filter((a) => a.isRival);
    expect(rivalPosts.length).toBeGreaterThan(0);
    expect(rivalPosts.every((a) => a.arrivedClubMs >= RELEASE + 150)).toBe(true);
    expect(rivalPosts.some((a) => a.time === "06:40" && a.outcome === "confirmed")).toBe(false);
  });

  test("bad club credentials fail the request with that reason", async () => {
    f = await startReleaseFixture();
    const maria = await f.user("maria");
    await f.t.deps.database.db
      .update(users)
      .set({ clubPasswordSealed: f.t.deps.secretBox.seal("wrong-password") })
      .where(eq(users.id, maria.id));
    await f.submit("maria", submission(PLAY, ["06:00"]));
    await f.moveTo(RELEASE);
    const [id] = await requestIdOf(f);
    expect(await f.request(id)).toMatchObject({ status: "failed", failureReason: "The club did not accept your club login. Update it in your profile." });
  });

  test("a club that is down is retried with backoff; an unanswered post is checked before posting again", async () => {
    f = await startReleaseFixture();
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    await f.moveTo(RELEASE - 60_000);
    f.sim.setFaults({ down: true });
    await f.moveTo(RELEASE);
    await f.stepUntil(async () => clubPosts(f!).length >= 1, 50);
    await f.clock.advance(3000);
    f.sim.setFaults({ down: false });
    await f.stepUntil(async () => (await f!.request(id)).status === "confirmed", 100);
    const outcomes = (await f.attempts(id)).map((a) => a.outcome);
    expect(outcomes[0]).toBe("unavailable");
    expect(outcomes.at(-1)).toBe("confirmed");
    expect(f.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(1);
  });

  // An unknown outcome is never Failed (decision 117); past the window it needs attention.
  test("the club down for longer than the bounded window: the request needs attention, never Failed, and nothing more is posted", async () => {
    f = await startReleaseFixture({ engine: { unavailableWindowMs: 2000 } });
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    await f.moveTo(RELEASE - 60_000);
    f.sim.setFaults({ errorRate: 1 });
    await f.moveTo(RELEASE);
    await f.stepUntil(async () => (await f!.request(id)).status !== "processing", 100, 2000);
    // 500s are ambiguous for a booking post, so each one is followed by a read of the club first.
    const request = await f.request(id);
    expect(request.status).toBe("needs_attention");
    expect(request.reasonKey).toBe("bookings.reason.could_not_tell");
    expect(request.phase).toBeNull();
    expect(f.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(0);
    const posts = clubPosts(f).length;
    f.sim.setFaults({ errorRate: 0 });
    await f.clock.advance(10_000);
    await f.engine.idle();
    expect(clubPosts(f).length).toBe(posts);
  });
});

describe("start-up", () => {
  test("a request whose release passed while Teebox was down is processed at once on start, its lateness recorded", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    await f.clock.set(RELEASE + 5 * 60_000);
    await f.engine.start();
    await f.engine.idle();
    expect(await f.request(id)).toMatchObject({ status: "confirmed", latenessMs: 5 * 60_000 });
  });

  test("a request left processing with a post the club answered is confirmed from the club's bookings, without a second post", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await f.submit("maria", submission(PLAY, ["06:00", "06:08"]));
    const [id] = await requestIdOf(f);
    await f.clock.set(RELEASE + 1000);
    // The post reached the club and booked 06:00, but the process died before the answer was stored.
    const maria = await f.user("maria");
    const session = await f.t.deps.sessions.forMember(maria.id);
    const { ref } = await session.book({
      date: PLAY,
      course: "masters",
      slotId: "MAS-20261130-0600",
      time: "06:00",
      players: [{ type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" }],
    });
    const db = f.t.deps.database.db;
    await db.update(bookingRequests).set({ status: "processing" }).where(eq(bookingRequests.id, id));
    await db.insert(requestAttempts).values({ requestId: id, time: "06:00", slotId: "MAS-20261130-0600", state: "sent", firedAtClub: RELEASE, firedAtLocal: RELEASE });
    const postsBefore = clubPosts(f).length;

    await f.engine.start();
    await f.engine.idle();
    expect(await f.request(id)).toMatchObject({ status: "confirmed", bookingRef: ref });
    expect(clubPosts(f).length).toBe(postsBefore);
    expect(f.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(1);
    expect((await f.attempts(id)).map((a) => [a.state, a.outcome])).toEqual([["answered", "confirmed"]]);
  });

  test("a request left processing whose post never reached the club resumes", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await f.submit("maria", submission(PLAY, ["06:00"]));
    const [id] = await requestIdOf(f);
    await f.clock.set(RELEASE + 1000);
    const db = f.t.deps.database.db;
    await db.update(bookingRequests).set({ status: "processing" }).where(eq(bookingRequests.id, id));
    await db.insert(requestAttempts).values({ requestId: id, time: "06:00", slotId: "MAS-20261130-0600", state: "sent", firedAtClub: RELEASE, firedAtLocal: RELEASE });
    await f.engine.start();
    await f.engine.idle();
    expect(await f.request(id)).toMatchObject({ status: "confirmed" });
    expect((await f.attempts(id)).map((a) => a.outcome)).toEqual(["unknown", "confirmed"]);
    expect(f.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(1);
  });
});
