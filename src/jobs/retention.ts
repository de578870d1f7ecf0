/**
 * Retention: every table that grows with use has an age (or a count) past which its rows go, so a
 * club's database stays the same size from its second year on (docs/limits.md; decision 131).
 *
 * A daily pass at a quiet hour (RETENTION_TIME, Manila), on the one job loop, deletes in small
 * batches, each its own short transaction, yielding between them. It never runs near a release: a
 * request due within RELEASE_GUARD_MS (request-lifecycle.ts; or one being processed) puts the pass off, and a pass that
 * finds one coming stops between two batches and tries again later.
 */
import { and, eq, inArray, lt, lte, max, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AppDatabase, Db } from "../db/client.ts";
import {
  auditLog,
  bookingRequests,
  bookings,
  editAttempts,
  flightInvitations,
  mailOutbox,
  notifications,
  pushOutbox,
  pushSubscriptions,
  requestAttempts,
  scrapeRuns,
  seriesOccurrences,
  sessions,
  slotWatches,
  standingSeries,
  teeTimeSlots,
  watchAttempts,
} from "../db/schema.ts";
import { addDays, DAY_MS, manilaDate, manilaInstant } from "../domain/manila-time.ts";
import { INVITATIONS_KEPT_DAYS } from "../domain/partners.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { isReleaseNear } from "../lifecycle/request-lifecycle.ts";
import { createJobLoop } from "./loop.ts";
import type { JobRegistry } from "./registry.ts";

/** How long each kind of row is kept (docs/limits.md). */
export const RETENTION = {
  auditDays: 90,
  /** Whatever their age, the newest this many audit rows at most. */
  auditMaxRows: 200_000,
  scrapeRunDays: 14,
  cancelledRequestDays: 30,
  /** After the play date. */
  failedRequestDays: 180,
  /** After the play date: the booking, and the request (with its story) that made it. */
  bookingDays: 365,
  /** After the play date: a watch that booked, found or ended, with its attempts. */
  watchDays: 90,
  /** After the play date: an edit's posts for its new slot, once settled. */
  editAttemptDays: 90,
  notificationDays: 180,
  outboxDays: 30,
  /** After the play date: a standing request's date (its request follows the request rules). */
  occurrenceDays: 90,
  /** After it ended (or its last date): a standing request, with its dates. */
  seriesDays: 90,
  /** After the play date: a playing partner's invitation and its answer (decision 200). */
  invitationDays: INVITATIONS_KEPT_DAYS,
  /** A push is news for a day at most (its TTL); its row stays a week for the metrics and a look back. */
  pushOutboxDays: 7,
} as const;

/** The pass runs daily at this Manila time, when a club is quietest. */
export const RETENTION_TIME = "03:30";
/** Rows deleted per transaction: a few milliseconds of the database at most. */
const BATCH_ROWS = 200;
/** A pass put off by a release looks again after this long. */
const PUT_OFF_MS = 20 * 60_000;

export interface RetentionDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
}

export interface RetentionOptions {
  /** Before the first pass after start (default 10 minutes: a start is busy enough). */
  firstPassDelayMs?: number;
  /** Other ages or counts (tests). */
  keep?: Partial<Record<keyof typeof RETENTION, number>>;
  /** Told of each batch: its rule, rows deleted and how long its transaction took (the storage benchmark). */
  onBatch?: (rule: string, rows: number, ms: number) => void;
}

export interface RetentionSummary {
  /** Rows deleted per rule. */
  deleted: Record<string, number>;
  /** Stopped before the end because a release came near. */
  isPutOff: boolean;
}

export interface Retention {
  start(): void;
  stop(): Promise<void>;
  /** One pass now (tests, and the soak benchmark). */
  runOnce(): Promise<RetentionSummary>;
}

