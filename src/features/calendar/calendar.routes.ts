import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../deps.ts";
import { textError } from "../../lib/errors.ts";
import { currentUser } from "../../lib/middleware.ts";
import { readJson } from "../../lib/validate.ts";
import { feedOf, memberOfFeed, readAddress, renewAddress } from "./calendar.service.ts";

/** Where the member's calendar app will fetch from: PUBLIC_ORIGIN, else the origin this call came to. */
const originOf = (c: { get: (key: "deps") => { publicOrigin: string | null }; req: { url: string } }) => c.get("deps").publicOrigin ?? new URL(c.req.url).origin;

/** A new address takes no input: an empty JSON object (anything else is refused, nothing changes). */
const newAddressBodySchema = z.strictObject({});

/** GET /v1/my/calendar (the address, if made) and POST /v1/my/calendar (a new one; the old stops working). */
export function createMyCalendarRoutes() {
  return new Hono<AppEnv>()
    .get("/calendar", async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await readAddress(c.get("deps"), currentUser(c).id, originOf(c)));
    })
    .post("/calendar", async (c) => {
      await readJson(c, newAddressBodySchema);
      c.header("cache-control", "no-store");
      return c.json(await renewAddress(c.get("deps"), currentUser(c).id, originOf(c)));
    });
}

const NOT_FOUND = textError(404, "calendar.not_found").toBody();

/**
 * GET /v1/calendar/<token>.ics: public (calendar apps send no cookie); the token is the credential.
 * The path carries it, so nothing here logs the path, and a failure is answered here rather than
 * by the app's error handler, which would log it.
 */
export function createCalendarFeedRoutes() {
  return new Hono<AppEnv>().get("/:file", async (c) => {
    const deps = c.get("deps");
    c.header("cache-control", "private, no-cache");
    c.header("x-robots-tag", "noindex");
    try {
      const userId = await memberOfFeed(deps.database.db, c.req.param("file"));
      if (userId === null) return c.json(NOT_FOUND, 404);
      const body = await feedOf(deps.database.db, userId, deps.clock.now());
      return c.body(body, 200, { "content-type": "text/calendar; charset=utf-8", "content-disposition": 'inline; filename="teebox.ics"' });
    } catch (error) {
      deps.logger.error("calendar feed failed", { requestId: c.get("requestId"), error: error instanceof Error ? error.name : "unknown" });
      return c.json(textError(500, "common.unexpected").toBody(), 500);
    }
  });
}
