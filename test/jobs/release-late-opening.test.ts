/**
 * A club that opens a date later than announced, and one that asks Teebox to slow down during a
 * release: the requests still book, with few posts each, and nothing is posted while the club's
 * pause lasts (decisions 146, 147). The demo club runs on the test's fake clock.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, users } from "../../src/db/schema.ts";
import { notYetOpenAsks, NOT_YET_OPEN_PER_REQUEST_MS, NOT_YET_OPEN_SCHEDULE } from "../../src/attempt/policy.ts";
import { PLAY, RELEASE, startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const requestIds = async (fx: ReleaseFixture) =>
  (await fx.t.deps.database.db.select({ id: bookingRequests.id }).from(bookingRequests).orderBy(bookingRequests.id)).map((r) => r.id);
const EMAILS = ["maria@southwoods.demo", "jose@southwoods.demo", "ana@southwoods.demo"];
/** What each member posted at the club (its own record), from the instant on. */
const postsOf = (fx: ReleaseFixture, email: string, untilClubMs = Number.POSITIVE_INFINITY) =>
  fx.sim.attempts().filter((a) => a.email === email && !a.isRival && a.arrivedClubMs >= RELEASE && a.arrivedClubMs <= untilClubMs);

/** Steps the fake clock to `atMs` in steps of `stepMs`, letting the engine act after each. */
async function stepTo(fx: ReleaseFixture, atMs: number, stepMs: number): Promise<void> {
  while (fx.clock.now() < atMs) {
    await fx.engine.idle();
    await fx.clock.set(Math.min(atMs, fx.clock.now() + stepMs));
  }
  await fx.engine.idle();
}

async function releaseWithThree(fx: ReleaseFixture): Promise<number[]> {
  await fx.submit("maria", submission(PLAY, ["06:00", "06:08"]));
  await fx.submit("jose", submission(PLAY, ["06:16", "06:24"]));
  await fx.submit("ana", submission(PLAY, ["06:32", "06:40"]));
  await fx.moveTo(RELEASE - 60_000);
  await fx.moveTo(RELEASE);
  return requestIds(fx);
}

describe("a club that opens later than announced", () => {
  test("while the club stays 'not yet open' for 20 s, two requests post a bounded number of times each (they made 881 posts together)", async () => {
    f = await startReleaseFixture();
    f.sim.setFaults({ openLateMs: 60_000 });
    await f.submit("maria", submission(PLAY, ["06:00"]));
    await f.submit("jose", submission(PLAY, ["06:08"]));
    await f.moveTo(RELEASE - 60_000);
    await f.moveTo(RELEASE);
    await stepTo(f, RELEASE + 20_000, 10);
    const posts = EMAILS.slice(0, 2).map((email) => postsOf(f!, email, RELEASE + 20_000).length);
    // The date's asks over 20 s (334), shared by its two requests, plus each one's first post at the instant.
    const asks = notYetOpenAsks(20_000, NOT_YET_OPEN_SCHEDULE);
    expect(asks).toBe(334);
    console.log(`posts per request while the club stayed 'not yet open' for 20 s: ${posts.join(", ")}`);
    for (const count of posts) expect(count).toBeLessThanOrEqual(Math.ceil(asks / 2) + 1);
    // And each member's login is held to its budget: 60 at once, then one every 5 s.
    for (const count of posts) expect(count).toBeLessThanOrEqual(60 + 20_000 / 5_000);
    expect(posts[0] + posts[1]).toBeLessThanOrEqual(asks + 2);
    expect(f.sim.attempts().every((a) => a.outcome === "not_yet_open")).toBe(true);
    // Still trying: 'not yet open' is asked about for the club retry window, not 20 s.
    const ids = await requestIds(f);
    for (const id of ids) expect((await f.request(id)).status).toBe("processing");
  });

  test("opening 2 s late, every request books its first choice before the rivals, with a few posts each", async () => {
    f = await startReleaseFixture({ rivals: { share: 1, delayMs: 150 } });
    f.sim.setFaults({ openLateMs: 2_000 });
    const ids = await releaseWithThree(f);
    await stepTo(f, RELEASE + 3_000, 10);
    for (const id of ids) expect((await f.request(id)).status).toBe("confirmed");
    expect(f.sim.bookingsOf(EMAILS[0]).map((b) => b.time)).toEqual(["06:00"]);
    expect(f.sim.bookingsOf(EMAILS[1]).map((b) => b.time)).toEqual(["06:16"]);
    expect(f.sim.bookingsOf(EMAILS[2]).map((b) => b.time)).toEqual(["06:32"]);
    // In the 2 s each request asks at most every 50 ms (three share the date), plus its first post and the one that booked.
    const counts = EMAILS.map((email) => postsOf(f!, email).length);
    console.log(`posts per request, club 2 s late: ${counts.join(", ")}`);
    for (const count of counts) expect(count).toBeLessThanOrEqual(2_000 / NOT_YET_OPEN_PER_REQUEST_MS + 2);
    const booked = EMAILS.map((email) => postsOf(f!, email).find((a) => a.outcome === "confirmed")!.arrivedClubMs - RELEASE);
    for (const at of booked) expect(at).toBeLessThan(2_000 + 150);
  });

  test("opening 30 s late (past the old 20 s window), every request still books", async () => {
    f = await startReleaseFixture();
    f.sim.setFaults({ openLateMs: 30_000 });
    const ids = await releaseWithThree(f);
    await stepTo(f, RELEASE + 31_000, 50);
    for (const id of ids) expect((await f.request(id)).status).toBe("confirmed");
    const counts = EMAILS.map((email) => postsOf(f!, email).length);
    console.log(`posts per request, club 30 s late: ${counts.join(", ")}`);
    // The quick 3 s at most every 50 ms each, then the date's asks until 30 s shared by three.
    const quick = 3_000 / NOT_YET_OPEN_PER_REQUEST_MS;
    const slower = Math.ceil((notYetOpenAsks(30_000, NOT_YET_OPEN_SCHEDULE) - notYetOpenAsks(3_000, NOT_YET_OPEN_SCHEDULE)) / 3);
    for (const count of counts) expect(count).toBeLessThanOrEqual(quick + slower + 2);
  });
});

