/**
 * Sessions are database rows (so logout and disabling a user end them at once) referenced by a
 * jose-signed cookie holding only the session id.
 */
import { and, eq, lt, ne, sql } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";
import { randomBytes } from "../lib/random.ts";
import type { AppDeps } from "../deps.ts";
import { preparedQuery, settable } from "../db/prepared.ts";
import { sessions, users } from "../db/schema.ts";
import type { SessionUser } from "../domain/session-user.ts";

/** What sessions use of the app: the database, the clock, the cookie key, and the hub to close a session's sockets. */
export type SessionDeps = Pick<AppDeps, "database" | "clock" | "sessionKey" | "hub">;

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
    mustSetPassword: row.mustSetPassword,
  };
}

export async function createSession(deps: SessionDeps, userId: number): Promise<{ id: string; expiresAt: number }> {
  const now = deps.clock.now();
  const id = randomBytes(24).toString("base64url");
  const expiresAt = now + SESSION_TTL_MS;
  await deps.database.db.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now, expiresAt });
  await deps.database.db.delete(sessions).where(lt(sessions.expiresAt, now));
  return { id, expiresAt };
}

export async function signSessionCookie(deps: SessionDeps, sessionId: string, expiresAt: number): Promise<string> {
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(Math.floor(deps.clock.now() / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(deps.sessionKey);
}

export async function readSessionCookie(deps: SessionDeps, token: string | undefined): Promise<string | null> {
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

/**
 * Signed-in requests are the hot path, so a verified cookie is remembered with the user it names.
 * Its signature is checked once: a token that passed stays verified for as long as it is remembered
 * (the same text, the same signature), and its session row is read again when the entry is older
 * than SESSION_CACHE_TTL_MS. A reload's reads arrive together: they share one check rather than
 * each verifying the token and reading the row (decision 205). Whatever ends a session or changes a
 * user forgets the entries it affects at once (endSession, endUserSessions, forgetCachedUser), and
 * a check that was under way then is not remembered, so a logout or a disabled user never lingers.
 */
interface CachedSession {
  sessionId: string;
  user: SessionUser;
  expiresAt: number;
  checkedAt: number;
}
type Resolved = { user: SessionUser; sessionId: string };
interface SessionCache {
  entries: Map<string, CachedSession>;
  /** Checks under way, by token: a reload's concurrent reads wait for the same one. */
  checking: Map<string, Promise<Resolved | null>>;
  /** Counts forgets, so a check that began before one is not remembered after it. */
  forgets: number;
}
const SESSION_CACHE_TTL_MS = 10_000;
const SESSION_CACHE_MAX = 10_000;
const sessionCaches = new WeakMap<object, SessionCache>();

function sessionCacheOf(deps: SessionDeps): SessionCache {
  let cache = sessionCaches.get(deps.database);
  if (!cache) {
    cache = { entries: new Map(), checking: new Map(), forgets: 0 };
    sessionCaches.set(deps.database, cache);
  }
  return cache;
}

function forgetWhere(deps: SessionDeps, matches: (entry: CachedSession) => boolean): void {
  const cache = sessionCacheOf(deps);
  cache.forgets++;
  for (const [token, entry] of cache.entries) if (matches(entry)) cache.entries.delete(token);
}

/** Call after changing a user's row (profile, role, status, password): their cached sessions are re-read. */
export function forgetCachedUser(deps: SessionDeps, userId: number): void {
  forgetWhere(deps, (entry) => entry.user.id === userId);
}

/** The session a cookie's token stands for, when it was checked less than SESSION_CACHE_TTL_MS ago; else undefined. */
export function rememberedSession(deps: SessionDeps, token: string | undefined): Resolved | undefined {
  if (!token) return undefined;
  const now = deps.clock.now();
  const cached = sessionCacheOf(deps).entries.get(token);
  return cached && now - cached.checkedAt < SESSION_CACHE_TTL_MS && cached.expiresAt > now ? { user: cached.user, sessionId: cached.sessionId } : undefined;
}

/** The session behind a raw Cookie header when it is remembered (no database, no signature check); else undefined. */
export const rememberedSessionOfCookieHeader = (deps: SessionDeps, cookieHeader: string | null | undefined) => rememberedSession(deps, sessionTokenOf(cookieHeader));

/** The session behind a cookie value: remembered when recently checked, else checked (once for concurrent callers). */
export async function resolveSessionToken(deps: SessionDeps, token: string | undefined): Promise<Resolved | null> {
  if (!token) return null;
  const remembered = rememberedSession(deps, token);
  if (remembered) return remembered;
  const cache = sessionCacheOf(deps);
  const underWay = cache.checking.get(token);
  if (underWay) return underWay;
  const check = checkSessionToken(deps, cache, token).finally(() => cache.checking.delete(token));
  cache.checking.set(token, check);
  return check;
}

async function checkSessionToken(deps: SessionDeps, cache: SessionCache, token: string): Promise<Resolved | null> {
  const now = deps.clock.now();
  const forgetsBefore = cache.forgets;
  const stale = cache.entries.get(token);
  cache.entries.delete(token);
  // A remembered token's signature was verified; an expired one goes through the whole check (and fails it).
  const sessionId = stale && stale.expiresAt > now ? stale.sessionId : await readSessionCookie(deps, token);
  if (!sessionId) return null;
  const resolved = await readSessionRow(deps, sessionId);
  if (!resolved) return null;
  if (cache.forgets === forgetsBefore) {
    if (cache.entries.size >= SESSION_CACHE_MAX) cache.entries.clear();
    cache.entries.set(token, { sessionId, user: resolved.user, expiresAt: resolved.expiresAt, checkedAt: now });
  }
  return { user: resolved.user, sessionId };
}

/** The active user behind a session id, or null when the session is gone, expired or the user disabled. */
export async function resolveSession(deps: SessionDeps, sessionId: string): Promise<SessionUser | null> {
  return (await readSessionRow(deps, sessionId))?.user ?? null;
}

/**
 * A session and its user, and the write of when it was last seen: every member's first read after
 * the cache forgets them makes both, so a crowd reloading at a release instant makes hundreds. They
 * are prepared once (decision 205).
 */
const sessionWithUser = preparedQuery((db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder("sessionId")))
    .limit(1)
    .prepare(),
);
const touchSession = preparedQuery((db) =>
  db
    .update(sessions)
    .set({ lastSeenAt: settable<number>("now") })
    .where(eq(sessions.id, sql.placeholder("sessionId")))
    .prepare(),
);

async function readSessionRow(deps: SessionDeps, sessionId: string): Promise<{ user: SessionUser; expiresAt: number } | null> {
  const now = deps.clock.now();
  const [row] = await sessionWithUser(deps.database.db).all({ sessionId });
  if (!row || row.session.expiresAt <= now || row.user.status !== "active") return null;
  if (now - row.session.lastSeenAt > TOUCH_EVERY_MS) await touchSession(deps.database.db).run({ sessionId, now });
  return { user: toSessionUser(row.user), expiresAt: row.session.expiresAt };
}

export async function endSession(deps: SessionDeps, sessionId: string): Promise<void> {
  await deps.database.db.delete(sessions).where(eq(sessions.id, sessionId));
  forgetWhere(deps, (entry) => entry.sessionId === sessionId);
  deps.hub.closeSession(sessionId);
}

/** Ends every session of a user (disabled, deleted, password changed), optionally keeping one. */
export async function endUserSessions(deps: SessionDeps, userId: number, keepSessionId?: string): Promise<void> {
  const where = keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId);
  await deps.database.db.delete(sessions).where(where);
  forgetWhere(deps, (entry) => entry.user.id === userId && entry.sessionId !== keepSessionId);
  deps.hub.closeUserSessions(userId, keepSessionId);
}

/** The session cookie's value in a raw Cookie header, without parsing the other cookies. */
export function sessionTokenOf(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const name = `${SESSION_COOKIE}=`;
  let at = cookieHeader.indexOf(name);
  // Only at the start of the header or after a separator: `xteebox_session=` is another cookie.
  while (at > 0 && cookieHeader[at - 1] !== ";" && cookieHeader[at - 1] !== " ") at = cookieHeader.indexOf(name, at + 1);
  if (at < 0) return undefined;
  const end = cookieHeader.indexOf(";", at);
  const value = cookieHeader.slice(at + name.length, end < 0 ? undefined : end).trim();
  if (!value) return undefined;
  // Our tokens are base64url; only a value with escapes needs decoding (a hot path).
  return value.includes("%") ? decodeCookieValue(value) : value;
}

/** The session behind a raw Cookie header: every request and the socket upgrade read it this way. */
export function getSessionFromCookieHeader(deps: SessionDeps, cookieHeader: string | null | undefined): Promise<{ user: SessionUser; sessionId: string } | null> {
  return resolveSessionToken(deps, sessionTokenOf(cookieHeader));
}

/** A cookie value that is not valid percent-encoding is no session (not a server error). */
function decodeCookieValue(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
