/**
 * The one owner of standing requests and their occurrences (decision 180). Every write is
 * conditional on the state it expects, and an occurrence is claimed by its (series, date) unique
 * index, so two passes, a crash mid-pass or a member's change at the same moment never make two
 * requests for one date.
 *
 *   series:      active ──► ended                 (the member ends it)
 *   occurrence:  (none) | waiting | needs_attention ──► queued | needs_attention   (the series job)
 *                waiting | needs_attention | queued ──► skipped | cancelled       (the member skips; the series ends or no longer plays the date)
 */
import { and, asc, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { seriesOccurrences, standingSeries, type OccurrenceState } from "../db/schema.ts";

export type SeriesRow = typeof standingSeries.$inferSelect;
export type OccurrenceRow = typeof seriesOccurrences.$inferSelect;
export type SeriesFields = Omit<typeof standingSeries.$inferInsert, "id" | "userId" | "status" | "ledAt" | "createdAt" | "endedAt">;

/** Occurrences that are not yet a request and may become one. */
const OPEN_STATES: OccurrenceState[] = ["waiting", "needs_attention"];

export async function insertSeries(db: Db, row: Omit<typeof standingSeries.$inferInsert, "status">): Promise<SeriesRow> {
  const rows = await db
    .insert(standingSeries)
    .values({ ...row, status: "active" })
    .returning();
  return rows[0];
}

export async function findSeries(db: Db, id: number): Promise<SeriesRow | undefined> {
  return (await db.select().from(standingSeries).where(eq(standingSeries.id, id)).limit(1))[0];
}

export function seriesOfMember(db: Db, userId: number): Promise<SeriesRow[]> {
  return db.select().from(standingSeries).where(eq(standingSeries.userId, userId)).orderBy(asc(standingSeries.id));
}

export async function countActiveSeries(db: Db, userId: number): Promise<number> {
  return (
    await db
      .select({ id: standingSeries.id })
      .from(standingSeries)
      .where(and(eq(standingSeries.userId, userId), eq(standingSeries.status, "active")))
  ).length;
}

export function activeSeries(db: Db): Promise<SeriesRow[]> {
  return db.select().from(standingSeries).where(eq(standingSeries.status, "active")).orderBy(asc(standingSeries.id));
}

/** The member changes their active series; false when it is not theirs or has ended. */
export async function updateSeries(db: Db, userId: number, id: number, fields: SeriesFields, now: number): Promise<SeriesRow | null> {
  const rows = await db
    .update(standingSeries)
    .set({ ...fields, updatedAt: now })
    .where(and(eq(standingSeries.id, id), eq(standingSeries.userId, userId), eq(standingSeries.status, "active")))
    .returning();
  return rows[0] ?? null;
}

/** active → ended. */
export async function endSeries(db: Db, userId: number, id: number, now: number): Promise<boolean> {
  const rows = await db
    .update(standingSeries)
    .set({ status: "ended", endedAt: now, updatedAt: now })
    .where(and(eq(standingSeries.id, id), eq(standingSeries.userId, userId), eq(standingSeries.status, "active")))
    .returning({ id: standingSeries.id });
  return rows.length === 1;
}

/** The series led the line of the release at `releaseAt` (decision 181). */
export async function markLed(db: Db, id: number, releaseAt: number): Promise<void> {
  await db.update(standingSeries).set({ ledAt: releaseAt }).where(eq(standingSeries.id, id));
}

export function occurrencesOf(db: Db, seriesIds: number[], fromDate: string): Promise<OccurrenceRow[]> {
  if (seriesIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(seriesOccurrences)
    .where(and(inArray(seriesOccurrences.seriesId, seriesIds), gte(seriesOccurrences.playDate, fromDate)))
    .orderBy(asc(seriesOccurrences.playDate));
}

export async function findOccurrence(db: Db, seriesId: number, playDate: string): Promise<OccurrenceRow | undefined> {
  return (
    await db
      .select()
      .from(seriesOccurrences)
      .where(and(eq(seriesOccurrences.seriesId, seriesId), eq(seriesOccurrences.playDate, playDate)))
      .limit(1)
  )[0];
}

/**
 * Takes the date for a series: a new row in `state`, or null when the date already has one (the
 * unique index decides, whoever got there first).
 */
export async function claimOccurrence(
  db: Db,
  row: { seriesId: number; userId: number; playDate: string; state: OccurrenceState; times?: string[] | null; reason?: { key: string; context: Record<string, string> } | null },
  now: number,
): Promise<OccurrenceRow | null> {
  const rows = await db
    .insert(seriesOccurrences)
    .values({
      seriesId: row.seriesId,
      userId: row.userId,
      playDate: row.playDate,
      state: row.state,
      times: row.times ?? null,
      reasonKey: row.reason?.key ?? null,
      reasonContext: row.reason?.context ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  return rows[0] ?? null;
}

/** waiting | needs_attention → queued with its request; false when someone else moved it first. */
export async function markQueued(db: Db, id: number, requestId: number, now: number): Promise<boolean> {
  const rows = await db
    .update(seriesOccurrences)
    .set({ state: "queued", requestId, reasonKey: null, reasonContext: null, updatedAt: now })
    .where(and(eq(seriesOccurrences.id, id), inArray(seriesOccurrences.state, OPEN_STATES)))
    .returning({ id: seriesOccurrences.id });
  return rows.length === 1;
}

/** waiting | needs_attention → needs_attention, with why it cannot be queued. */
export async function markNeedsAttention(db: Db, id: number, why: { key: string; context: Record<string, string> }, now: number): Promise<boolean> {
  const rows = await db
    .update(seriesOccurrences)
    .set({ state: "needs_attention", reasonKey: why.key, reasonContext: why.context, updatedAt: now })
    .where(and(eq(seriesOccurrences.id, id), inArray(seriesOccurrences.state, OPEN_STATES)))
    .returning({ id: seriesOccurrences.id });
  return rows.length === 1;
}

/** A queued occurrence whose request is withdrawn (or another open one) ends as skipped or cancelled. */
export async function closeOccurrence(db: Db, id: number, state: "skipped" | "cancelled", now: number): Promise<boolean> {
  const rows = await db
    .update(seriesOccurrences)
    .set({ state, updatedAt: now })
    .where(and(eq(seriesOccurrences.id, id), inArray(seriesOccurrences.state, ["waiting", "needs_attention", "queued"])))
    .returning({ id: seriesOccurrences.id });
  return rows.length === 1;
}

/** The member gives one date its own times (kept when the series changes). */
export async function setOccurrenceTimes(db: Db, id: number, times: string[], now: number): Promise<void> {
  await db.update(seriesOccurrences).set({ times, updatedAt: now }).where(eq(seriesOccurrences.id, id));
}

/** A queued occurrence set back to waiting, its request withdrawn because its new form is not valid yet. */
export async function unqueueOccurrence(db: Db, id: number, why: { key: string; context: Record<string, string> }, now: number): Promise<void> {
  await db
    .update(seriesOccurrences)
    .set({ state: "needs_attention", requestId: null, reasonKey: why.key, reasonContext: why.context, updatedAt: now })
    .where(and(eq(seriesOccurrences.id, id), eq(seriesOccurrences.state, "queued")));
}
