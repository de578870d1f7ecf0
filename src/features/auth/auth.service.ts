import { eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../../lib/errors.ts";
import { verifyPassword } from "../../services/passwords.ts";
import {
  ACCOUNT_FAILURE_LIMIT,
  ADDRESS_FAILURE_LIMIT,
  FAILURE_WINDOW_MS,
  createRateLimiter,
  type RateLimiter,
} from "./rate-limit.ts";
import { createSession, toSessionUser } from "../../services/sessions.ts";
import type { SessionUser } from "../../domain/session-user.ts";

export async function findUserByUsername(deps: AppDeps, username: string) {
  const rows = await deps.database.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.trim().toLowerCase()))
    .limit(1);
  return rows[0] ?? null;
}

export interface LoginLimiters {
  account: RateLimiter;
  address: RateLimiter;
}

export function createLoginLimiters(): LoginLimiters {
  return {
    account: createRateLimiter(ACCOUNT_FAILURE_LIMIT, FAILURE_WINDOW_MS),
    address: createRateLimiter(ADDRESS_FAILURE_LIMIT, FAILURE_WINDOW_MS),
  };
}

const INVALID = () => new AppError(401, "Invalid username or password.", "login.invalid_credentials");
// A password hash to compare against when the account does not exist, so timing does not tell.
let decoyHash: Promise<string> | null = null;

/**
 * Checks a sign-in. The same answer (and similar timing) whether the account is unknown,
 * the password wrong, or the account disabled, so nobody can probe which usernames exist.
 */
export async function login(
  deps: AppDeps,
  limiters: LoginLimiters,
  input: { username: string; password: string; address: string },
): Promise<{ user: SessionUser; sessionId: string; expiresAt: number }> {
  const now = deps.clock.now();
  const accountKey = input.username.trim().toLowerCase();
  if (limiters.account.isBlocked(accountKey, now) || limiters.address.isBlocked(input.address, now)) {
    throw new AppError(429, "Too many sign-in attempts. Please wait a few minutes and try again.", "login.rate_limited");
  }
  const row = await findUserByUsername(deps, input.username);
  decoyHash ??= Bun.password.hash("decoy-password", { algorithm: "argon2id", ...(deps.passwordCost ?? {}) });
  const matches = await verifyPassword(input.password, row?.passwordHash ?? (await decoyHash));
  if (!row || !matches || row.status !== "active") {
    limiters.account.recordFailure(accountKey, now);
    limiters.address.recordFailure(input.address, now);
    deps.logger.info("sign-in refused", { username: accountKey.slice(0, 100), address: input.address });
    throw INVALID();
  }
  limiters.account.reset(accountKey);
  const session = await createSession(deps, row.id);
  return { user: toSessionUser(row), sessionId: session.id, expiresAt: session.expiresAt };
}
