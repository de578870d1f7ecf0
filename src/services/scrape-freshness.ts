/**
 * How fresh the stored tee sheets are: the time the availability answers give as the last scrape,
 * which the scraper also reports after each run (decision 061).
 */
import { desc, gte, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { scrapeRuns, teeTimeSlots } from "../db/schema.ts";
import { readSettings } from "./settings.service.ts";

/** Runs that stored data; a failed run keeps the previous data and so the previous time. */
const STORING_RUN_STATUSES = ["ok", "partial"] as const;

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
