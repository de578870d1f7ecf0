import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { textError } from "../../lib/errors.ts";
import { createWindowLimiter, READINESS_CHECK_LIMIT, READINESS_CHECK_WINDOW_MS } from "../../lib/limits.ts";
import { currentUser } from "../../lib/middleware.ts";
import { watchesRoutes } from "./watches.contract.ts";
import { cancelWatch, createWatch, listWatches, type WatchesDeps } from "./watches.service.ts";

export type WatchesRoutesDeps = WatchesDeps & Pick<AppDeps, "readiness">;

/** The member's slot watches (/v1/my/watches) and the readiness check of their requests. */
export function createWatchesRoutes(deps: WatchesRoutesDeps) {
  // Each check signs in at the club, so a member cannot make Teebox hammer it.
  const checks = createWindowLimiter(READINESS_CHECK_LIMIT, READINESS_CHECK_WINDOW_MS);
  return routeGroup()
    .handle(watchesRoutes.list, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await listWatches(deps.database.db, currentUser(c).id), 200);
    })
    .handle(watchesRoutes.create, async (c) => {
      return c.json({ watch: await createWatch(deps, currentUser(c), c.req.valid("json")) }, 201);
    })
    .handle(watchesRoutes.cancel, async (c) => {
      await cancelWatch(deps, currentUser(c).id, c.req.valid("param").id);
      return c.body(null, 204);
    })
    .handle(watchesRoutes.checkRequests, async (c) => {
      const user = currentUser(c);
      const now = deps.clock.now();
      const key = String(user.id);
      if (!checks.hasRoom(key, now)) {
        throw textError(429, "readiness.error.too_often", undefined, { "retry-after": String(Math.max(1, Math.ceil((checks.freeAt(key, now) - now) / 1000))) });
      }
      checks.add(key, now);
      return c.json(await deps.readiness.checkMember(user.id), 200);
    });
}
