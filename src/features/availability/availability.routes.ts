/** GET /v1/tee-times, /v1/system/dates, /v1/system/rules and /v1/advisories. */
import type { AppDeps } from "../../deps.ts";
import { routeGroup, serialisedJson } from "../../lib/contract.ts";
import { readRules } from "../../services/booking-config.service.ts";
import { availabilityRoutes } from "./availability.contract.ts";
import type { TeeTimesResponse } from "./availability.schemas.ts";
import { readAdvisories, readBookableDates, readTeeTimesJson } from "./availability.service.ts";
import { acceptsGzip } from "../../lib/compress.ts";

export function createAvailabilityRoutes(deps: Pick<AppDeps, "database" | "clock">) {
  const { db } = deps.database;
  return routeGroup()
    .handle(availabilityRoutes.teeTimes, async (c) => {
      const answer = await readTeeTimesJson(deps);
      // The kept gzipped copy (decision 195), so the compression middleware has nothing left to do.
      if (acceptsGzip(c.req.header("accept-encoding"))) {
        c.header("content-encoding", "gzip");
        c.header("vary", "accept-encoding", { append: true });
        return serialisedJson<TeeTimesResponse>(c, answer.gzip());
      }
      return serialisedJson<TeeTimesResponse>(c, answer.body);
    })
    .handle(availabilityRoutes.dates, async (c) => c.json(await readBookableDates(db, deps.clock.now()), 200))
    .handle(availabilityRoutes.rules, async (c) => c.json(await readRules(db), 200))
    .handle(availabilityRoutes.advisories, async (c) => c.json(await readAdvisories(db), 200));
}