test("a member disabled while the date is still closed is posted for at most a second longer, then the request fails", async () => {
  f = await startReleaseFixture();
  f.sim.setFaults({ openLateMs: 60_000 });
  const [maria] = await releaseWithThree(f);
  await stepTo(f, RELEASE + 1_500, 10);
  const member = await f.user("maria");
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, member.id));
  const disabledAt = f.clock.now();
  await stepTo(f, RELEASE + 4_000, 10);
  expect(await f.request(maria)).toMatchObject({ status: "failed", reasonKey: "bookings.reason.member_disabled" });
  // Her status is read again once a second while her turns come quicker: one more turn at most.
  const herLastTurn = disabledAt + 1_000 + 3 * 10;
  const after = postsOf(f, EMAILS[0]).filter((a) => a.arrivedClubMs > disabledAt);
  expect(after.every((a) => a.arrivedClubMs <= herLastTurn)).toBe(true);
  // The others go on asking past her last turn. (How far past depends on how quickly this machine
  // answers the posts while the test clock steps on: on a loaded one, half a second.)
  expect(postsOf(f, EMAILS[1]).at(-1)!.arrivedClubMs).toBeGreaterThan(herLastTurn);
});

describe("a club that asks Teebox to slow down during a release", () => {
  test("a 429 during the retries: nothing is posted until its Retry-After has passed, then the request books; the admin is told once", async () => {
    f = await startReleaseFixture();
    f.sim.setFaults({ openLateMs: 5_000 });
    const [id] = await (async () => {
      await f!.submit("maria", submission(PLAY, ["06:00"]));
      await f!.moveTo(RELEASE - 60_000);
      await f!.moveTo(RELEASE);
      return requestIds(f!);
    })();
    await stepTo(f, RELEASE + 1_000, 10);
    f.sim.setFaults({ slowDown: "429", retryAfterSeconds: 20 });
    await stepTo(f, RELEASE + 1_100, 10);
    const slowedAt = f.sim.attempts().find((a) => a.outcome === "slowed_down")!.arrivedClubMs;
    f.sim.setFaults({ slowDown: "off" });
    await stepTo(f, slowedAt + 19_990, 100);
    expect(f.sim.attempts().filter((a) => a.arrivedClubMs > slowedAt)).toHaveLength(0);
    expect((await f.request(id)).phase).toBe("waiting_for_club");
    await stepTo(f, slowedAt + 21_000, 50);
    expect((await f.request(id)).status).toBe("confirmed");
    const { current, last } = f.t.deps.club.politeness.budget.episodes();
    expect(current).toBeNull();
    expect(last).toMatchObject({ reason: "429", signals: 1 });
  });

  test("a bot wall answers the first post: its outcome is unknown, so after the pause the member's bookings are read before posting again; never Failed", async () => {
    f = await startReleaseFixture();
    await f.submit("maria", submission(PLAY, ["06:00"]));
    await f.moveTo(RELEASE - 60_000);
    await f.moveTo(RELEASE - 100);
    f.sim.setFaults({ slowDown: "challenge", challengeStatus: 403 });
    await stepTo(f, RELEASE + 100, 10);
    const [id] = await requestIds(f);
    expect(f.sim.attempts().map((a) => a.outcome)).toEqual(["slowed_down"]);
    expect(await f.request(id)).toMatchObject({ status: "processing", phase: "waiting_for_club" });
    f.sim.setFaults({ slowDown: "off" });
    // The default pause without a Retry-After is a minute: nothing reaches the club meanwhile.
    await stepTo(f, RELEASE + 59_000, 500);
    expect(f.sim.attempts()).toHaveLength(1);
    await stepTo(f, RELEASE + 62_000, 50);
    expect((await f.request(id)).status).toBe("confirmed");
    expect(f.clubActions.filter((a) => a.action === "book").map((a) => a.outcome)).toEqual(["slow_down", "ok"]);
    // The member's bookings were read (once the pause was over) before the second post.
    expect(f.t.deps.club.politeness.traffic.snapshot().totals.my_bookings).toEqual({ ok: 1 });
  });
});
