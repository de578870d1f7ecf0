/**
 * What real clubs do to a scrape: end the session mid-run, and leave some sheets unread.
 * The scraper signs in again once and retries the page; freshness stays honest.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { and, asc, eq } from "drizzle-orm";
import { auditLog, teeTimeSlots } from "../../src/db/schema.ts";
import { readTeeTimes } from "../../src/features/availability/availability.service.ts";
import { readLastScrapeTime } from "../../src/services/scrape-freshness.ts";

import { createScraperFixture, type ScraperFixture } from "./scraper-fixture.ts";

const SHEETS_IN_RANGE = 13;
let f: ScraperFixture;
const logins = () => f.t.deps.database.db.select().from(auditLog).where(eq(auditLog.action, "club.login"));
afterEach(() => f?.close());

const slotsOf = (date: string, course: string) =>
  f.t.deps.database.db
    .select()
    .from(teeTimeSlots)
    .where(and(eq(teeTimeSlots.date, date), eq(teeTimeSlots.courseId, course)))
    .orderBy(asc(teeTimeSlots.time));

/** A club whose sessions all end after the `after`-th tee sheet has been asked for. */
function droppingClub(after: number, drops: () => void) {
  let asked = 0;
  return {
    fetchAdvisories: () => f.t.deps.club.fetchAdvisories(),
    openSession: async (userId: number) => {
      const session = await f.t.deps.sessions.forMember(userId);
      return {
        fetchTeeSheet: async (date: string, course: string) => {
          asked++;
          if (asked === after) drops();
          return session.fetchTeeSheet(date, course);
        },
      };
    },
  };
}

describe("the club ends the session mid-run", () => {
  test("the scraper signs in again once and reads every remaining page", async () => {
    f = await createScraperFixture({ concurrency: 1, club: droppingClub(4, () => f.sim.dropAllSessions()) });
    const loginsBefore = (await logins()).length;
    const summary = await f.scraper.run("manual");
    // Pages read after the drop: every one of the sheets after the 4th, and the advisories.
    expect(summary).toMatchObject({ status: "ok", pages: SHEETS_IN_RANGE + 1, failures: 0 });
    expect((await logins()).length - loginsBefore).toBe(2);
    expect((await logins()).every((l) => l.outcome === "ok")).toBe(true);
  });

  test("with three pages in flight, each dropped page is retried after one shared sign-in", async () => {
    f = await createScraperFixture({ concurrency: 3, club: droppingClub(5, () => f.sim.dropAllSessions()) });
    const loginsBefore = (await logins()).length;
    const summary = await f.scraper.run("manual");
    expect(summary).toMatchObject({ status: "ok", pages: SHEETS_IN_RANGE + 1, failures: 0 });
    // One sign-in at the start and one after the drop, shared by the pages in flight.
    expect((await logins()).length - loginsBefore).toBe(2);
  });

  test("a club that drops every session fails each page with the reason, and keeps the old data", async () => {
    f = await createScraperFixture();
    await f.scraper.run("manual");
    const before = await slotsOf("2026-11-26", "masters");
    f.sim.setFaults({ dropSessions: true });
    await f.t.clock.advance(60_000);
    const summary = await f.scraper.run("manual");
    expect(summary.failures).toBe(SHEETS_IN_RANGE);
    expect(await slotsOf("2026-11-26", "masters")).toEqual(before);
    // The monitor gets one line: the count, grouped by reason, the first few named.
    expect(summary.error).toStartWith(`${SHEETS_IN_RANGE} of ${SHEETS_IN_RANGE + 1} pages could not be read: ${SHEETS_IN_RANGE} × the club ended the session`);
    expect(summary.error).toContain(`and ${SHEETS_IN_RANGE - 3} more`);
    expect(summary.error!.match(/tee sheet /g)).toHaveLength(3);
    expect(f.t.deps.jobs.get("scraper")?.lastError).toContain("× the club ended the session");
  });
});

describe("the demo club's second portal", () => {
  test("a run against the legacy portal stores the same sheets and advisories as the standard one", async () => {
    f = await createScraperFixture();
    f.sim.setFaults({ layout: "legacy" });
    const legacy = await f.scraper.run("manual");
    expect(legacy).toMatchObject({ status: "ok", pages: SHEETS_IN_RANGE + 1, failures: 0, changed: true });
    const read = await slotsOf("2026-11-24", "masters");
    expect(read.length).toBeGreaterThan(50);
    for (const slot of read) expect(slot.status).toBe(f.sim.slotStatus("2026-11-24", "masters", slot.time));

    f.sim.setFaults({ layout: "standard" });
    await f.t.clock.advance(60_000);
    // Nothing differs when the same club is read through its other portal.
    expect(await f.scraper.run("manual")).toMatchObject({ status: "ok", changed: false });
  });
});

describe("honest freshness", () => {
  test("a sheet a run could not read keeps its old read time, and lastScrapeTime is the oldest sheet shown", async () => {
    let isBroken = false;
    f = await createScraperFixture({
      club: {
        fetchAdvisories: () => f.t.deps.club.fetchAdvisories(),
        openSession: async (userId) => {
          const session = await f.t.deps.sessions.forMember(userId);
          return {
            fetchTeeSheet: (date, course) =>
              isBroken && date === "2026-11-27" && course === "legends" ? Promise.reject(new Error("connection reset")) : session.fetchTeeSheet(date, course),
          };
        },
      },
    });
    const db = f.t.deps.database.db;
    const first = await f.scraper.run("manual");
    expect(await readLastScrapeTime(db, "2026-11-22")).toBe(first.finishedAt);

    isBroken = true;
    await f.t.clock.advance(120_000);
    const partial = await f.scraper.run("manual");
    expect(partial.status).toBe("partial");
    expect(partial.error).toContain("tee sheet legends 2026-11-27");
    expect(partial.error).toContain("last good data was kept");
    // Every other sheet was read now; the one that was not keeps the first run's time.
    expect((await slotsOf("2026-11-26", "masters"))[0].scrapedAt).toBe(partial.finishedAt);
    expect((await slotsOf("2026-11-27", "legends"))[0].scrapedAt).toBe(first.finishedAt);
    expect(partial.lastScrapeTime).toBe(first.finishedAt);
    const teeTimes = await readTeeTimes(db, f.t.clock.now());
    expect(teeTimes.lastScrapeTime).toBe(first.finishedAt);
    // So the 180 s stale check (decision 061) sees what members see: 120 s old, then older.
    expect(f.t.clock.now() - teeTimes.lastScrapeTime!).toBeGreaterThanOrEqual(120_000);

    isBroken = false;
    await f.t.clock.advance(60_000);
    const whole = await f.scraper.run("manual");
    expect(whole.status).toBe("ok");
    expect((await readTeeTimes(db, f.t.clock.now())).lastScrapeTime).toBe(whole.finishedAt);
  });
});
