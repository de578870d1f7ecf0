/**
 * The club's booking set-up as members and admins read it: courses, booking rules, holidays,
 * windows and settings in one bundle (GET /v1/system/rules), and the shapes of stored rules and
 * advisories. Availability, bookings and the admin area all read it.
 */
import { asc } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type advisories, bookingRules, bookingWindows, courses, holidays } from "../db/schema.ts";
import type { BookingRule, Course } from "../domain/booking-rules.ts";
import type { Advisory } from "../domain/record-schemas.ts";
import { groupWindows } from "../domain/windows.ts";
import type { RulesResponse } from "../features/availability/availability.schemas.ts";
import { readSettings } from "./settings.service.ts";

export async function readCourses(db: Db): Promise<Course[]> {
  const rows = await db.select().from(courses).orderBy(asc(courses.position), asc(courses.id));
  return rows.map((r) => ({ id: r.id, name: r.name, days_active: [...r.daysActive].sort((a, b) => a - b) }));
}

/**
 * When the data members see was read: the oldest read time of the tee sheets shown from `today`
 * on (each sheet keeps its own, moved on only when the club's page was read), so a run that
 * could not read a sheet does not make it look fresh. Full days of courses_to_skip_on_full are
 * left out: they are not read again on purpose. With no sheet shown, the last run that stored
 * data. The 180 s stale check reads this same figure. See decision 061.
 */
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
