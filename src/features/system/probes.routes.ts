/** GET /healthz and /readyz (decision 132), and the OpenAPI document at /v1/openapi.json (decision 170). */
import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { checkHealth, checkReady } from "../../services/health.service.ts";
import type { ApiDocument } from "./openapi.schemas.ts";
import { documentRoutes, probeRoutes } from "./probes.contract.ts";

export function createProbeRoutes(deps: Pick<AppDeps, "database" | "jobs" | "clock" | "releaseEngine">) {
  return routeGroup()
    .handle(probeRoutes.health, async (c) => {
      const health = await checkHealth(deps);
      return health.status === "ok" ? c.json(health, 200) : c.json(health, 503);
    })
    .handle(probeRoutes.ready, async (c) => {
      const readiness = await checkReady(deps);
      return readiness.ready ? c.json(readiness, 200) : c.json(readiness, 503);
    });
}

/** The document is made once, on its first read: the routes do not change while Teebox runs. */
export function createDocumentRoutes(documentOf: () => ApiDocument) {
  let document: ApiDocument | null = null;
  return routeGroup().handle(documentRoutes.openapi, (c) => {
    document ??= documentOf();
    return c.json(document, 200);
  });
}
