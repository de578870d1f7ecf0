/**
 * The audit log: every club-site action taken for a member and every admin change, with who,
 * what, the outcome and how long it took. Never a password: callers pass descriptions, not payloads.
 */
import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

export interface AuditEntry {
  at: number;
  actorUserId: number | null;
  action: string;
  target?: string | null;
  outcome: string;
  durationMs?: number | null;
  detail?: string | null;
}

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    at: entry.at,
    actorUserId: entry.actorUserId,
    action: entry.action,
    target: entry.target ?? null,
    outcome: entry.outcome,
    durationMs: entry.durationMs ?? null,
    detail: entry.detail?.slice(0, 500) ?? null,
  });
}
