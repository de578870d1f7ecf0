import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { textError } from "../../lib/errors.ts";
import { currentUser } from "../../lib/middleware.ts";
import { calendarRoutes } from "./calendar.contract.ts";
import { feedOf, memberOfFeed, readAddress, renewAddress, type CalendarDeps } from "./calendar.service.ts";

export type CalendarRoutesDeps = CalendarDeps & Pick<AppDeps, "publicOrigin">;

/** Where the member's calendar app will fetch from: PUBLIC_ORIGIN, else the origin this call came to. */
const originOf = (deps: CalendarRoutesDeps, c: Context<AppEnv>) => deps.publicOrigin ?? new URL(c.req.url).origin;

/** GET /v1/my/calendar (the address, if made) and POST /v1/my/calendar (a new one; the old stops working). */
export function createMyCalendarRoutes(deps: CalendarRoutesDeps) {
  return routeGroup()
    .handle(calendarRoutes.address, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await readAddress(deps, currentUser(c).id, originOf(deps, c)), 200);
    })
    .handle(calendarRoutes.renew, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await renewAddress(deps, currentUser(c).id, originOf(deps, c)), 200);
    });
}

const NOT_FOUND = textError(404, "calendar.not_found").toBody();

/**
 * GET /v1/calendar/<token>.ics: public (calendar apps send no cookie); the token is the credential.
 * The path carries it, so nothing here logs the path, and a failure is answered here rather than
 * by the app's error handler, which would log it.
 */
export function createCalendarFeedRoutes(deps: Pick<AppDeps, "database" | "clock" | "logger">) {
  return routeGroup().handle(calendarRoutes.feed, async (c) => {
    c.header("cache-control", "private, no-cache");
    c.header("x-robots-tag", "noindex");
    try {
      const userId = await memberOfFeed(deps.database.db, c.req.valid("param").file);
      if (userId === null) return c.json(NOT_FOUND, 404);
      const body = await feedOf(deps.database.db, userId, deps.clock.now());
      return c.body(body, 200, { "content-type": "text/calendar; charset=utf-8", "content-disposition": 'inline; filename="teebox.ics"' });
    } catch (error) {
      deps.logger.error("calendar feed failed", { requestId: c.get("requestId"), error: error instanceof Error ? error.name : "unknown" });
      return c.json(textError(500, "common.unexpected").toBody(), 500);
    }
  });
}
