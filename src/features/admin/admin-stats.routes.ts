/**
 * GET /v1/admin/system-stats, polled by the System Monitor every 5 seconds, and
 * GET /v1/admin/system-stats/history: the last day of per-minute samples, folded for its charts.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { foldSeries } from "../../domain/telemetry-series.ts";
import { createStatsSampler } from "./admin-stats.service.ts";

/** Points a chart draws for a day (5-minute steps). */
export const HISTORY_POINTS = 288;

export function createSystemStatsRoutes() {
  const sampler = createStatsSampler();
  return new Hono<AppEnv>()
    .get("/", async (c) => c.json(await sampler.read(c.get("deps"))))
    .get("/history", (c) => c.json({ points: foldSeries(c.get("deps").telemetry.history(), HISTORY_POINTS) }));
}
