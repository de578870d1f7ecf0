/**
 * Fault switches of the demo club: slowness, server errors, dropped sessions, a changed
 * page layout, being down, opening dates later than announced, and asking its visitors to slow
 * down (429, 503 with Retry-After, a bot wall's challenge page). The control API and the tests
 * flip them at run time.
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { renderErrorPage, type PageLayout } from "./pages.ts";

export interface ClubFaults {
  /** Added delay before every answer (real time: it stands for the network and a busy server). */
  latencyMs: number;
  /** Share (0–1) of requests answered with a 500 before anything is done. */
  errorRate: number;
  /** Share (0–1) of signed-in requests whose session the club forgets (true = every one). */
  dropSessions: number;
  layout: PageLayout;
  /** Every page answers 503, as during maintenance. */
  down: boolean;
  /** Every date opens this much later (club clock) than announced: booking answers "not yet open" meanwhile. */
  openLateMs: number;
  /**
   * Every page answers "slow down": a 429, a 503 with Retry-After, or a bot wall's challenge page
   * ("Just a moment...") with `challengeStatus`; "off" answers normally.
   */
  slowDown: "off" | "429" | "503" | "challenge";
  /** The Retry-After (seconds) sent with a 429 or 503; 0 sends none. */
  retryAfterSeconds: number;
  challengeStatus: 200 | 403 | 503;
}

export const NO_FAULTS: ClubFaults = {
  latencyMs: 0,
  errorRate: 0,
  dropSessions: 0,
  layout: "standard",
  down: false,
  openLateMs: 0,
  slowDown: "off",
  retryAfterSeconds: 30,
  challengeStatus: 403,
};

export const faultsInputSchema = z
  .object({
    latencyMs: z.number().min(0).max(120_000),
    errorRate: z.number().min(0).max(1),
    dropSessions: z.union([z.boolean(), z.number().min(0).max(1)]),
    layout: z.enum(["standard", "changed", "legacy"]),
    down: z.boolean(),
    openLateMs: z.number().int().min(0).max(3_600_000),
    slowDown: z.enum(["off", "429", "503", "challenge"]),
    retryAfterSeconds: z.number().int().min(0).max(86_400),
    challengeStatus: z.union([z.literal(200), z.literal(403), z.literal(503)]),
  })
  .partial()
  .strict();

export type ClubFaultsInput = z.infer<typeof faultsInputSchema>;

export function mergeFaults(current: ClubFaults, input: ClubFaultsInput): ClubFaults {
  const { dropSessions, ...rest } = faultsInputSchema.parse(input);
  const next = { ...current, ...rest };
  if (dropSessions !== undefined) next.dropSessions = typeof dropSessions === "boolean" ? (dropSessions ? 1 : 0) : dropSessions;
  return next;
}

export interface FaultDeps {
  faults(): ClubFaults;
  random(): number;
  /** Called for a booking post that a fault stopped, so the attempt log stays complete. */
  onBookingFault(outcome: "server_error" | "down" | "slowed_down", form: Record<string, string>, request: Request): void;
}

/** What a bot wall in front of a club shows instead of the club's page (the words of the best-known one). */
export function renderChallengePage(): string {
  return `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="8"></head><body><div id="cf-challenge-running"><h1>Checking your browser before accessing the booking site.</h1><p>This process is automatic. Your browser will redirect to your requested content shortly.</p><noscript>Please enable JavaScript and cookies to continue.</noscript></div><p>DDoS protection by a content delivery network.</p></body></html>`;
}

const isBookingPost = (method: string, path: string) => method === "POST" && path === "/members/book";

export function faultMiddleware(deps: FaultDeps): MiddlewareHandler {
  return async (c, next) => {
    const faults = deps.faults();
    if (faults.latencyMs > 0) await Bun.sleep(faults.latencyMs);
    const outcome = faults.slowDown !== "off" ? "slowed_down" : faults.down ? "down" : faults.errorRate > 0 && deps.random() < faults.errorRate ? "server_error" : null;
    if (!outcome) return next();
    if (isBookingPost(c.req.method, c.req.path)) {
      const body = await c.req.parseBody();
      const form = Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"));
      deps.onBookingFault(outcome, form, c.req.raw);
    }
    if (outcome === "slowed_down") {
      if (faults.retryAfterSeconds > 0 && faults.slowDown !== "challenge") c.header("Retry-After", String(faults.retryAfterSeconds));
      if (faults.slowDown === "challenge") return c.html(renderChallengePage(), faults.challengeStatus);
      return faults.slowDown === "429"
        ? c.html(renderErrorPage(429, "Too many requests. Please slow down."), 429)
        : c.html(renderErrorPage(503, "Service temporarily unavailable. Please try again later."), 503);
    }
    return outcome === "down"
      ? c.html(renderErrorPage(503, "The booking site is temporarily unavailable for maintenance."), 503)
      : c.html(renderErrorPage(500, "Internal Server Error"), 500);
  };
}
