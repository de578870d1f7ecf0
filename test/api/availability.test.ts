import { afterEach, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { advisories, bookingRules, holidays, scrapeRuns, teeTimeSlots } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { DEFAULT_SETTINGS, DEFAULT_STORED_SETTINGS } from "../../src/domain/settings.ts";
import { readSettings, writeSettings } from "../../src/services/settings.service.ts";
import { ADMIN_PASSWORD, createTestApp, TEST_NOW, type TestApp } from "../helpers/api.ts";

let t: TestApp;
afterEach(() => t?.close());

async function getJson(path: string) {
  const cookie = await t.signIn("admin", ADMIN_PASSWORD);
  const res = await t.call("GET", path, { cookie });
  expect(res.status).toBe(200);
  return res.json();
}

describe("member-only", () => {
  test("each availability call needs a signed-in member", async () => {
    t = await createTestApp();
    for (const path of ["/v1/tee-times", "/v1/tee-times?_=1", "/v1/system/dates", "/v1/system/rules", "/v1/advisories"]) {
      const res = await t.call("GET", path);
      expect(res.status).toBe(401);
    }
  });
});

describe("GET /v1/tee-times", () => {
  test("is empty with no scrape yet", async () => {
    t = await createTestApp();
    expect(await getJson("/v1/tee-times?_=123")).toEqual({ teeTimes: [], lastScrapeTime: null });
  });

  // lastScrapeTime is the oldest read time of the sheets shown (decision 061): the past day's older time does not count.
  test("groups stored slots by date and course from today on, with the oldest shown sheet's read time", async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    const slot = (date: string, courseId: string, time: string, status = "AVAILABLE", scrapedAt = TEST_NOW - 5000) => ({
      date,
      courseId,
      time,
      status,
      slotId: `${courseId}-${date}-${time}`,
      scrapedAt,
    });
    await db
      .insert(teeTimeSlots)
      .values([
        slot("2026-11-21", "masters", "06:00", "AVAILABLE", TEST_NOW - 90_000),
        slot("2026-11-24", "legends", "06:08", "BOOKED", TEST_NOW - 8000),
        slot("2026-11-24", "masters", "06:08"),
        slot("2026-11-24", "masters", "06:00", "BLOCKED"),
        slot("2026-11-22", "legends", "07:00"),
      ]);
    await db.insert(scrapeRuns).values([
      { trigger: "startup", startedAt: TEST_NOW - 9000, finishedAt: TEST_NOW - 8000, status: "ok" },
      { trigger: "manual", startedAt: TEST_NOW - 6000, finishedAt: TEST_NOW - 5000, status: "partial" },
      { trigger: "schedule", startedAt: TEST_NOW - 2000, finishedAt: TEST_NOW - 1000, status: "failed" },
    ]);
    expect(await getJson("/v1/tee-times")).toEqual({
      teeTimes: [
        { date: "2026-11-22", course: "legends", tee_times: [{ time: "07:00", status: "AVAILABLE", slotId: "legends-2026-11-22-07:00" }] },
        {
          date: "2026-11-24",
          course: "masters",
          tee_times: [
            { time: "06:00", status: "BLOCKED", slotId: "masters-2026-11-24-06:00" },
            { time: "06:08", status: "AVAILABLE", slotId: "masters-2026-11-24-06:08" },
          ],
        },
        { date: "2026-11-24", course: "legends", tee_times: [{ time: "06:08", status: "BOOKED", slotId: "legends-2026-11-24-06:08" }] },
      ],
      lastScrapeTime: TEST_NOW - 8000,
    });
  });

  test("a browser that takes gzip gets the answer gzipped, the same JSON, again and again", async () => {
    t = await createTestApp();
    const slots = Array.from({ length: 60 }, (_, i) => ({
      date: "2026-11-24",
      courseId: "masters",
      time: `${String(6 + Math.floor(i / 7)).padStart(2, "0")}:${String((i % 7) * 8).padStart(2, "0")}`,
      status: "AVAILABLE",
      slotId: `M-${i}`,
      scrapedAt: TEST_NOW - 5000,
    }));
    await t.deps.database.db.insert(teeTimeSlots).values(slots);
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const plain = await (await t.call("GET", "/v1/tee-times", { cookie })).json();
    const gzipped = async () => t.app.request("http://localhost/v1/tee-times?_=2", { headers: { cookie, "accept-encoding": "gzip, br" } });
    const first = await gzipped();
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(first.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
    const firstBody = new Uint8Array(await first.arrayBuffer());
    expect(JSON.parse(gunzipSync(firstBody).toString("utf8"))).toEqual(plain);
    expect(new Uint8Array(await (await gzipped()).arrayBuffer())).toEqual(firstBody);
  });
});

describe("GET /v1/system/dates", () => {
  test("lists ui_date_range_days dates from today, in Manila", async () => {
    t = await createTestApp();
    const dates = await getJson("/v1/system/dates");
    expect(dates).toHaveLength(DEFAULT_SETTINGS.ui_date_range_days);
    expect(dates[0]).toEqual({ dateStr: "2026-11-22", dayName: "Sunday", monthDay: "Nov 22" });
    expect(dates.at(-1).dateStr).toBe("2026-12-05");
  });

  test("rolls to tomorrow at booking_roll_hour, and follows the settings", async () => {
    t = await createTestApp({ now: manilaInstant("2026-11-22", "18:00") });
    await writeSettings(t.deps.database.db, { ...(await readSettings(t.deps.database.db)), ui_date_range_days: 3 });
    const dates = await getJson("/v1/system/dates");
    expect(dates.map((d: { dateStr: string }) => d.dateStr)).toEqual(["2026-11-23", "2026-11-24", "2026-11-25"]);
    expect(dates[0]).toEqual({ dateStr: "2026-11-23", dayName: "Monday", monthDay: "Nov 23" });
  });

  test("a minute before the roll hour still starts today", async () => {
    t = await createTestApp({ now: manilaInstant("2026-11-22", "17:59") });
    expect((await getJson("/v1/system/dates"))[0].dateStr).toBe("2026-11-22");
  });
});

describe("GET /v1/system/rules", () => {
  test("answers the rules, holidays, course schedule, settings and allowed windows", async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    await db.insert(holidays).values({ date: "2026-12-25", name: "Christmas" });
    await db
      .insert(bookingRules)
      .values({ priority: 5, daysOfWeek: [7, 6], appliesOnHolidays: true, startTime: "05:00", endTime: "12:00", minPlayers: 2, maxPlayers: 4, maxGuests: null });
    const body = await getJson("/v1/system/rules");
    expect(body.bookingRules).toEqual({
      rules: [
        {
          id: expect.any(Number),
          priority: 5,
          days_of_week: [6, 7],
          applies_on_holidays: true,
          start_time: "05:00",
          end_time: "12:00",
          min_players: 2,
          max_players: 4,
          max_guests: null,
        },
      ],
      holidays: [{ date: "2026-12-25", name: "Christmas" }],
    });
    expect(body.courseSchedule).toEqual([
      { id: "masters", name: "Masters", days_active: [1, 2, 3, 4, 5, 6] },
      { id: "legends", name: "Legends", days_active: [2, 3, 4, 5, 6, 7] },
    ]);
    expect(body.appSettings).toEqual(DEFAULT_STORED_SETTINGS);
    expect(body.allowedWindows).toEqual({
      DEFAULT: [{ start_time: "05:04", end_time: "16:48" }],
      SATURDAY_MASTERS: [
        { start_time: "05:04", end_time: "07:52" },
        { start_time: "11:00", end_time: "16:48" },
      ],
      SUNDAY_LEGENDS: [
        { start_time: "05:04", end_time: "10:56" },
        { start_time: "11:00", end_time: "16:48" },
      ],
    });
  });
});

