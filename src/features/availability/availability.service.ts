/**
 * Reads behind the availability calls: stored tee times and the last scrape time, the bookable
 * dates, the rules bundle the booking page needs, and the advisories.
 */
import { and, asc, desc, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { advisories, bookingRules, bookingWindows, courses, holidays, scrapeRuns, teeTimeSlots } from "../../db/schema.ts";
import type { BookingRule, Course } from "../../domain/booking-rules.ts";
import { listBookableDates, type DateEntry, type TeeTimeDay } from "../../domain/date-kinds.ts";
import { addDays, manilaDate, manilaInstant } from "../../domain/manila-time.ts";
import { groupWindows } from "../../domain/windows.ts";
import { readSettings } from "../settings/settings.service.ts";
import type { Advisory, AdvisoriesResponse, RulesResponse, TeeTimesResponse } from "./availability.schemas.ts";

/** Runs that stored data; a failed run keeps the previous data and so the previous time. */
const STORING_RUN_STATUSES = ["ok", "partial"] as const;

export async function readCourses(db: Db): Promise<Course[]> {
  const rows = await db.select().from(courses).orderBy(asc(courses.position), asc(courses.id));
  return rows.map((r) => ({ id: r.id, name: r.name, days_active: [...r.daysActive].sort((a, b) => a - b) }));
}

/**
 * When the data members see was read: the oldest read time of the tee sheets shown from `today`
 * on (each sheet keeps its own, moved on only when the club's page was read), so a run that
 * could not read a sheet does not make it look fresh. Full days of courses_to_skip_on_full are
 * left out: they are not read again on purpose. With no sheet shown, the last run that stored
 * data. The 180 s stale check (spec §9) reads this same figure. See decision 061.
 */
export async function readLastScrapeTime(db: Db, today?: string): Promise<number | null> {
  const rows = await db
    .select({ date: teeTimeSlots.date, courseId: teeTimeSlots.courseId, status: teeTimeSlots.status, scrapedAt: teeTimeSlots.scrapedAt })
    .from(teeTimeSlots)
    .where(today ? gte(teeTimeSlots.date, today) : undefined);
  const skipWhenFull = new Set((await readSettings(db)).courses_to_skip_on_full.map((id) => id.toLowerCase()));
  const oldest = oldestSheetReadAt(rows, skipWhenFull);
  if (oldest !== null) return oldest;
  const runs = await db
    .select({ finishedAt: scrapeRuns.finishedAt })
    .from(scrapeRuns)
    .where(inArray(scrapeRuns.status, [...STORING_RUN_STATUSES]))
    .orderBy(desc(scrapeRuns.finishedAt))
    .limit(1);
  return runs[0]?.finishedAt ?? null;
}

/** The oldest per-sheet read time, leaving out full sheets of courses that are skipped when full. */
export function oldestSheetReadAt(rows: readonly { date: string; courseId: string; status: string; scrapedAt: number }[], skipWhenFull: ReadonlySet<string>): number | null {
  const sheets = new Map<string, { readAt: number; courseId: string; hasAvailable: boolean }>();
  for (const row of rows) {
    const key = `${row.date}|${row.courseId}`;
    const sheet = sheets.get(key) ?? { readAt: row.scrapedAt, courseId: row.courseId, hasAvailable: false };
    sheet.readAt = Math.max(sheet.readAt, row.scrapedAt);
    sheet.hasAvailable ||= row.status === "AVAILABLE";
    sheets.set(key, sheet);
  }
  let oldest: number | null = null;
  for (const sheet of sheets.values()) {
    if (!sheet.hasAvailable && skipWhenFull.has(sheet.courseId.toLowerCase())) continue;
    oldest = oldest === null ? sheet.readAt : Math.min(oldest, sheet.readAt);
  }
  return oldest;
}

/**
 * GET /v1/tee-times is what every member's screen reads most, so its JSON is kept ready per Manila
 * day and dropped whenever the scraper stores a run or an admin changes what members see.
 */
interface TeeTimesJson {
  today: string;
  /** The next Manila midnight: until then `today` holds without working out the date again. */
  validUntil: number;
  /** Encoded once: re-encoding tens of kilobytes per request would cost more than the rest of it. */
  body: Uint8Array<ArrayBuffer>;
}
const teeTimesCaches = new WeakMap<object, TeeTimesJson>();

export async function readTeeTimesJson(deps: { database: { db: Db }; clock: { now(): number } }): Promise<Uint8Array<ArrayBuffer>> {
  const now = deps.clock.now();
  const cached = teeTimesCaches.get(deps.database);
  if (cached && now < cached.validUntil) return cached.body;
  const today = manilaDate(now);
  const body = new TextEncoder().encode(JSON.stringify(await readTeeTimes(deps.database.db, now)));
  teeTimesCaches.set(deps.database, { today, validUntil: manilaInstant(addDays(today, 1)), body });
  return body;
}

export function forgetTeeTimesCache(deps: { database: object }): void {
  teeTimesCaches.delete(deps.database);
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

export function toBookingRule(r: typeof bookingRules.$inferSelect): BookingRule {
  return {
    id: r.id,
    priority: r.priority,
    days_of_week: [...r.daysOfWeek].sort((a, b) => a - b),
    applies_on_holidays: r.appliesOnHolidays,
    start_time: r.startTime,
    end_time: r.endTime,
    min_players: r.minPlayers,
    max_players: r.maxPlayers,
    max_guests: r.maxGuests,
  };
}

export async function readRules(db: Db): Promise<RulesResponse> {
  const [ruleRows, holidayRows, courseSchedule, windowRows, appSettings] = await Promise.all([
    db.select().from(bookingRules).orderBy(asc(bookingRules.priority), asc(bookingRules.id)),
    db.select().from(holidays).orderBy(asc(holidays.date)),
    readCourses(db),
    db.select().from(bookingWindows).orderBy(asc(bookingWindows.startTime)),
    readSettings(db),
  ]);
  const rules = ruleRows.map(toBookingRule);

  return {
    bookingRules: { rules, holidays: holidayRows.map((h) => ({ date: h.date, name: h.name })) },
    courseSchedule,
    appSettings,
    allowedWindows: groupWindows(windowRows.map((w) => ({ rule_key: w.ruleKey, start_time: w.startTime, end_time: w.endTime }))),
  };
}

export function toAdvisory(row: typeof advisories.$inferSelect): Advisory {
  return { id: row.id, title: row.title, content: row.content, eventDate: row.eventDate, is_active: row.isActive, created_at: row.createdAt };
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
