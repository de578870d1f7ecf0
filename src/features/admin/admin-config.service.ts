/**
 * The club configuration admins edit: courses, booking windows, holidays, booking rules
 * and front-page messages (internal advisories), read back in the product's snake_case shapes.
 * Inputs reach these functions already checked (admin-config.checks.ts).
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { advisories, bookingRules, bookingWindows, courses, holidays } from "../../db/schema.ts";
import { sortAdvisories } from "../../domain/advisories.ts";
import type { BookingRule, Course, Holiday } from "../../domain/booking-rules.ts";
import { toAdvisory, toBookingRule } from "../../services/booking-config.service.ts";
import type { Advisory } from "../../domain/record-schemas.ts";
import { adminError } from "./admin-support.ts";

export interface BookingWindowView {
  id: number;
  rule_key: string;
  start_time: string;
  end_time: string;
}

/** A front-page message is an internal advisory. */
export type FrontpageMessage = Advisory;

export interface FullConfig {
  courses: AdminCourse[];
  bookingWindows: BookingWindowView[];
  frontpageMessages: FrontpageMessage[];
  holidays: Holiday[];
  bookingRules: BookingRule[];
}

export type WindowInput = Omit<BookingWindowView, "id">;
export type RuleInput = Omit<BookingRule, "id">;
export type MessageInput = Omit<FrontpageMessage, "id" | "created_at">;

// ---- reading -------------------------------------------------------------------------------

/** A course as admins edit it: with the other names the club's pages use for it. */
export type AdminCourse = Course & { aliases: string[] };

export async function listCourses(db: Db): Promise<AdminCourse[]> {
  const rows = await db.select().from(courses).orderBy(asc(courses.position), asc(courses.id));
  return rows.map((r) => ({ id: r.id, name: r.name, days_active: r.daysActive, aliases: r.aliases ?? [] }));
}

async function listWindows(db: Db): Promise<BookingWindowView[]> {
  const rows = await db.select().from(bookingWindows).orderBy(asc(bookingWindows.ruleKey), asc(bookingWindows.startTime), asc(bookingWindows.id));
  return rows.map((r) => ({ id: r.id, rule_key: r.ruleKey, start_time: r.startTime, end_time: r.endTime }));
}

async function listHolidays(db: Db): Promise<Holiday[]> {
  const rows = await db.select().from(holidays).orderBy(asc(holidays.date));
  return rows.map((r) => ({ date: r.date, name: r.name }));
}

async function listRules(db: Db): Promise<BookingRule[]> {
  const rows = await db.select().from(bookingRules).orderBy(asc(bookingRules.priority), asc(bookingRules.id));
  return rows.map(toBookingRule);
}

async function listMessages(db: Db): Promise<FrontpageMessage[]> {
  const rows = await db.select().from(advisories).where(eq(advisories.source, "internal")).orderBy(desc(advisories.createdAt));
  return sortAdvisories(rows.map(toAdvisory));
}

export async function readFullConfig(db: Db): Promise<FullConfig> {
  return {
    courses: await listCourses(db),
    bookingWindows: await listWindows(db),
    frontpageMessages: await listMessages(db),
    holidays: await listHolidays(db),
    bookingRules: await listRules(db),
  };
}

// ---- courses -------------------------------------------------------------------------------

async function findCourseId(db: Db, id: string): Promise<string | null> {
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(eq(sql`lower(${courses.id})`, id.toLowerCase()))
    .limit(1);
  return rows[0]?.id ?? null;
}

export async function addCourse(db: Db, course: Course, aliases: string[] = []): Promise<AdminCourse> {
  if (await findCourseId(db, course.id)) throw adminError("admin.courses.error_exists");
  const [{ last }] = await db.select({ last: sql<number | null>`max(${courses.position})` }).from(courses);
  await db.insert(courses).values({ id: course.id, name: course.name, daysActive: course.days_active, aliases, position: Number(last ?? -1) + 1 });
  return { ...course, aliases };
}

/** Aliases left out keep the stored ones. */
export async function changeCourse(db: Db, id: string, fields: Omit<Course, "id">, aliases?: string[]): Promise<AdminCourse> {
  const rows = await db
    .update(courses)
    .set({ name: fields.name, daysActive: fields.days_active, ...(aliases ? { aliases } : {}) })
    .where(eq(courses.id, id))
    .returning();
  if (!rows[0]) throw adminError("admin.courses.error_not_found", 404);
  return { id, ...fields, aliases: rows[0].aliases ?? [] };
}

