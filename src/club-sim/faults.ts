/**
 * Fault switches of the demo club: slowness, server errors, dropped sessions, a changed
 * page layout and being down. The control API and the tests flip them at run time.
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
}

export const NO_FAULTS: ClubFaults = { latencyMs: 0, errorRate: 0, dropSessions: 0, layout: "standard", down: false };

export const faultsInputSchema = z
  .object({
    latencyMs: z.number().min(0).max(120_000),
    errorRate: z.number().min(0).max(1),
    dropSessions: z.union([z.boolean(), z.number().min(0).max(1)]),
    layout: z.enum(["standard", "changed", "legacy"]),
    down: z.boolean(),
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
  onBookingFault(outcome: "server_error" | "down", form: Record<string, string>, request: Request): void;
}

const isBookingPost = (method: string, path: string) => method === "POST" && path === "/members/book";

export function faultMiddleware(deps: FaultDeps): MiddlewareHandler {
  return async (c, next) => {
    const faults = deps.faults();
    if (faults.latencyMs > 0) await Bun.sleep(faults.latencyMs);
    const outcome = faults.down ? "down" : faults.errorRate > 0 && deps.random() < faults.errorRate ? "server_error" : null;
    if (!outcome) return next();
    if (isBookingPost(c.req.method, c.req.path)) {
      const body = await c.req.parseBody();
      const form = Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"));
      deps.onBookingFault(outcome, form, c.req.raw);
    }
    return outcome === "down"
      ? c.html(renderErrorPage(503, "The booking site is temporarily unavailable for maintenance."), 503)
      : c.html(renderErrorPage(500, "Internal Server Error"), 500);
  };
}
