/**
 * Every throttle of Teebox in one place (docs/limits.md lists them), and the one
 * counting mechanism they share: a sliding window per key, in memory (one process serves the club;
 * a restart forgetting the counts is acceptable).
 *
 * Counting is atomic: an attempt takes its place in every window it is counted in BEFORE the work
 * it guards starts (a password hash, a club login), synchronously, so a burst of concurrent
 * attempts can never get more than the limit evaluated; the rest are refused before any work.
 */

const MINUTE = 60 * 1000;

/** Sign-in: failures per (account, address), per account from anywhere, and per address for all accounts. */
export const LOGIN_PAIR_LIMIT = 5;
export const LOGIN_ACCOUNT_LIMIT = 20;
/** High enough for a club office where many members share one address. */
export const LOGIN_ADDRESS_LIMIT = 100;
export const LOGIN_WINDOW_MS = 15 * MINUTE;

/** Club login checks (POST /v1/my/verify-credentials): per member, per club email, and a pause between tries. */
export const VERIFY_MEMBER_LIMIT = 5;
export const VERIFY_EMAIL_LIMIT = 5;
export const VERIFY_WINDOW_MS = 15 * MINUTE;
export const VERIFY_MIN_INTERVAL_MS = 3000;

/**
 * Browser log entries (POST /v1/client/log). The web app logs every API call, about ten
 * when a page loads, and posts a page's entries together (src/domain/client-log.ts): a session and
 * an address are limited in posts, and in entries so that one session cannot take the log's total.
 */
/** On-demand readiness checks per member (each signs in at the club for real). */
export const READINESS_CHECK_LIMIT = 5;
export const READINESS_CHECK_WINDOW_MS = 15 * MINUTE;

export const CLIENT_LOG_MAX_BYTES = 4 * 1024;
/** Posts per signed-in session a minute (each up to CLIENT_LOG_BATCH_MAX entries), and entries. */
export const CLIENT_LOG_SESSION_LIMIT = 120;
export const CLIENT_LOG_SESSION_ENTRY_LIMIT = 600;
export const CLIENT_LOG_ANONYMOUS_LIMIT = 20;
export const CLIENT_LOG_ADDRESS_LIMIT = 240;
/** All callers together: the log grows by at most this many client lines a minute. */
export const CLIENT_LOG_TOTAL_LIMIT = 1200;
export const CLIENT_LOG_WINDOW_MS = MINUTE;

/** The socket: the largest frame read at all, frames answered, open sockets per user, actions per second. */
export const SOCKET_MAX_PAYLOAD_BYTES = 128 * 1024;
export const SOCKET_MAX_MESSAGE_BYTES = 64 * 1024;
export const SOCKET_MAX_PER_USER = 10;
export const SOCKET_ACTIONS_PER_SECOND = 10;

/** Keys kept per limiter; beyond it the oldest keys are forgotten first. */
const MAX_KEYS = 50_000;

export interface WindowLimiter {
  /** How many events key has in the window now (taken places included). */
  count(key: string, now: number): number;
  /** Whether key has room for `n` (default one) more events now. */
  hasRoom(key: string, now: number, n?: number): boolean;
  /** Counts `n` (default one) events for key at now (call hasRoom first, in the same tick). */
  add(key: string, now: number, n?: number): void;
  /** Gives back one event counted at `at` (the attempt turned out fine). */
  remove(key: string, at: number): void;
  /** Forgets key (a successful sign-in clears its own failures). */
  reset(key: string): void;
  /** The time the oldest event of key leaves the window (when it has room again). */
  freeAt(key: string, now: number): number;
}

export function createWindowLimiter(limit: number, windowMs: number): WindowLimiter {
  const events = new Map<string, number[]>();
  const recent = (key: string, now: number) => {
    const list = events.get(key);
    if (!list) return [];
    const kept = list.filter((t) => now - t < windowMs);
    if (kept.length === 0) events.delete(key);
    else if (kept.length !== list.length) events.set(key, kept);
    return kept;
  };
  return {
    count: (key, now) => recent(key, now).length,
    hasRoom: (key, now, n = 1) => recent(key, now).length + n <= limit,
    add(key, now, n = 1) {
      const list = recent(key, now);
      for (let i = 0; i < n; i++) list.push(now);
      // Re-inserted so the map's order is least recently used first.
      events.delete(key);
      events.set(key, list);
      if (events.size > MAX_KEYS) {
        for (const k of events.keys()) {
          events.delete(k);
          if (events.size <= MAX_KEYS * 0.9) break;
        }
      }
    },
    remove(key, at) {
      const list = events.get(key);
      const index = list?.indexOf(at) ?? -1;
      if (list && index >= 0) list.splice(index, 1);
    },
    reset: (key) => void events.delete(key),
    freeAt: (key, now) => {
      const list = recent(key, now);
      return list.length < limit ? now : list[list.length - limit]! + windowMs;
    },
  };
}

/** A place taken in several windows at once; give it back when the attempt did not count. */
export interface Taken {
  giveBack(): void;
}

/**
 * Takes `n` places (default one) for now in every (limiter, key) pair, or in none when any is
 * full: synchronous, so concurrent callers are counted one after the other. Null means refused.
 */
export function takeAll(pairs: [WindowLimiter, string][], now: number, n = 1): Taken | null {
  if (!pairs.every(([limiter, key]) => limiter.hasRoom(key, now, n))) return null;
  for (const [limiter, key] of pairs) limiter.add(key, now, n);
  let given = false;
  return {
    giveBack() {
      if (given) return;
      given = true;
      for (const [limiter, key] of pairs) for (let i = 0; i < n; i++) limiter.remove(key, now);
    },
  };
}

/** Seconds until a refused caller may try again, for Retry-After. */
export function retryAfterSeconds(pairs: [WindowLimiter, string][], now: number): number {
  const at = Math.max(now, ...pairs.map(([limiter, key]) => limiter.freeAt(key, now)));
  return Math.max(1, Math.ceil((at - now) / 1000));
}
