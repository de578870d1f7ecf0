import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { AppError, textError } from "../../lib/errors.ts";
import {
  VERIFY_EMAIL_LIMIT,
  VERIFY_MEMBER_LIMIT,
  VERIFY_MIN_INTERVAL_MS,
  VERIFY_WINDOW_MS,
  createWindowLimiter,
  retryAfterSeconds,
  takeAll,
  type WindowLimiter,
} from "../../lib/limits.ts";
import { currentUser } from "../../lib/middleware.ts";
import { readClubStatus } from "../../club/club-info.ts";
import { verifyClubLogin } from "../../club/club-login.ts";
import { recordAudit } from "../../services/audit.service.ts";
import { clubRoutes } from "./club.contract.ts";

/**
 * POST /v1/my/verify-credentials: the setup wizard checks a club login before saving it.
 * It tries a password on the club for whoever calls it, so it is limited per member and per club
 * email (a member cannot test another member's club password faster than a person types: one try
 * at a time, a pause between tries, a few per quarter hour), and every try is audited.
 */
export function createVerifyCredentialsRoutes(deps: Pick<AppDeps, "database" | "clock" | "club">) {
  const perMember = createWindowLimiter(VERIFY_MEMBER_LIMIT, VERIFY_WINDOW_MS);
  const perEmail = createWindowLimiter(VERIFY_EMAIL_LIMIT, VERIFY_WINDOW_MS);
  // One place per pause: a member's next try waits until the previous one is VERIFY_MIN_INTERVAL_MS old.
  const pace = createWindowLimiter(1, VERIFY_MIN_INTERVAL_MS);
  const inFlight = new Set<number>();
  return routeGroup().handle(clubRoutes.verifyCredentials, async (c) => {
    const body = c.req.valid("json");
    const user = currentUser(c);
    const now = deps.clock.now();
    const email = body.email.toLowerCase();
    const audit = (outcome: string, started = now) =>
      recordAudit(deps.database.db, { at: now, actorUserId: user.id, action: "member.verify_credentials", target: email, outcome, durationMs: deps.clock.now() - started });
    const pairs: [WindowLimiter, string][] = [
      [pace, String(user.id)],
      [perMember, String(user.id)],
      [perEmail, email],
    ];
    const taken = inFlight.has(user.id) ? null : takeAll(pairs, now);
    if (!taken) {
      await audit("rate_limited");
      throw textError(429, "setup.verify_rate_limited", undefined, {
        "retry-after": String(retryAfterSeconds(pairs, now)),
      });
    }
    inFlight.add(user.id);
    try {
      await verifyClubLogin(deps.club, body.email, body.password);
      await audit("ok");
    } catch (error) {
      await audit(error instanceof AppError ? (error.errorKey ?? "refused") : "error");
      throw error;
    } finally {
      inFlight.delete(user.id);
    }
    return c.json({ ok: true as const }, 200);
  });
}

/** GET /v1/system/club (admins): which club Teebox talks to, and whether it answers. */
export function createClubStatusRoutes(deps: Pick<AppDeps, "club" | "clubInfo">) {
  return routeGroup().handle(clubRoutes.status, async (c) => c.json(await readClubStatus(deps.club, deps.clubInfo), 200));
}
