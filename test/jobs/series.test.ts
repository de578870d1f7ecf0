/**
 * Standing requests against the demo club in process (its clock is our fake one): over eight
 * simulated weeks three series wanting the same times take the first choice in turn (decision
 * 181); a date is queued once whatever passes overlap or a pass dies mid-way; the job runs on the
 * one loop at the roll hour; an ended series sends nothing at the release; retention keeps ended
 * series only so long.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { bookingRequests, seriesOccurrences, standingSeries, users } from "../../src/db/schema.ts";
import { addDays, manilaInstant } from "../../src/domain/manila-time.ts";
import { releaseInstant } from "../../src/domain/release-time.ts";
import { queueOpensAt } from "../../src/domain/series.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { createRetention } from "../../src/jobs/retention.ts";
import { nextRollAt } from "../../src/jobs/series.ts";
import { queueDueOccurrences } from "../../src/services/series-occurrences.ts";
import type { SeriesView } from "../../src/features/series/series.schemas.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** The first Monday past the Book page's window at the fixture's now (Sunday 2026-11-22 09:00 Manila). */
const FIRST = "2026-12-07";
const WANTED = ["06:00", "06:08", "06:16"];
const MEMBERS = ["maria", "jose", "ana"] as const;

function seriesBody(overrides: Record<string, unknown> = {}) {
  return { course: "masters", times: WANTED, weekdays: [1], startDate: FIRST, memberCartType: "Rental Cart - Solo", playerDetails: { players: [] }, ...overrides };
}

async function createSeries(fx: ReleaseFixture, username: string, overrides: Record<string, unknown> = {}) {
  const cookie = await fx.t.signIn(username, "demo1234");
  const res = await fx.t.call("POST", "/v1/my/series", { cookie, body: seriesBody(overrides) });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { series: SeriesView }).series.id, cookie };
}

const requestsOn = (fx: ReleaseFixture, date: string) => fx.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.playDate, date)).orderBy(bookingRequests.id);
const queueDeps = (fx: ReleaseFixture) => ({ ...fx.t.deps, wakeEngine: () => fx.t.deps.releaseEngine.wake() });

