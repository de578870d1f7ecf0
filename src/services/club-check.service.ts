/**
 * The club check as Teebox runs it: the courses (with their aliases) and the date range come
 * from Teebox's own settings, the login from the caller. Used by `teebox check-club` and by
 * POST /v1/admin/club-check.
 */
import { asc } from "drizzle-orm";
import { checkClub, type ClubCheckReport } from "../club/check.ts";
import type { NumericDateOrder } from "../club/text.ts";
import type { ClubPoliteness } from "../club/politeness.ts";
import type { Db } from "../db/client.ts";
import { courses } from "../db/schema.ts";
import { manilaDate } from "../domain/manila-time.ts";
import type { Clock } from "../lib/clock.ts";
import { readSettings } from "./settings.service.ts";

export interface RunClubCheckInput {
  db: Db;
  clock: Clock;
  clubUrl: string;
  email: string;
  password: string;
  timeoutMs?: number;
  /** How the club writes numeric dates (CLUB_DATE_ORDER). */
  numericDateOrder?: NumericDateOrder | null;
  /** The running Teebox's club budget and counts (absent from the command line). */
  politeness?: ClubPoliteness;
}

export async function runClubCheck(input: RunClubCheckInput): Promise<ClubCheckReport> {
  const [rows, settings] = await Promise.all([input.db.select().from(courses).orderBy(asc(courses.position), asc(courses.id)), readSettings(input.db)]);
  return checkClub({
    baseUrl: input.clubUrl,
    email: input.email,
    password: input.password,
    courses: rows.map((r) => ({ id: r.id, name: r.name, aliases: r.aliases ?? [] })),
    today: manilaDate(input.clock.now()),
    horizonDays: settings.scraper_date_range_days,
    timeoutMs: input.timeoutMs,
    clock: input.clock,
    numericDateOrder: input.numericDateOrder ?? null,
    politeness: input.politeness,
  });
}
