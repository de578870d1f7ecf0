/**
 * Every request the demo club answers, counted by club-clock minute, kind and member: the club's
 * own record of how hard it is asked, whatever the asker believes it sent. A soak reads it (and
 * clears it) through the control API to hold Teebox to its politeness budget. The counts are
 * bounded: past the cap the oldest minutes are forgotten first, so a demo club left running for
 * months inside Teebox keeps a few days of them at most.
 */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { LEGACY_USER_FIELD } from "./legacy-pages.ts";

/** What a request to the club was for. */
export type TrafficKind = "login_form" | "login" | "tee_sheet" | "book_form" | "book" | "bookings" | "edit" | "cancel" | "home" | "advisories" | "other";

export interface TrafficCount {
  /** The club-clock minute (epoch ms, a whole minute). */
  minuteMs: number;
  kind: TrafficKind;
  /** The member's club email (from their session or the sign-in form); '' when unknown. */
  email: string;
  /** Answers with a status of 500 or more (faults included). */
  serverErrors: number;
  count: number;
}

/** Distinct (minute, kind, member) counts kept at most; a busy day of a 500-member club needs a few thousand. */
export const MAX_TRAFFIC_ENTRIES = 50_000;

export function kindOf(method: string, path: string): TrafficKind {
  const isPost = method === "POST";
  if (path === "/login") return isPost ? "login" : "login_form";
  if (path === "/members/tee-sheet") return "tee_sheet";
  if (path === "/members/book") return isPost ? "book" : "book_form";
  if (path === "/members/bookings") return "bookings";
  if (/^\/members\/bookings\/[^/]+\/edit$/.test(path)) return isPost ? "edit" : "other";
  if (/^\/members\/bookings\/[^/]+\/cancel$/.test(path)) return "cancel";
  if (path === "/members/home") return "home";
  if (path === "/advisories") return "advisories";
  return "other";
}

export interface TrafficCounter {
  middleware: MiddlewareHandler;
  /** Everything counted since the last take, oldest first; the counts start again from nothing. */
  take(): TrafficCount[];
}

export function createTrafficCounter(deps: { clubNow(): number; emailOfSession(sessionId: string | undefined): string | null; sessionCookie: string }): TrafficCounter {
  let counts = new Map<string, TrafficCount>();

  const emailOf = async (c: Parameters<MiddlewareHandler>[0]): Promise<string> => {
    const fromSession = deps.emailOfSession(getCookie(c, deps.sessionCookie));
    if (fromSession) return fromSession;
    if (c.req.method !== "POST" || c.req.path !== "/login") return "";
    // The sign-in form names the member (either portal's field); Hono keeps the body for the route.
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const email = form.email ?? form[LEGACY_USER_FIELD] ?? "";
    return typeof email === "string" ? email.trim().toLowerCase() : "";
  };

  return {
    async middleware(c, next) {
      const minuteMs = Math.floor(deps.clubNow() / 60_000) * 60_000;
      const kind = kindOf(c.req.method, c.req.path);
      const email = await emailOf(c);
      await next();
      const key = `${minuteMs}|${kind}|${email}`;
      const entry = counts.get(key) ?? { minuteMs, kind, email, serverErrors: 0, count: 0 };
      entry.count += 1;
      if (c.res.status >= 500) entry.serverErrors += 1;
      counts.delete(key);
      counts.set(key, entry);
      if (counts.size > MAX_TRAFFIC_ENTRIES) counts.delete(counts.keys().next().value ?? "");
    },
    take() {
      const all = [...counts.values()].sort((a, b) => a.minuteMs - b.minuteMs);
      counts = new Map();
      return all;
    },
  };
}
