/**
 * What every admin route shares: failures answered with the admin area's own texts (so the
 * message and its errorKey always agree), the audit entry naming the admin, and the
 * `status: updated` push that makes members' screens reload.
 */
import type { DomainEventOf } from "../../domain/events.ts";
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { adminText } from "../../domain/ui-text/admin.ts";
import { fillPlaceholders, type ProblemContext } from "../../domain/problem.ts";
import { AppError, type ErrorStatus } from "../../lib/errors.ts";
import { currentUser } from "../../lib/middleware.ts";
import { recordAudit } from "../../services/audit.service.ts";
import { forgetKeptAnswers } from "../../services/kept-answers.ts";

export type AdminTextKey = keyof typeof adminText;

/** An admin failure: the catalogue text is the message, its key the errorKey. */
export function adminError(key: AdminTextKey, status: ErrorStatus = 400, context?: ProblemContext): AppError {
  return new AppError(status, fillPlaceholders(adminText[key], context), key);
}

/** What recording an admin's change uses of the app. */
export type AuditDeps = Pick<AppDeps, "database" | "clock">;

/** Records an admin change in the audit log with the admin who made it. */
export async function auditAdminChange(deps: AuditDeps, c: Context<AppEnv>, action: string, target: string | null, detail?: string): Promise<void> {
  const admin = currentUser(c);
  await recordAudit(deps.database.db, {
    at: deps.clock.now(),
    actorUserId: admin.id,
    action,
    target,
    outcome: "ok",
    detail: `by ${admin.username}${detail ? `: ${detail}` : ""}`,
  });
}

/** Members' screens that show this part of the club's configuration reload. */
export function announceUpdate(deps: Pick<AppDeps, "database" | "notifier">, part: DomainEventOf<"club_config_changed">["part"]): void {
  forgetKeptAnswers(deps.database.db);
  deps.notifier.publish({ type: "club_config_changed", part });
}
