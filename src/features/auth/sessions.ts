/**
 * Sessions are database rows (so logout and disabling a user end them at once) referenced by a
 * jose-signed cookie holding only the session id.
 */
import { and, eq, lt, ne } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";
import { randomBytes } from "node:crypto";
import type { AppDeps } from "../../deps.ts";
import { sessions, users } from "../../db/schema.ts";
import type { SessionUser } from "./auth.schemas.ts";

export const SESSION_COOKIE = "teebox_session";
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** last_seen is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60 * 1000;

type UserRow = typeof users.$inferSelect;

export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    memberId: row.memberId,
    southwoods_email: row.clubEmail,
    role: row.role,
    status: row.status,
    defaultCartType: row.defaultCartType,
    defaultFeeGuest: row.defaultFeeGuest,
    defaultFeeMember: row.defaultFeeMember,
    hasClubPassword: Boolean(row.clubPasswordSealed),
  };
}

export async function createSession(deps: AppDeps, userId: number): Promise<{ id: string; expiresAt: number }> {
  const now = deps.clock.now();
  const id = randomBytes(24).toString("base64url");
  const expiresAt = now + SESSION_TTL_MS;
  await deps.database.db.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now, expiresAt });
  await deps.database.db.delete(sessions).where(lt(sessions.expiresAt, now));
  return { id, expiresAt };
}

export async function signSessionCookie(deps: AppDeps, sessionId: string, expiresAt: number): Promise<string> {
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(Math.floor(deps.clock.now() / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(deps.sessionKey);
}

export async function readSessionCookie(deps: AppDeps, token: string | undefined): Promise<string | null> {
  if (!token || token.length > 2048) return null;
  try {
    const { payload } = await jwtVerify(token, deps.sessionKey, {
      algorithms: ["HS256"],
      currentDate: new Date(deps.clock.now()),
    });
    return typeof payload.sid === "string" ? payload.sid : null;
  } catch {
    return null;
  }
}

/** The active user behind a session id, or null when the session is gone, expired or the user disabled. */
export async function resolveSession(deps: AppDeps, sessionId: string): Promise<SessionUser | null> {
  const now = deps.clock.now();
  const rows = await deps.database.db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  const row = rows[0];
  if (!row || row.session.expiresAt <= now || row.user.status !== "active") return null;
  if (now - row.session.lastSeenAt > TOUCH_EVERY_MS) {
    await deps.database.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
  }
  return toSessionUser(row.user);
}

export async function endSession(deps: AppDeps, sessionId: string): Promise<void> {
  await deps.database.db.delete(sessions).where(eq(sessions.id, sessionId));
  deps.hub.closeSession(sessionId);
}

/** Ends every session of a user (disabled, deleted, password changed), optionally keeping one. */
export async function endUserSessions(deps: AppDeps, userId: number, keepSessionId?: string): Promise<void> {
  const where = keepSessionId
    ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))
    : eq(sessions.userId, userId);
  await deps.database.db.delete(sessions).where(where);
  deps.hub.closeUserSessions(userId, keepSessionId);
}

/** The session behind a raw Cookie header (the socket upgrade has no Hono context). */
export async function getSessionFromCookieHeader(
  deps: AppDeps,
  cookieHeader: string | null,
): Promise<{ user: SessionUser; sessionId: string } | null> {
  const token = cookieHeader
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
  const sessionId = await readSessionCookie(deps, token ? decodeURIComponent(token) : undefined);
  if (!sessionId) return null;
  const user = await resolveSession(deps, sessionId);
  return user ? { user, sessionId } : null;
}