describe("standing requests over simulated weeks", () => {
  test("eight weeks, three series wanting the same times: each gets its first choice in turn", async () => {
    f = await startReleaseFixture({ rivals: { share: 0, delayMs: 1500 } });
    const fx = f;
    // Made one after the other, oldest first: without the rotation the oldest would win every week.
    for (const member of MEMBERS) await createSeries(fx, member);
    const ids = new Map<number, string>();
    for (const row of await fx.t.deps.database.db.select({ id: users.id, username: users.username }).from(users)) ids.set(row.id, row.username);

    const table: string[][] = [];
    for (let week = 0; week < 8; week++) {
      const date = addDays(FIRST, 7 * week);
      // The window reaches the date at the roll hour: one pass queues the three at that moment.
      await fx.moveTo(queueOpensAt(date, DEFAULT_SETTINGS));
      await fx.t.deps.series.pass();
      const queued = await requestsOn(fx, date);
      expect(queued).toHaveLength(3);
      expect(new Set(queued.map((r) => r.submittedAt)).size).toBe(1);
      const line = await linesOf(fx, date);

      const releaseAt = releaseInstant(date, DEFAULT_SETTINGS);
      await fx.moveTo(releaseAt - 60_000);
      await fx.moveTo(releaseAt);
      await fx.stepUntil(async () => (await requestsOn(fx, date)).every((r) => r.status === "confirmed" || r.status === "failed"), 20, 2000);
      const booked = await fx.t.deps.database.db
        .select()
        .from(bookingRequests)
        .where(and(eq(bookingRequests.playDate, date), eq(bookingRequests.status, "confirmed")));
      const timeOf = (username: string) => {
        const request = booked.find((r) => ids.get(r.userId) === username);
        const attempt = request ? fx.sim.bookingsOf(`${username}@southwoods.demo`).find((b) => b.date === date) : undefined;
        return attempt?.time ?? "-";
      };
      table.push([String(week + 1), date, ...MEMBERS.map(timeOf), line]);
    }

    const header = ["week", "date", ...MEMBERS, "line at the release"];
    console.log([header, ...table].map((row) => row.join(" | ")).join("\n"));
    // Each week one series has 06:00, and it is the series that led the least recently.
    const firstChoice = table.map((row) => MEMBERS[row.slice(2, 5).indexOf("06:00")]);
    expect(firstChoice).toEqual(["maria", "jose", "ana", "maria", "jose", "ana", "maria", "jose"]);
    // Everybody else got a later choice of theirs: nobody was left out.
    for (const row of table) expect([...row.slice(2, 5)].sort()).toEqual(WANTED);
  }, 120_000);

  test("two passes at once, and a pass that dies mid-way, never make two requests for one series and date", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const fx = f;
    for (const member of MEMBERS) await createSeries(fx, member);
    await fx.moveTo(queueOpensAt(FIRST, DEFAULT_SETTINGS));

    // A pass killed before its transaction commits leaves nothing behind.
    const { database } = fx.t.deps;
    const dying = {
      ...database,
      transaction: <T>(work: (tx: typeof database.db) => Promise<T>) =>
        database.transaction(async (tx) => {
          await work(tx);
          throw new Error("killed mid-pass");
        }),
    };
    await expect(queueDueOccurrences({ ...queueDeps(fx), database: dying as typeof database })).rejects.toThrow("killed mid-pass");
    expect(await requestsOn(fx, FIRST)).toHaveLength(0);
    expect(await fx.t.deps.database.db.select().from(seriesOccurrences).where(eq(seriesOccurrences.playDate, FIRST))).toHaveLength(0);

    await Promise.all([queueDueOccurrences(queueDeps(fx)), queueDueOccurrences(queueDeps(fx)), fx.t.deps.series.pass()]);
    await fx.t.deps.series.pass();
    const requests = await requestsOn(fx, FIRST);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.userId)).size).toBe(3);
    const occurrences = await fx.t.deps.database.db.select().from(seriesOccurrences).where(eq(seriesOccurrences.playDate, FIRST));
    expect(occurrences.map((o) => o.state)).toEqual(["queued", "queued", "queued"]);
    // The index itself refuses a second row for one series and date.
    const [one] = occurrences;
    const twin = async () => fx.t.deps.database.db.insert(seriesOccurrences).values({ ...one, id: undefined });
    await expect(twin()).rejects.toThrow();
  });

  test("the job runs on the one loop and queues a date at the roll hour; an ended series sends nothing at the release", async () => {
    f = await startReleaseFixture();
    const fx = f;
    const maria = await createSeries(fx, "maria");
    const jose = await createSeries(fx, "jose");
    fx.t.deps.series.start();
    const roll = queueOpensAt(FIRST, DEFAULT_SETTINGS);
    await waitFor(
      () => fx.t.deps.jobs.get("standing requests")?.nextRunAt === Math.min(nextRollAt(fx.clock.now(), DEFAULT_SETTINGS.booking_roll_hour), fx.clock.now() + 3_600_000),
    );
    expect(fx.t.deps.jobs.get("standing requests")?.status).toBe("online");
    // Hour by hour up to the roll: nothing is queued before it, both dates at it.
    for (let at = fx.clock.now() + 3_600_000; at < roll; at += 3_600_000) await fx.moveTo(at);
    expect(await requestsOn(fx, FIRST)).toHaveLength(0);
    await fx.moveTo(roll);
    await waitFor(async () => (await requestsOn(fx, FIRST)).length === 2);
    const lineOf = async () => ((await (await fx.t.call("GET", "/v1/my/series", { cookie: jose.cookie })).json()) as SeriesView[])[0].next[0].line;
    expect(await lineOf()).toEqual({ place: 2, of: 2 });
    // The readiness check covers a series' requests as any other: jose's signs in and passes.
    expect(await fx.t.deps.readiness.checkMember((await fx.user("jose")).id)).toEqual({ checked: 1, problems: 0 });

    // Maria ends hers before the release; jose skips nothing.
    expect((await fx.t.call("POST", `/v1/my/series/${maria.id}/end`, { cookie: maria.cookie, body: {} })).status).toBe(204);
    expect(await lineOf()).toEqual({ place: 1, of: 1 });
    const releaseAt = releaseInstant(FIRST, DEFAULT_SETTINGS);
    await fx.moveTo(releaseAt - 60_000);
    await fx.moveTo(releaseAt);
    await fx.stepUntil(async () => (await requestsOn(fx, FIRST)).every((r) => r.status !== "pending" && r.status !== "processing"), 20, 2000);
    expect(fx.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(0);
    expect(fx.sim.bookingsOf("jose@southwoods.demo").map((b) => [b.date, b.time])).toEqual([[FIRST, "06:00"]]);
    const [listed] = (await (await fx.t.call("GET", "/v1/my/series", { cookie: jose.cookie })).json()) as SeriesView[];
    expect(listed.next[0]).toMatchObject({ date: FIRST, state: "booked" });
    expect(listed.next[1]).toMatchObject({ date: addDays(FIRST, 7), state: "scheduled", queuesAt: queueOpensAt(addDays(FIRST, 7), DEFAULT_SETTINGS) });
  }, 60_000);

  test("a series queued behind a request already waiting for the release does not count as having led it", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const fx = f;
    const date = "2026-11-30";
    expect((await fx.submit("jose", submission(date, ["06:00"]))).type).toBe("submissionResult");
    const maria = await createSeries(fx, "maria", { startDate: date });
    const ana = await createSeries(fx, "ana", { startDate: "2026-12-01", weekdays: [2] });
    const led = async (id: number) => (await fx.t.deps.database.db.select({ ledAt: standingSeries.ledAt }).from(standingSeries).where(eq(standingSeries.id, id)))[0].ledAt;
    expect(await led(maria.id)).toBeNull();
    // Alone in its line, a series leads it.
    expect(await led(ana.id)).toBe(releaseInstant("2026-12-01", DEFAULT_SETTINGS));
    const [listed] = (await (await fx.t.call("GET", "/v1/my/series", { cookie: maria.cookie })).json()) as SeriesView[];
    expect(listed.next[0]).toMatchObject({ date, state: "pending", line: { place: 2, of: 2 } });
  });

  test("retention removes an ended series and its dates once they are old, and old dates of active ones", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const fx = f;
    const maria = await createSeries(fx, "maria", { startDate: "2026-11-23" });
    const jose = await createSeries(fx, "jose", { startDate: "2026-11-23" });
    expect((await fx.t.call("POST", `/v1/my/series/${maria.id}/end`, { cookie: maria.cookie, body: {} })).status).toBe(204);
    const retention = createRetention(fx.t.deps);
    await fx.clock.set(manilaInstant("2027-01-31", "03:30"));
    await retention.runOnce();
    expect((await fx.t.deps.database.db.select().from(standingSeries)).map((s) => s.id).sort()).toEqual([maria.id, jose.id]);
    await fx.clock.set(manilaInstant("2027-04-01", "03:30"));
    await retention.runOnce();
    const left = await fx.t.deps.database.db.select().from(standingSeries);
    expect(left.map((s) => s.id)).toEqual([jose.id]);
    expect(
      await fx.t.deps.database.db
        .select()
        .from(seriesOccurrences)
        .where(inArray(seriesOccurrences.seriesId, [maria.id, jose.id])),
    ).toHaveLength(0);
  });
});

/** "Place of count" per member for the date's requests, in the engine's order (submitted, then id). */
async function linesOf(fx: ReleaseFixture, date: string): Promise<string> {
  const rows = await fx.t.deps.database.db
    .select({ id: bookingRequests.id, username: users.username })
    .from(bookingRequests)
    .innerJoin(users, eq(users.id, bookingRequests.userId))
    .where(eq(bookingRequests.playDate, date))
    .orderBy(bookingRequests.submittedAt, bookingRequests.id);
  return rows.map((r) => r.username).join(" > ");
}

/** Lets the loop's pass run to its end (it does I/O on the test database), at most a few seconds. */
async function waitFor(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await done()) return;
    await Bun.sleep(5);
  }
  throw new Error("waitFor: the condition never held");
}
