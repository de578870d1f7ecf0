/** GET /v1/admin/system-stats, polled by the System Monitor every 5 seconds. */
import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { createStatsSampler } from "./admin-stats.service.ts";

export function createSystemStatsRoutes() {
  const sampler = createStatsSampler();
  return new Hono<AppEnv>().get("/", async (c) => c.json(await sampler.read(c.get("deps"))));
}