interface Rule {
  name: string;
  table: SQLiteTable;
  id: SQLiteColumn;
  /** Which rows are old, now. */
  isOld(now: number): SQL | undefined | Promise<SQL | undefined>;
  /** Rows of other tables to go first, in the same transaction (children a libSQL server may not cascade to). */
  before?: (tx: Db, ids: number[]) => Promise<void>;
}

export function createRetention(d: RetentionDeps, options: RetentionOptions = {}): Retention {
  const { db } = d.database;
  const keep = { ...RETENTION, ...options.keep };
  const ago = (now: number, days: number) => now - days * DAY_MS;
  const dateAgo = (now: number, days: number) => addDays(manilaDate(now), -days);

  const rules: Rule[] = [
    { name: "audit log (age)", table: auditLog, id: auditLog.id, isOld: (now) => lt(auditLog.at, ago(now, keep.auditDays)) },
    {
      name: "audit log (count)",
      table: auditLog,
      id: auditLog.id,
      // Rows are only ever added at the top and removed from the bottom, so the newest N are
      // (nearly exactly) those above the highest id minus N: one look at the index, not a count.
      isOld: async () => {
        const [top] = await db.select({ id: max(auditLog.id) }).from(auditLog);
        return top?.id ? lte(auditLog.id, top.id - keep.auditMaxRows) : undefined;
      },
    },
    { name: "scrape runs", table: scrapeRuns, id: scrapeRuns.id, isOld: (now) => lt(scrapeRuns.startedAt, ago(now, keep.scrapeRunDays)) },
    {
      name: "requests",
      table: bookingRequests,
      id: bookingRequests.id,
      isOld: (now) =>
        or(
          and(eq(bookingRequests.status, "cancelled"), lt(bookingRequests.updatedAt, ago(now, keep.cancelledRequestDays))),
          and(eq(bookingRequests.status, "failed"), lt(bookingRequests.playDate, dateAgo(now, keep.failedRequestDays))),
          and(eq(bookingRequests.status, "confirmed"), lt(bookingRequests.playDate, dateAgo(now, keep.bookingDays))),
        ),
      before: async (tx, ids) => void (await tx.delete(requestAttempts).where(inArray(requestAttempts.requestId, ids))),
    },
    { name: "bookings", table: bookings, id: bookings.id, isOld: (now) => lt(bookings.playDate, dateAgo(now, keep.bookingDays)) },
    {
      name: "watches",
      table: slotWatches,
      id: slotWatches.id,
      isOld: (now) => and(inArray(slotWatches.status, ["booked", "found", "ended"]), lt(slotWatches.playDate, dateAgo(now, keep.watchDays))),
      before: async (tx, ids) => void (await tx.delete(watchAttempts).where(inArray(watchAttempts.watchId, ids))),
    },
    {
      name: "edit attempts",
      table: editAttempts,
      id: editAttempts.id,
      isOld: (now) => and(eq(editAttempts.state, "answered"), lt(editAttempts.playDate, dateAgo(now, keep.editAttemptDays))),
    },
    {
      name: "playing partners' invitations",
      table: flightInvitations,
      id: flightInvitations.id,
      isOld: (now) => lt(flightInvitations.playDate, dateAgo(now, keep.invitationDays)),
    },
    { name: "standing request dates", table: seriesOccurrences, id: seriesOccurrences.id, isOld: (now) => lt(seriesOccurrences.playDate, dateAgo(now, keep.occurrenceDays)) },
    {
      name: "standing requests",
      table: standingSeries,
      id: standingSeries.id,
      isOld: (now) => or(and(eq(standingSeries.status, "ended"), lt(standingSeries.endedAt, ago(now, keep.seriesDays))), lt(standingSeries.endDate, dateAgo(now, keep.seriesDays))),
      before: async (tx, ids) => void (await tx.delete(seriesOccurrences).where(inArray(seriesOccurrences.seriesId, ids))),
    },
    { name: "notifications", table: notifications, id: notifications.id, isOld: (now) => lt(notifications.createdAt, ago(now, keep.notificationDays)) },
    { name: "mail outbox", table: mailOutbox, id: mailOutbox.id, isOld: (now) => lt(mailOutbox.createdAt, ago(now, keep.outboxDays)) },
    { name: "push outbox", table: pushOutbox, id: pushOutbox.id, isOld: (now) => lt(pushOutbox.createdAt, ago(now, keep.pushOutboxDays)) },
    {
      // Devices are otherwise bounded by their number per member; one whose browser said when it
      // ends goes then, with its pushes (no push service would take them).
      name: "expired push devices",
      table: pushSubscriptions,
      id: pushSubscriptions.id,
      isOld: (now) => lt(pushSubscriptions.expiresAt, now),
      before: async (tx, ids) => void (await tx.delete(pushOutbox).where(inArray(pushOutbox.subscriptionId, ids))),
    },
  ];

  /** Deletes one batch of a rule's old rows; the number deleted. */
  async function deleteBatch(rule: Rule, where: SQL): Promise<number> {
    return d.database.transaction(async (tx) => {
      // No ORDER BY: it would make SQLite walk the table in id order instead of the index that
      // answers the condition.
      const rows = (await tx.select({ id: rule.id }).from(rule.table).where(where).limit(BATCH_ROWS)) as { id: number }[];
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      await rule.before?.(tx, ids);
      await tx.delete(rule.table).where(inArray(rule.id, ids));
      return ids.length;
    });
  }

  /**
   * Rows without a number id, each few at a time (the scraper also drops past sheets as it runs):
   * expired sessions, and the stored tee sheets of days gone by. One statement each.
   */
  async function deleteSmallLeftovers(now: number, deleted: Record<string, number>): Promise<void> {
    const count = (name: string, rows: unknown[]) => {
      if (rows.length > 0) deleted[name] = rows.length;
    };
    count("sessions", await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id }));
    count(
      "tee sheets of past days",
      await db
        .delete(teeTimeSlots)
        .where(lt(teeTimeSlots.date, manilaDate(now)))
        .returning({ date: teeTimeSlots.date }),
    );
  }

  async function runOnce(signal?: AbortSignal): Promise<RetentionSummary> {
    const deleted: Record<string, number> = {};
    const mustStop = async () => signal?.aborted || (await isReleaseNear(db, d.clock.now()));
    if (await mustStop()) return { deleted, isPutOff: true };
    await deleteSmallLeftovers(d.clock.now(), deleted);
    for (const rule of rules) {
      const where = await rule.isOld(d.clock.now());
      if (!where) continue;
      for (;;) {
        if (await mustStop()) return { deleted, isPutOff: true };
        const began = performance.now();
        const count = await deleteBatch(rule, where);
        options.onBatch?.(rule.name, count, performance.now() - began);
        if (count > 0) deleted[rule.name] = (deleted[rule.name] ?? 0) + count;
        if (count < BATCH_ROWS) break;
        // Let the server answer whatever waits between two batches.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return { deleted, isPutOff: false };
  }

  /** The next RETENTION_TIME in Manila after `now`. */
  const nextQuietTime = (now: number) => {
    const today = manilaInstant(manilaDate(now), RETENTION_TIME);
    return today > now ? today : manilaInstant(addDays(manilaDate(now), 1), RETENTION_TIME);
  };

  const loop = createJobLoop(d, {
    name: "retention",
    pass: async (signal) => {
      const summary = await runOnce(signal);
      const total = Object.values(summary.deleted).reduce((a, b) => a + b, 0);
      if (total > 0 || summary.isPutOff) d.logger.info("retention pass", { ...summary.deleted, putOff: summary.isPutOff });
      return summary.isPutOff ? d.clock.now() + PUT_OFF_MS : nextQuietTime(d.clock.now());
    },
    intervalMs: DAY_MS,
    floorMs: 60_000,
    firstPassDelayMs: options.firstPassDelayMs ?? 10 * 60_000,
  });

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    runOnce: () => runOnce(),
  };
}
