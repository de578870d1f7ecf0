/**
 * POST /v1/admin/club-check (admins only): the read-only club check with the admin's own stored
 * club login, or one given in the body. One check at a time.
 */
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { users } from "../../db/schema.ts";
import { adminText } from "../../domain/ui-text/admin.ts";
import { routeGroup } from "../../lib/contract.ts";
import { AppError } from "../../lib/errors.ts";
import { currentUser } from "../../lib/middleware.ts";
import { recordAudit } from "../../services/audit.service.ts";
import { runClubCheck } from "../../services/club-check.service.ts";
import { adminRoutes } from "./admin.contract.ts";

const failure = (status: 400 | 409, key: "admin.club_check.error_no_login" | "admin.club_check.error_running") => new AppError(status, adminText[key], key);

export function createClubCheckRoutes(deps: Pick<AppDeps, "database" | "clock" | "secretBox" | "clubInfo" | "club">) {
  let running: Promise<unknown> | null = null;
  return routeGroup().handle(adminRoutes.clubCheck, async (c) => {
    const admin = currentUser(c);
    const body = c.req.valid("json");
    let login = body.email && body.password ? { email: body.email, password: body.password } : null;
    if (!login) {
      const [row] = await deps.database.db.select({ email: users.clubEmail, sealed: users.clubPasswordSealed }).from(users).where(eq(users.id, admin.id)).limit(1);
      if (!row?.email || !row.sealed) throw failure(400, "admin.club_check.error_no_login");
      login = { email: row.email, password: deps.secretBox.open(row.sealed) };
    }
    if (running) throw failure(409, "admin.club_check.error_running");
    const check = runClubCheck({
      db: deps.database.db,
      clock: deps.clock,
      clubUrl: deps.clubInfo.url,
      numericDateOrder: deps.clubInfo.numericDateOrder,
      politeness: deps.club.politeness,
      ...login,
    });
    running = check;
    try {
      const report = await check;
      await recordAudit(deps.database.db, {
        at: deps.clock.now(),
        actorUserId: admin.id,
        action: "admin.club_check",
        target: deps.clubInfo.url,
        outcome: report.ok ? "ok" : "failed",
        detail: `by ${admin.username}: ${report.pages.filter((p) => p.ok).length} of ${report.pages.length} pages read`,
      });
      return c.json(report, 200);
    } finally {
      running = null;
    }
  });
}
