/**
 * Standing requests through the API on a fresh database (the demo members; now is Sunday
 * 2026-11-22 09:00 Manila, so the Book page offers 2026-11-22 to 2026-12-05): made, listed with
 * their next dates, changed, skipped one date at a time and ended; every bad input a clear 4xx.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, bookingRequests, seriesOccurrences } from "../../src/db/schema.ts";
import { createTestApp, userIdOf, type TestApp } from "../helpers/api.ts";
import type { SeriesView } from "../../src/features/series/series.schemas.ts";

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

function seriesBody(overrides: Record<string, unknown> = {}) {
  return {
    course: "masters",
    times: ["06:00", "06:08"],
    weekdays: [1],
    startDate: "2026-11-23",
    memberCartType: "Rental Cart - Solo",
    playerDetails: { players: [] },
    ...overrides,
  };
}

async function start() {
  t = await createTestApp({ demo: true });
  const cookie = await t.signIn("maria", "demo1234");
  return { t, cookie };
}

const requestsOf = async (app: TestApp, username: string) =>
  app.deps.database.db
    .select()
    .from(bookingRequests)
    .where(eq(bookingRequests.userId, await userIdOf(app, username)))
    .orderBy(bookingRequests.playDate);

async function create(app: TestApp, cookie: string, overrides: Record<string, unknown> = {}) {
  const res = await app.call("POST", "/v1/my/series", { cookie, body: seriesBody(overrides) });
  const body = (await res.json()) as { series: SeriesView } & { errorKey?: string };
  return { res, body };
}

describe("standing requests", () => {
  test("a series queues every date the Book page offers, lists the next ones, and a second pass makes no twin", async () => {
    const { t, cookie } = await start();
    const { res, body } = await create(t, cookie);
    expect(res.status).toBe(201);
    expect(body.series.next.map((o) => [o.date, o.state])).toEqual([
      ["2026-11-23", "pending"],
      ["2026-11-30", "pending"],
      ["2026-12-07", "scheduled"],
      ["2026-12-14", "scheduled"],
    ]);
    // 2026-12-07 is offered once the window reaches it: 14 days before, at the 18:00 roll.
    expect(body.series.next[2].queuesAt).toBe(Date.UTC(2026, 10, 23, 10, 0, 0));
    expect(body.series.next[0].line).toEqual({ place: 1, of: 1 });
    const requests = await requestsOf(t, "maria");
    expect(requests.map((r) => [r.playDate, r.courseId, r.selection.map((s) => s.time), r.status])).toEqual([
      ["2026-11-23", "masters", ["06:00", "06:08"], "pending"],
      ["2026-11-30", "masters", ["06:00", "06:08"], "pending"],
    ]);
    await t.deps.series.pass();
    await t.deps.series.pass();
    expect(await requestsOf(t, "maria")).toHaveLength(2);
    // The window moves at 18:00 Manila the next day: the pass then queues 2026-12-07.
    await t.clock.set(Date.UTC(2026, 10, 23, 10, 0, 0));
    await t.deps.series.pass();
    expect((await requestsOf(t, "maria")).map((r) => r.playDate)).toEqual(["2026-11-23", "2026-11-30", "2026-12-07"]);
    const listed = (await (await t.call("GET", "/v1/my/series", { cookie })).json()) as SeriesView[];
    expect(listed).toHaveLength(1);
    const audit = await t.deps.database.db.select().from(auditLog).where(eq(auditLog.action, "series.create"));
    expect(audit).toHaveLength(1);
  });

  test("a date the rules make impossible needs attention with the reason instead of being dropped", async () => {
    const { t, cookie } = await start();
    // Masters is closed on Sundays: both weekdays are asked for, Sunday's dates need attention.
    const { res, body } = await create(t, cookie, { weekdays: [1, 7], startDate: "2026-11-28" });
    expect(res.status).toBe(201);
    const sunday = body.series.next.find((o) => o.date === "2026-11-29");
    expect(sunday).toMatchObject({ state: "needs_attention", reasonKey: "booking.course_closed", reason: "This course is not open on that day." });
    const rows = await t.deps.database.db.select().from(seriesOccurrences).where(eq(seriesOccurrences.playDate, "2026-11-29"));
    expect(rows).toHaveLength(1);
    expect(rows[0].requestId).toBeNull();
    expect((await requestsOf(t, "maria")).map((r) => r.playDate)).toEqual(["2026-11-30"]);
    // The member is told once in the bell (and by a toast), not again at every later pass.
    const toasts = () => t.published.filter((p) => p.message.type === "toast" && JSON.stringify(p.message).includes("2026-11-29"));
    expect(toasts()).toHaveLength(1);
    await t.deps.series.pass();
    await t.deps.series.pass();
    await t.deps.notifier.settled?.();
    expect(toasts()).toHaveLength(1);
    const { items } = (await (await t.call("GET", "/v1/my/notifications", { cookie })).json()) as { items: { text: string }[] };
    expect(items.map((i) => i.text)).toEqual(["Your request for Masters on 2026-11-29 needs attention: This course is not open on that day."]);
  });

  test("a holiday's rule makes its date need attention, and the date is queued once the rule is gone", async () => {
    const { t, cookie } = await start();
    const admin = await t.signIn("admin", "admin-password-1");
    expect((await t.call("POST", "/v1/admin/holidays", { cookie: admin, body: { date: "2026-11-30", name: "Bonifacio Day" } })).status).toBe(201);
    const rule = await t.call("POST", "/v1/admin/booking-rules", {
      cookie: admin,
      body: { priority: 1, days_of_week: [7], applies_on_holidays: true, start_time: "05:00", end_time: "17:00", min_players: 2, max_players: null, max_guests: null },
    });
    expect(rule.status).toBe(201);
    const { body } = await create(t, cookie);
    expect(body.series.next.slice(0, 2).map((o) => [o.date, o.state, o.reason])).toEqual([
      ["2026-11-23", "pending", null],
      ["2026-11-30", "needs_attention", "Minimum of 2 players required."],
    ]);
    expect((await t.call("DELETE", `/v1/admin/booking-rules/${((await rule.json()) as { id: number }).id}`, { cookie: admin })).status).toBe(204);
    await t.deps.series.pass();
    expect((await requestsOf(t, "maria")).map((r) => [r.playDate, r.status])).toEqual([
      ["2026-11-23", "pending"],
      ["2026-11-30", "pending"],
    ]);
  });

  test("the open-request limit makes a date need attention too, and it is queued once there is room", async () => {
    const { t, cookie } = await start();
    const admin = await t.signIn("admin", "admin-password-1");
    const settings = ((await (await t.call("GET", "/v1/admin/app-settings", { cookie: admin })).json()) as { settings: Record<string, unknown> }).settings;
    expect((await t.call("PUT", "/v1/admin/app-settings", { cookie: admin, body: { ...settings, max_open_requests: 1 } })).status).toBe(200);
    const { body } = await create(t, cookie);
    expect(body.series.next.slice(0, 2).map((o) => [o.state, o.reasonKey])).toEqual([
      ["pending", null],
      ["needs_attention", "booking.too_many_open"],
    ]);
    expect((await t.call("PUT", "/v1/admin/app-settings", { cookie: admin, body: { ...settings, max_open_requests: 10 } })).status).toBe(200);
    await t.deps.series.pass();
    expect((await requestsOf(t, "maria")).map((r) => [r.playDate, r.status])).toEqual([
      ["2026-11-23", "pending"],
      ["2026-11-30", "pending"],
    ]);
  });

  test("changing the series changes the dates not yet released, keeping their place; one date changes or is skipped alone", async () => {
    const { t, cookie } = await start();
    const { body } = await create(t, cookie);
    const id = body.series.id;
    const before = await requestsOf(t, "maria");
    await t.clock.advance(60_000);
    const changed = await t.call("PUT", `/v1/my/series/${id}`, { cookie, body: seriesBody({ times: ["07:04"], weekdays: [1, 3] }) });
    expect(changed.status).toBe(200);
    const after = await requestsOf(t, "maria");
    expect(after.filter((r) => r.status === "pending").map((r) => [r.playDate, r.selection.map((s) => s.time)])).toEqual([
      ["2026-11-23", ["07:04"]],
      ["2026-11-25", ["07:04"]],
      ["2026-11-30", ["07:04"]],
      ["2026-12-02", ["07:04"]],
    ]);
    // The revised requests keep their id and their place in line (the moment they were queued).
    const monday = after.find((r) => r.playDate === "2026-11-23");
    expect(monday?.id).toBe(before[0].id);
    expect(monday?.submittedAt).toBe(before[0].submittedAt);

    expect((await t.call("POST", `/v1/my/series/${id}/occurrences/2026-11-30/change`, { cookie, body: { times: ["06:16", "06:24"] } })).status).toBe(204);
    expect((await t.call("POST", `/v1/my/series/${id}/occurrences/2026-11-25/skip`, { cookie, body: {} })).status).toBe(204);
    // A date far ahead can be skipped before it is queued; the job never queues it then.
    expect((await t.call("POST", `/v1/my/series/${id}/occurrences/2026-12-14/skip`, { cookie, body: {} })).status).toBe(204);
    await t.deps.series.pass();
    const now = await requestsOf(t, "maria");
    expect(now.find((r) => r.playDate === "2026-11-30")?.selection.map((s) => s.time)).toEqual(["06:16", "06:24"]);
    expect(now.find((r) => r.playDate === "2026-11-25")?.status).toBe("cancelled");
    const listed = ((await (await t.call("GET", "/v1/my/series", { cookie })).json()) as SeriesView[])[0];
    expect(listed.next.map((o) => [o.date, o.state, o.isChangedAlone])).toEqual([
      ["2026-11-23", "pending", false],
      ["2026-11-25", "skipped", false],
      ["2026-11-30", "pending", true],
      ["2026-12-02", "pending", false],
    ]);
    // A later change of the whole series keeps the date changed alone.
    expect((await t.call("PUT", `/v1/my/series/${id}`, { cookie, body: seriesBody({ times: ["07:12"], weekdays: [1, 3] }) })).status).toBe(200);
    expect((await requestsOf(t, "maria")).find((r) => r.playDate === "2026-11-30")?.selection.map((s) => s.time)).toEqual(["06:16", "06:24"]);
    // Dropping Wednesday cancels its queued date.
    expect((await t.call("PUT", `/v1/my/series/${id}`, { cookie, body: seriesBody({ times: ["07:12"], weekdays: [1] }) })).status).toBe(200);
    expect((await requestsOf(t, "maria")).find((r) => r.playDate === "2026-12-02")?.status).toBe("cancelled");
  });

  test("a change may keep a first date that has gone by, but not move it into the past", async () => {
    const { t, cookie } = await start();
    const { body } = await create(t, cookie);
    await t.clock.set(Date.UTC(2026, 10, 25, 1, 0, 0));
    const kept = await t.call("PUT", `/v1/my/series/${body.series.id}`, { cookie, body: seriesBody({ times: ["07:04"] }) });
    expect(kept.status).toBe(200);
    const moved = await t.call("PUT", `/v1/my/series/${body.series.id}`, { cookie, body: seriesBody({ startDate: "2026-11-24" }) });
    expect(moved.status).toBe(400);
    expect(await moved.json()).toMatchObject({ errorKey: "series.error.start_past" });
  });

  test("ending the series cancels what has not been released; a released request stands", async () => {
    const { t, cookie } = await start();
    const { body } = await create(t, cookie);
    const [first] = await requestsOf(t, "maria");
    // The first date's request has gone to the club already.
    await t.deps.database.db.update(bookingRequests).set({ status: "processing" }).where(eq(bookingRequests.id, first.id));
    expect((await t.call("POST", `/v1/my/series/${body.series.id}/end`, { cookie, body: {} })).status).toBe(204);
    expect((await requestsOf(t, "maria")).map((r) => [r.playDate, r.status])).toEqual([
      ["2026-11-23", "processing"],
      ["2026-11-30", "cancelled"],
    ]);
    const again = await t.call("POST", `/v1/my/series/${body.series.id}/end`, { cookie, body: {} });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ errorKey: "series.error.ended" });
    await t.deps.series.pass();
    expect(await requestsOf(t, "maria")).toHaveLength(2);
    const [listed] = (await (await t.call("GET", "/v1/my/series", { cookie })).json()) as SeriesView[];
    expect(listed.status).toBe("ended");
  });

  test("bad input gets a clear 4xx with its key", async () => {
    const { t, cookie } = await start();
    const refused = async (overrides: Record<string, unknown>, status: number, errorKey: string) => {
      const { res, body } = await create(t, cookie, overrides);
      expect([res.status, body.errorKey]).toEqual([status, errorKey]);
    };
    await refused({ weekdays: [] }, 400, "series.error.no_weekdays");
    await refused({ weekdays: [8] }, 400, "series.error.bad_weekday");
    await refused({ startDate: "2026-12-01", endDate: "2026-11-30" }, 400, "series.error.end_before_start");
    await refused({ endDate: "2026-12-31", skipDates: ["2027-01-04"] }, 400, "series.error.skip_outside");
    await refused({ startDate: "2026-11-01" }, 400, "series.error.start_past");
    await refused({ startDate: "26-11-30" }, 400, "series.error.bad_date");
    await refused({ times: [], fromTime: null, toTime: null }, 400, "series.error.no_times");
    await refused({ times: [], fromTime: "09:00", toTime: "07:00" }, 400, "series.error.bad_range");
    await refused({ course: "nowhere" }, 400, "booking.unknown_course");
    await refused({ times: ["6am"] }, 400, "booking.invalid_time");
    const malformed = await t.call("POST", "/v1/my/series", { cookie, body: { ...seriesBody(), weekdays: "monday" } });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { errorKey?: string }).errorKey).toBeString();

    for (let i = 0; i < 5; i++) expect((await create(t, cookie, { startDate: `2026-12-${String(i + 10).padStart(2, "0")}` })).res.status).toBe(201);
    await refused({}, 400, "series.error.too_many");

    const [mine] = (await (await t.call("GET", "/v1/my/series", { cookie })).json()) as SeriesView[];
    const skip = (date: string, as = cookie) => t.call("POST", `/v1/my/series/${mine.id}/occurrences/${date}/skip`, { cookie: as, body: {} });
    expect(((await (await skip("2026-12-11")).json()) as { errorKey: string }).errorKey).toBe("series.error.not_a_date");
    const jose = await t.signIn("jose", "demo1234");
    expect((await skip("2026-12-14", jose)).status).toBe(404);
    expect((await t.call("POST", "/v1/my/series/999/end", { cookie, body: {} })).status).toBe(404);
    const change = await t.call("POST", `/v1/my/series/${mine.id}/occurrences/2026-12-14/change`, { cookie, body: { times: [] } });
    expect(change.status).toBe(400);
    const rows = await t.deps.database.db
      .select()
      .from(seriesOccurrences)
      .where(and(eq(seriesOccurrences.seriesId, mine.id)));
    expect(rows).toHaveLength(0);
  });

  test("another member's series is not there for them, and two changes at once leave one whole series", async () => {
    const { t, cookie } = await start();
    const { body } = await create(t, cookie);
    const id = body.series.id;
    const before = await requestsOf(t, "maria");
    const jose = await t.signIn("jose", "demo1234");
    const asJose = [
      t.call("PUT", `/v1/my/series/${id}`, { cookie: jose, body: seriesBody({ times: ["07:04"] }) }),
      t.call("POST", `/v1/my/series/${id}/end`, { cookie: jose, body: {} }),
      t.call("POST", `/v1/my/series/${id}/occurrences/2026-11-30/change`, { cookie: jose, body: { times: ["07:04"] } }),
      t.call("POST", `/v1/my/series/${id}/occurrences/2026-11-30/skip`, { cookie: jose, body: {} }),
    ];
    for (const res of await Promise.all(asJose)) expect([res.status, ((await res.json()) as { errorKey?: string }).errorKey]).toEqual([404, expect.any(String)]);
    expect((await (await t.call("GET", "/v1/my/series", { cookie: jose })).json()) as SeriesView[]).toEqual([]);
    expect(await requestsOf(t, "maria")).toEqual(before);

    // Two of her own tabs change it at the same moment: one version wins whole, never a mixture.
    const [a, b] = await Promise.all([
      t.call("PUT", `/v1/my/series/${id}`, { cookie, body: seriesBody({ times: ["07:04"] }) }),
      t.call("PUT", `/v1/my/series/${id}`, { cookie, body: seriesBody({ times: ["07:12"] }) }),
    ]);
    expect([a.status, b.status].every((status) => status === 200 || status === 409)).toBe(true);
    const pending = (await requestsOf(t, "maria")).filter((r) => r.status === "pending");
    const times = new Set(pending.map((r) => r.selection.map((s) => s.time).join(",")));
    expect(times.size).toBe(1);
    expect(["07:04", "07:12"]).toContain([...times][0]);
    const [listed] = (await (await t.call("GET", "/v1/my/series", { cookie })).json()) as SeriesView[];
    expect(listed.times?.join(",")).toBe([...times][0]);
    expect(pending.map((r) => r.id)).toEqual(before.filter((r) => r.status === "pending").map((r) => r.id));
  });
});
