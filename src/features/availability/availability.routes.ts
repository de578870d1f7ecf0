/** GET /v1/tee-times, /v1/system/dates, /v1/system/rules and /v1/advisories. */
import type { Context } from "hono";
import type { AppDeps } from "../../deps.ts";
import { routeGroup, serialisedJson } from "../../lib/contract.ts";
import type { KeptJson } from "../../services/kept-answers.ts";
import { availabilityRoutes } from "./availability.contract.ts";
import type { AdvisoriesResponse, RulesResponse, TeeTimesResponse } from "./availability.schemas.ts";
import { readAdvisoriesJson, readBookableDates, readRulesJson, readTeeTimesJson } from "./availability.service.ts";
import { acceptsGzip } from "../../lib/compress.ts";

/** A kept answer as it is (decisions 007, 195): its gzipped copy when the browser takes one, so the compression middleware has nothing left to do. */
function keptAnswer<T>(c: Context, answer: KeptJson) {
  if (acceptsGzip(c.req.header("accept-encoding"))) {
    c.header("content-encoding", "gzip");
    c.header("vary", "accept-encoding", { append: true });
    return serialisedJson<T>(c, answer.gzip());
  }
  return serialisedJson<T>(c, answer.body);
}

export function createAvailabilityRoutes(deps: Pick<AppDeps, "database" | "clock">) {
  const { db } = deps.database;
  return routeGroup()
    .handle(availabilityRoutes.teeTimes, async (c) => keptAnswer<TeeTimesResponse>(c, await readTeeTimesJson(deps)))
    .handle(availabilityRoutes.dates, async (c) => c.json(await readBookableDates(db, deps.clock.now()), 200))
    .handle(availabilityRoutes.rules, async (c) => keptAnswer<RulesResponse>(c, await readRulesJson(deps)))
    .handle(availabilityRoutes.advisories, async (c) => keptAnswer<AdvisoriesResponse>(c, await readAdvisoriesJson(deps)));
}
