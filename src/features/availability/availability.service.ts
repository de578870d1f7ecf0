/**
 * Reads behind the availability calls: stored tee times and the last scrape time, the bookable
 * dates, the rules bundle the booking page needs, and the advisories.
 */
import { and, asc, desc, eq, gte } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { advisories, teeTimeSlots } from "../../db/schema.ts";
import { listBookableDates, type DateEntry, type TeeTimeDay } from "../../domain/date-kinds.ts";
import { manilaDate } from "../../domain/manila-time.ts";
import { readCourses, readRules, toAdvisory } from "../../services/booking-config.service.ts";
import { readLastScrapeTime } from "../../services/scrape-freshness.ts";
import { readSettings } from "../../services/settings.service.ts";
import { cachedJson, type KeptJson } from "../../services/kept-answers.ts";
import type { AdvisoriesResponse, TeeTimesResponse } from "./availability.schemas.ts";

type KeptReadDeps = { database: { db: Db }; clock: { now(): number } };

export function readTeeTimesJson(deps: KeptReadDeps): Promise<KeptJson> {
  return cachedJson(deps, "tee-times", (now) => readTeeTimes(deps.database.db, now));
}

export function readRulesJson(deps: KeptReadDeps): Promise<KeptJson> {
  return cachedJson(deps, "rules", () => readRules(deps.database.db));
}

export function readAdvisoriesJson(deps: KeptReadDeps): Promise<KeptJson> {
  return cachedJson(deps, "advisories", () => readAdvisories(deps.database.db));
}

/** Stored tee sheets from today (Manila) on, by date, course order and time. */
export async function readTeeTimes(db: Db, now: number): Promise<TeeTimesResponse> {
  const today = manilaDate(now);
  const [rows, courseList, lastScrapeTime] = await Promise.all([
    db.select().from(teeTimeSlots).where(gte(teeTimeSlots.date, today)).orderBy(asc(teeTimeSlots.date), asc(teeTimeSlots.time)),
    readCourses(db),
    readLastScrapeTime(db, today),
  ]);
  const courseOrder = new Map(courseList.map((c, i) => [c.id, i]));
  const days = new Map<string, TeeTimeDay>();
  for (const row of rows) {
    const key = `${row.date}|${row.courseId}`;
    let day = days.get(key);
    if (!day) {
      day = { date: row.date, course: row.courseId, tee_times: [] };
      days.set(key, day);
    }
    day.tee_times.push({ time: row.time, status: row.status, slotId: row.slotId });
  }
  const rank = (course: string) => courseOrder.get(course) ?? Number.MAX_SAFE_INTEGER;
  const teeTimes = [...days.values()].sort((a, b) => a.date.localeCompare(b.date) || rank(a.course) - rank(b.course) || a.course.localeCompare(b.course));
  return { teeTimes, lastScrapeTime };
}

export async function readBookableDates(db: Db, now: number): Promise<DateEntry[]> {
  const settings = await readSettings(db);
  return listBookableDates(now, settings.ui_date_range_days, settings.booking_roll_hour);
}

export async function readAdvisories(db: Db): Promise<AdvisoriesResponse> {
  const [scraped, internal] = await Promise.all([
    db.select().from(advisories).where(eq(advisories.source, "scraped")).orderBy(asc(advisories.id)),
    db
      .select()
      .from(advisories)
      .where(and(eq(advisories.source, "internal"), eq(advisories.isActive, true)))
      .orderBy(desc(advisories.createdAt), desc(advisories.id)),
  ]);
  return { scraped: scraped.filter((a) => a.isActive).map(toAdvisory), internal: internal.map(toAdvisory) };
}