describe("the rules and advisories answers kept between reads", () => {
  test("are built once and again after an admin's change or a settings save (after a scrape run: test/jobs/scraper.test.ts)", async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const send = (method: string, path: string, body?: unknown) => t.call(method, path, { cookie, body });
    const holidayNames = async () => (await getJson("/v1/system/rules")).bookingRules.holidays.map((h: { name: string }) => h.name);
    const advisoryTitles = async () => {
      const body = await getJson("/v1/advisories");
      return [...body.internal, ...body.scraped].map((a: { title: string }) => a.title);
    };
    expect(await holidayNames()).toEqual([]);
    expect(await advisoryTitles()).toEqual([]);

    // Written behind Teebox's back: the kept answers do not see it (nothing told them).
    await db.insert(holidays).values({ date: "2026-12-24", name: "Eve" });
    await db.insert(advisories).values({ source: "scraped", title: "Behind", content: "x", eventDate: null, isActive: true, createdAt: 1, updatedAt: 1 });
    expect(await holidayNames()).toEqual([]);
    expect(await advisoryTitles()).toEqual([]);

    // An admin's change is seen at once, with everything else written meanwhile.
    expect((await send("POST", "/v1/admin/holidays", { date: "2026-12-25", name: "Christmas" })).status).toBe(201);
    expect(await holidayNames()).toEqual(["Eve", "Christmas"]);
    expect(await advisoryTitles()).toEqual(["Behind"]);
    expect((await send("POST", "/v1/admin/frontpage-messages", { title: "Course news", content: "c", is_active: true })).status).toBe(201);
    expect(await advisoryTitles()).toEqual(["Course news", "Behind"]);

    // The rules bundle carries the settings: a save is seen at once.
    expect((await getJson("/v1/system/rules")).appSettings.release_time).toBe(DEFAULT_SETTINGS.release_time);
    expect((await send("PUT", "/v1/admin/app-settings", { ...DEFAULT_SETTINGS, release_time: "06:30" })).status).toBe(200);
    expect((await getJson("/v1/system/rules")).appSettings.release_time).toBe("06:30");
  });
});

describe("GET /v1/advisories", () => {
  test("scraped in the club's order; internal active only, newest first", async () => {
    t = await createTestApp();
    const row = (source: "internal" | "scraped", title: string, createdAt: number, isActive = true, eventDate: string | null = null) => ({
      source,
      title,
      content: `${title} • detail`,
      eventDate,
      isActive,
      createdAt,
      updatedAt: createdAt,
    });
    await t.deps.database.db
      .insert(advisories)
      .values([
        row("internal", "Old news", 1000),
        row("internal", "Hidden", 3000, false),
        row("internal", "Fresh news", 2000),
        row("scraped", "Course closed", 500, true, "2026-12-01"),
        row("scraped", "Tournament", 400),
      ]);
    const body = await getJson("/v1/advisories?_=9");
    expect(body.internal.map((a: { title: string }) => a.title)).toEqual(["Fresh news", "Old news"]);
    expect(body.scraped.map((a: { title: string }) => a.title)).toEqual(["Course closed", "Tournament"]);
    expect(body.scraped[0]).toEqual({
      id: expect.any(Number),
      title: "Course closed",
      content: "Course closed • detail",
      eventDate: "2026-12-01",
      is_active: true,
      created_at: 500,
    });
  });
});
