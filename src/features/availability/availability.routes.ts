/**
 * GET /v1/tee-times, /v1/system/dates, /v1/system/rules and /v1/advisories (spec §7). They take no
 * input: the cache-busting query the web app adds is ignored.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { readRules } from "../../services/booking-config.service.ts";
import { readAdvisories, readBookableDates, readTeeTimesJson } from "./availability.service.ts";
import { acceptsGzip } from "../../lib/compress.ts";

export function createTeeTimesRoutes() {
  return new Hono<AppEnv>().get("/", async (c) => {
    const answer = await readTeeTimesJson(c.get("deps"));
    c.header("content-type", "application/json");
    // The kept gzipped copy, so the compression middleware has nothing left to do.
    if (acceptsGzip(c.req.header("accept-encoding"))) {
      c.header("content-encoding", "gzip");
      c.header("vary", "accept-encoding", { append: true });
      return c.body(answer.gzip());
    }
    return c.body(answer.body);
  });
}

/** Mounted at /system beside other system routes. */
export function createAvailabilitySystemRoutes() {
  return new Hono<AppEnv>()
    .get("/dates", async (c) => {
      const { database, clock } = c.get("deps");
      return c.json(await readBookableDates(database.db, clock.now()));
    })
    .get("/rules", async (c) => c.json(await readRules(c.get("deps").database.db)));
}

export function createAdvisoriesRoutes() {
  return new Hono<AppEnv>().get("/", async (c) => c.json(await readAdvisories(c.get("deps").database.db)));
}
