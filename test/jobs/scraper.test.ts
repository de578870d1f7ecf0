import { afterEach, describe, expect, test } from "bun:test";
import { and, asc, eq } from "drizzle-orm";
import { ClubError } from "../../src/club/errors.ts";
import { advisories, scrapeRuns, teeTimeSlots } from "../../src/db/schema.ts";
import { ADMIN_PASSWORD } from "../helpers/api.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { readSettings, writeSettings } from "../../src/services/settings.service.ts";
import { readLastScrapeTime } from "../../src/services/scrape-freshness.ts";
import { findScraperUser, SCRAPE_INTERVAL_MS } from "../../src/jobs/scraper.ts";
import { userIdOf } from "../helpers/api.ts";
import { createScraperFixture, type ScraperFixture } from "./scraper-fixture.ts";

/** TEST_NOW is Sunday 2026-11-22; the default 8 days run to Sunday 11-29. Masters is closed on
 * Sundays and Legends on Mondays, so 16 − 3 = 13 tee sheets, plus the advisories page. */
const SHEETS_IN_RANGE = 13;

let f: ScraperFixture;
afterEach(() => f?.close());

const slotsOf = (date: string, course: string) =>
  f.t.deps.database.db
    .select()
    .from(teeTimeSlots)
    .where(and(eq(teeTimeSlots.date, date), eq(teeTimeSlots.courseId, course)))
    .orderBy(asc(teeTimeSlots.time));
const statusUpdates = () => f.t.published.filter((p) => p.message.type === "status");
const runs = () => f.t.deps.database.db.select().from(scrapeRuns).orderBy(asc(scrapeRuns.id));

describe("a run against the demo club", () => {
  test("stores every open tee sheet and the advisories, records the run and tells every member", async () => {
    f = await createScraperFixture();
    // What members read before the run is kept; the run's news must replace it.
    const cookie = await f.t.signIn("admin", ADMIN_PASSWORD);
    const readAdvisories = async () => (await (await f!.t.call("GET", "/v1/advisories", { cookie })).json()).scraped as unknown[];
    expect(await readAdvisories()).toEqual([]);
    const summary = await f.scraper.run("manual");

    expect(summary).toMatchObject({ status: "ok", pages: SHEETS_IN_RANGE + 1, failures: 0, changed: true, error: null });
    const stored = await slotsOf("2026-11-24", "masters");
    expect(stored.length).toBeGreaterThan(50);
    for (const slot of stored.slice(0, 10)) expect(slot.status).toBe(f.sim.slotStatus("2026-11-24", "masters", slot.time));
    expect(await slotsOf("2026-11-22", "masters")).toEqual([]);
    const scraped = await f.t.deps.database.db.select().from(advisories).where(eq(advisories.source, "scraped"));
    expect(scraped.length).toBeGreaterThan(0);
    expect(await readAdvisories()).toHaveLength(scraped.length);

    const [run] = await runs();
    expect(run).toMatchObject({ trigger: "manual", status: "ok", pages: SHEETS_IN_RANGE + 1, failures: 0, changed: true });
    expect(run.finishedAt).toBe(summary.finishedAt);
    expect(await readLastScrapeTime(f.t.deps.database.db)).toBe(summary.finishedAt);
    expect(statusUpdates()).toEqual([{ topic: "members", message: { type: "status", status: "updated", changed: ["tee-times", "advisories"] } }]);
    expect(f.t.deps.jobs.get("scraper")).toMatchObject({ lastRunAt: summary.finishedAt, lastError: null });
  });

  test("a run that finds nothing new stays quiet; a changed slot is stored and pushed", async () => {
    f = await createScraperFixture();
    await f.scraper.run("manual");
    await f.t.clock.advance(60_000);
    const quiet = await f.scraper.run("manual");
    expect(quiet).toMatchObject({ status: "ok", changed: false });
    expect(statusUpdates()).toHaveLength(1);
    expect(await readLastScrapeTime(f.t.deps.database.db)).toBe(quiet.finishedAt);

    const [first] = await slotsOf("2026-11-25", "legends");
    const next = first.status === "AVAILABLE" ? "BOOKED" : "AVAILABLE";
    f.sim.setSlotStatus("2026-11-25", "legends", first.time, next);
    await f.t.clock.advance(60_000);
    expect(await f.scraper.run("schedule")).toMatchObject({ status: "ok", changed: true });
    expect((await slotsOf("2026-11-25", "legends"))[0].status).toBe(next);
    expect(statusUpdates()).toHaveLength(2);
  });

  test("a run while the club is down keeps the last good data and says so", async () => {
    f = await createScraperFixture();
    const good = await f.scraper.run("manual");
    const before = await slotsOf("2026-11-26", "masters");

    f.sim.setFaults({ down: true });
    await f.t.clock.advance(60_000);
    const failed = await f.scraper.run("schedule");
    expect(failed.status).toBe("failed");
    expect(failed.failures).toBe(failed.pages);
    expect(failed.error).toContain("last good data was kept");
    expect(await slotsOf("2026-11-26", "masters")).toEqual(before);
    expect(await readLastScrapeTime(f.t.deps.database.db)).toBe(good.finishedAt);
    const last = (await runs()).at(-1)!;
    expect(last).toMatchObject({ status: "failed", changed: false });
    expect(last.error).toContain("last good data was kept");
    expect(f.t.deps.jobs.get("scraper")?.status).toBe("errored");
    expect(statusUpdates()).toHaveLength(1);

    f.sim.setFaults({ down: false });
    await f.t.clock.advance(60_000);
    expect((await f.scraper.run("schedule")).status).toBe("ok");
    expect(f.t.deps.jobs.get("scraper")?.status).toBe("online");
  });

  test("a page the adapter cannot read is logged by name and keeps its old data; the rest is stored", async () => {
    let isBroken = false;
    f = await createScraperFixture({
      club: {
        fetchAdvisories: () => f.t.deps.club.fetchAdvisories(),
        openSession: async (userId) => {
          const session = await f.t.deps.sessions.forMember(userId);
          return {
            fetchTeeSheet: (date, course) =>
              isBroken && date === "2026-11-27" && course === "legends"
                ? Promise.reject(
                    new ClubError("page_not_understood", "The club's tee sheet page could not be read: slot rows not found.", { page: "tee sheet", missing: "slot rows" }),
                  )
                : session.fetchTeeSheet(date, course),
          };
        },
      },
    });
    await f.scraper.run("manual");
    const before = await slotsOf("2026-11-27", "legends");
    f.sim.setSlotStatus("2026-11-27", "legends", before[0].time, before[0].status === "BOOKED" ? "AVAILABLE" : "BOOKED");
    isBroken = true;
    await f.t.clock.advance(60_000);
    const partial = await f.scraper.run("manual");

    expect(partial).toMatchObject({ status: "partial", failures: 1, pages: SHEETS_IN_RANGE + 1 });
    expect(partial.error).toContain("tee sheet legends 2026-11-27");
    expect(await slotsOf("2026-11-27", "legends")).toEqual(before);
    const logged = f.t.logLines.map((line) => JSON.parse(line)).find((entry) => entry.message === "scraper could not read a page");
    expect(logged).toMatchObject({ page: "tee sheet legends 2026-11-27", reason: "page_not_understood", missing: "slot rows" });
  });

  test("courses_to_skip_on_full: a full day of a listed course is not read again", async () => {
    f = await createScraperFixture();
    await f.scraper.run("manual");
    const day = await slotsOf("2026-11-28", "legends");
    for (const slot of day) f.sim.setSlotStatus("2026-11-28", "legends", slot.time, "BOOKED");
    await writeSettings(f.t.deps.database.db, { ...(await readSettings(f.t.deps.database.db)), courses_to_skip_on_full: ["legends"] });
    await f.t.clock.advance(60_000);
    expect(await f.scraper.run("manual")).toMatchObject({ pages: SHEETS_IN_RANGE + 1, changed: true });

    // Now stored as full: the next runs skip that sheet, even when the club frees a slot.
    f.sim.setSlotStatus("2026-11-28", "legends", day[0].time, "AVAILABLE");
    await f.t.clock.advance(60_000);
    const skipped = await f.scraper.run("manual");
    expect(skipped).toMatchObject({ pages: SHEETS_IN_RANGE, changed: false });
    expect((await slotsOf("2026-11-28", "legends")).every((s) => s.status === "BOOKED")).toBe(true);
  });
});

