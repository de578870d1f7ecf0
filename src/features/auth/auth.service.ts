import { eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { users } from "../../db/schema.ts";
import { textError } from "../../lib/errors.ts";
import { verifyPassword } from "../../services/passwords.ts";
import { isPasswordToReplace } from "../../domain/passwords.ts";
import {
  LOGIN_ACCOUNT_LIMIT,
  LOGIN_ADDRESS_LIMIT,
  LOGIN_PAIR_LIMIT,
  LOGIN_WINDOW_MS,
  createWindowLimiter,
  retryAfterSeconds,
  takeAll,
  type WindowLimiter,
} from "../../lib/limits.ts";
import { createSession, toSessionUser, type SessionDeps } from "../../services/sessions.ts";
import type { SessionUser } from "../../domain/session-user.ts";

/** What signing in uses of the app. */
export type LoginDeps = SessionDeps & Pick<AppDeps, "logger" | "passwordCost">;

export async function findUserByUsername(deps: Pick<AppDeps, "database">, username: string) {
  const rows = await deps.database.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.trim().toLowerCase()))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Failed sign-ins are counted per (account, address), per account from anywhere, and per address
 * for every account: one person guessing locks only that pair; a spread attack on one account
 * meets the account limit; the address ceiling is high enough for a club office behind one address.
 */
export interface LoginLimiters {
  pair: WindowLimiter;
  account: WindowLimiter;
  address: WindowLimiter;
}

export function createLoginLimiters(): LoginLimiters {
  return {
    pair: createWindowLimiter(LOGIN_PAIR_LIMIT, LOGIN_WINDOW_MS),
    account: createWindowLimiter(LOGIN_ACCOUNT_LIMIT, LOGIN_WINDOW_MS),
    address: createWindowLimiter(LOGIN_ADDRESS_LIMIT, LOGIN_WINDOW_MS),
  };
}

const INVALID = () => textError(401, "login.invalid_credentials");
// A password hash to compare against when the account does not exist, so timing does not tell.
let decoyHash: Promise<string> | null = null;

/**
 * Checks a sign-in. The same answer (and similar timing) whether the account is unknown,
 * the password wrong, or the account disabled, so nobody can probe which usernames exist.
 */
export async function login(
  deps: LoginDeps,
  limiters: LoginLimiters,
  input: { username: string; password: string; address: string },
): Promise<{ user: SessionUser; sessionId: string; expiresAt: number }> {
  const now = deps.clock.now();
  const accountKey = input.username.trim().toLowerCase();
  const pairs: [WindowLimiter, string][] = [
    [limiters.pair, `${accountKey}\n${input.address}`],
    [limiters.account, accountKey],
    [limiters.address, input.address],
  ];
  // The attempt is counted as a failure before the hash is computed and given back if it succeeds,
  // so concurrent guesses beyond the limit are refused without any hashing.
  const taken = takeAll(pairs, now);
  if (!taken) {
    throw textError(429, "login.rate_limited", undefined, { "retry-after": String(retryAfterSeconds(pairs, now)) });
  }
  const row = await findUserByUsername(deps, input.username);
  decoyHash ??= Bun.password.hash("decoy-password", { algorithm: "argon2id", ...(deps.passwordCost ?? {}) });
  const matches = await verifyPassword(input.password, row?.passwordHash ?? (await decoyHash));
  if (!row || !matches || row.status !== "active") {
    deps.logger.info("sign-in refused", { username: accountKey.slice(0, 100), address: input.address });
    throw INVALID();
  }
  taken.giveBack();
  limiters.pair.reset(pairs[0]![1]);
  // A password equal to the username (an old default) must be replaced before anything else.
  if (!row.mustSetPassword && isPasswordToReplace(input.password, row.username)) {
    await deps.database.db.update(users).set({ mustSetPassword: true }).where(eq(users.id, row.id));
    row.mustSetPassword = true;
  }
  const session = await createSession(deps, row.id);
  return { user: toSessionUser(row), sessionId: session.id, expiresAt: session.expiresAt };
}