export async function removeCourse(db: Db, id: string): Promise<void> {
  const rows = await db.delete(courses).where(eq(courses.id, id)).returning({ id: courses.id });
  if (!rows[0]) throw adminError("admin.courses.error_not_found", 404);
}

// ---- booking windows -----------------------------------------------------------------------

export async function addWindow(db: Db, input: WindowInput): Promise<BookingWindowView> {
  const [row] = await db.insert(bookingWindows).values({ ruleKey: input.rule_key, startTime: input.start_time, endTime: input.end_time }).returning();
  return { id: row.id, ...input };
}

export async function changeWindow(db: Db, id: number, input: WindowInput): Promise<BookingWindowView> {
  const rows = await db.update(bookingWindows).set({ ruleKey: input.rule_key, startTime: input.start_time, endTime: input.end_time }).where(eq(bookingWindows.id, id)).returning();
  if (!rows[0]) throw adminError("admin.windows.error_not_found", 404);
  return { id, ...input };
}

export async function removeWindow(db: Db, id: number): Promise<void> {
  const rows = await db.delete(bookingWindows).where(eq(bookingWindows.id, id)).returning({ id: bookingWindows.id });
  if (!rows[0]) throw adminError("admin.windows.error_not_found", 404);
}

// ---- holidays ------------------------------------------------------------------------------

export async function addHoliday(db: Db, holiday: Holiday): Promise<Holiday> {
  const existing = await db.select({ date: holidays.date }).from(holidays).where(eq(holidays.date, holiday.date)).limit(1);
  if (existing[0]) throw adminError("admin.holidays.error_exists");
  await db.insert(holidays).values(holiday);
  return holiday;
}

export async function renameHoliday(db: Db, date: string, name: string | null): Promise<Holiday> {
  const rows = await db.update(holidays).set({ name }).where(eq(holidays.date, date)).returning();
  if (!rows[0]) throw adminError("admin.holidays.error_not_found", 404);
  return { date, name };
}

export async function removeHoliday(db: Db, date: string): Promise<void> {
  const rows = await db.delete(holidays).where(eq(holidays.date, date)).returning({ date: holidays.date });
  if (!rows[0]) throw adminError("admin.holidays.error_not_found", 404);
}

// ---- booking rules -------------------------------------------------------------------------

function ruleColumns(input: RuleInput) {
  return {
    priority: input.priority,
    daysOfWeek: input.days_of_week,
    appliesOnHolidays: input.applies_on_holidays,
    startTime: input.start_time,
    endTime: input.end_time,
    minPlayers: input.min_players,
    maxPlayers: input.max_players,
    maxGuests: input.max_guests,
  };
}

export async function addRule(db: Db, input: RuleInput): Promise<BookingRule> {
  const [row] = await db.insert(bookingRules).values(ruleColumns(input)).returning();
  return toBookingRule(row);
}

export async function changeRule(db: Db, id: number, input: RuleInput): Promise<BookingRule> {
  const rows = await db.update(bookingRules).set(ruleColumns(input)).where(eq(bookingRules.id, id)).returning();
  if (!rows[0]) throw adminError("admin.rules.error_not_found", 404);
  return toBookingRule(rows[0]);
}

export async function removeRule(db: Db, id: number): Promise<void> {
  const rows = await db.delete(bookingRules).where(eq(bookingRules.id, id)).returning({ id: bookingRules.id });
  if (!rows[0]) throw adminError("admin.rules.error_not_found", 404);
}

// ---- front-page messages -------------------------------------------------------------------

const isInternal = (id: number) => and(eq(advisories.id, id), eq(advisories.source, "internal"));

export async function addMessage(db: Db, input: MessageInput, now: number): Promise<FrontpageMessage> {
  const [row] = await db
    .insert(advisories)
    .values({ source: "internal", title: input.title, content: input.content, eventDate: input.eventDate, isActive: input.is_active, createdAt: now, updatedAt: now })
    .returning();
  return toAdvisory(row);
}

export async function changeMessage(db: Db, id: number, input: MessageInput, now: number): Promise<FrontpageMessage> {
  const rows = await db
    .update(advisories)
    .set({ title: input.title, content: input.content, eventDate: input.eventDate, isActive: input.is_active, updatedAt: now })
    .where(isInternal(id))
    .returning();
  if (!rows[0]) throw adminError("admin.frontpage.error_not_found", 404);
  return toAdvisory(rows[0]);
}

export async function removeMessage(db: Db, id: number): Promise<void> {
  const rows = await db.delete(advisories).where(isInternal(id)).returning({ id: advisories.id });
  if (!rows[0]) throw adminError("admin.frontpage.error_not_found", 404);
}