describe("the borrowed club login", () => {
  test("is the admin's in the demo; scraper_username names another user", async () => {
    f = await createScraperFixture();
    const db = f.t.deps.database.db;
    expect(await findScraperUser(db, DEFAULT_SETTINGS)).toEqual({ userId: await userIdOf(f.t, "admin") });
    expect(await findScraperUser(db, { scraper_username: "Maria" })).toEqual({ userId: await userIdOf(f.t, "maria") });
    expect(await findScraperUser(db, { scraper_username: "nobody" })).toEqual({ problem: "The scraper user 'nobody' is not an active user with a club login." });
  });

  test("with no club login anywhere, the run fails with the reason and stores nothing", async () => {
    f = await createScraperFixture({}, { demo: false });
    const summary = await f.scraper.run("startup");
    expect(summary.status).toBe("failed");
    expect(summary.error).toContain("No club login to read the tee sheet with");
    expect(await f.t.deps.database.db.select().from(teeTimeSlots)).toEqual([]);
  });
});

describe("schedule and concurrency", () => {
  test("runs at start, then every interval on the clock; never two at once", async () => {
    f = await createScraperFixture();
    const [a, b] = [f.scraper.run("manual"), f.scraper.run("manual")];
    expect(a).toBe(b);
    await a;

    await f.t.clock.advance(60_000);
    f.scraper.start();
    // The start-up run joins the work queue at once; wait for it through the run it is.
    expect(f.scraper.isRunning()).toBe(true);
    await f.scraper.run("manual");
    await f.t.clock.advance(SCRAPE_INTERVAL_MS);
    expect(f.scraper.isRunning()).toBe(true);
    await f.scraper.run("manual");
    await f.scraper.stop();
    expect((await runs()).map((r) => r.trigger)).toEqual(["manual", "startup", "schedule"]);
    expect(f.t.deps.jobs.get("scraper")?.status).toBe("stopped");
  });
});
