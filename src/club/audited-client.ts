/** The club adapter with every member action (login, book, edit, cancel, verify) written to the audit log. */
import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { createClubClient, type ClubClient } from "./client.ts";
import { createCourseReading } from "./course-reading.ts";
import type { NumericDateOrder } from "./text.ts";

export function createAuditedClubClient(options: { baseUrl: string; clock: Clock; db: Db; logger: Logger; timeoutMs?: number; numericDateOrder?: NumericDateOrder | null }): ClubClient {
  const { clock, db, logger } = options;
  return createClubClient({
    baseUrl: options.baseUrl,
    clock,
    timeoutMs: options.timeoutMs,
    reading: createCourseReading(db, logger, clock, options.numericDateOrder ?? null),
    // At a release every member's first post must leave at once; the scraper paces itself.
    maxConnections: 64,
    onAudit: (entry) => {
      // Written here rather than through the audit feature: the adapter must not depend on a feature.
      db.insert(auditLog)
        .values({
          at: clock.now(),
          actorUserId: entry.userId,
          action: `club.${entry.action}`,
          target: entry.email,
          outcome: entry.outcome,
          durationMs: Math.round(entry.durationMs),
          detail: entry.detail?.slice(0, 500) ?? null,
        })
        .then(() => undefined)
        .catch((error: unknown) => logger.error("audit write failed", { error }));
    },
  });
}
