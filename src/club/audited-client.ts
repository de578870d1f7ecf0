/**
 * The club adapter with every member action (login, book, edit, cancel, verify) written to the audit
 * log, and each time the club asks Teebox to slow down: one row when it starts and one when it is
 * over, never one per request (decision 146).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { auditLog } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { EpisodeEvent } from "./budget.ts";
import { createClubClient, type ClubClient } from "./client.ts";
import { createCourseReading } from "./course-reading.ts";
import type { NumericDateOrder } from "./text.ts";

type AuditRow = Omit<Required<typeof auditLog.$inferInsert>, "id" | "at">;

/** A row for every member action: a release's instant writes one per post, so the insert is prepared once (decision 205). */
const insertAuditRow = preparedQuery((db) =>
  db
    .insert(auditLog)
    .values({
      at: sql.placeholder("at"),
      actorUserId: sql.placeholder("actorUserId"),
      action: sql.placeholder("action"),
      target: sql.placeholder("target"),
      outcome: sql.placeholder("outcome"),
      durationMs: sql.placeholder("durationMs"),
      detail: sql.placeholder("detail"),
    })
    .prepare(),
);

export function createAuditedClubClient(options: {
  baseUrl: string;
  clock: Clock;
  db: Db;
  logger: Logger;
  timeoutMs?: number;
  numericDateOrder?: NumericDateOrder | null;
}): ClubClient {
  const { clock, db, logger } = options;
  const write = async (row: AuditRow) => {
    try {
      await insertAuditRow(db).run({ at: clock.now(), ...row });
    } catch (error) {
      logger.error("audit write failed", { error });
    }
  };
  return createClubClient({
    baseUrl: options.baseUrl,
    clock,
    timeoutMs: options.timeoutMs,
    reading: createCourseReading(db, logger, clock, options.numericDateOrder ?? null),
    // At a release every member's first post must leave at once; the scraper paces itself.
    maxConnections: 64,
    // Written here rather than through the audit feature: the adapter must not depend on a feature.
    onAudit: (entry) =>
      void write({
        actorUserId: entry.userId,
        action: `club.${entry.action}`,
        target: entry.email,
        outcome: entry.outcome,
        durationMs: Math.round(entry.durationMs),
        detail: entry.detail?.slice(0, 500) ?? null,
      }),
    onSlowDown: (event) => {
      const detail = describeEpisode(event);
      if (event.type === "started") logger.warn("the club asked Teebox to slow down", { detail });
      else logger.info("the club's slow-down is over", { detail });
      void write({ actorUserId: null, action: "club.slow_down", target: options.baseUrl, outcome: event.type, durationMs: null, detail });
    },
  });
}

/** One line for the audit log and the server log. */
export function describeEpisode({ type, episode }: EpisodeEvent): string {
  const why = episode.reason === "challenge" ? `a bot wall's challenge page (HTTP ${episode.status})` : `HTTP ${episode.status}`;
  const after = episode.retryAfterMs === null ? "no Retry-After" : `Retry-After ${Math.round(episode.retryAfterMs / 1000)} s`;
  if (type === "started") return `The club answered with ${why}, ${after}: every request to the club waits until ${new Date(episode.pausedUntil).toISOString()}.`;
  return `Requests to the club go again: ${episode.signals} slow-down answer(s) since ${new Date(episode.startedAt).toISOString()}.`;
}
