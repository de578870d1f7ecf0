/**
 * GET /v1/admin/system-stats, polled by the System Monitor every 5 seconds, and
 * GET /v1/admin/system-stats/history: the last day of per-minute samples, folded for its charts.
 */
import type { AppDeps } from "../../deps.ts";
import { foldSeries } from "../../domain/telemetry-series.ts";
import { routeGroup } from "../../lib/contract.ts";
import { adminRoutes } from "./admin.contract.ts";
import { createStatsSampler, type StatsDeps } from "./admin-stats.service.ts";

/** Points a chart draws for a day (5-minute steps). */
export const HISTORY_POINTS = 288;

export function createSystemStatsRoutes(deps: StatsDeps & Pick<AppDeps, "telemetry">) {
  const sampler = createStatsSampler();
  return routeGroup()
    .handle(adminRoutes.systemStats, async (c) => c.json(await sampler.read(deps), 200))
    .handle(adminRoutes.systemHistory, (c) => c.json({ points: foldSeries(deps.telemetry.history(), HISTORY_POINTS) }, 200));
}
