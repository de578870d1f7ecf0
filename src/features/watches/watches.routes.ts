import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { currentUser } from "../../lib/middleware.ts";
import { readParam } from "../../lib/validate.ts";
import { watchIdParamSchema } from "./watches-input.ts";
import { cancelWatch, createWatch, listWatches } from "./watches.service.ts";

/** The member's slot watches (/v1/my/watches) and the readiness check of their requests. */
export function createWatchesRoutes() {
  return new Hono<AppEnv>()
    .get("/watches", async (c) => {
      const user = currentUser(c);
      c.header("cache-control", "no-store");
      return c.json(await listWatches(c.get("deps").database.db, user.id));
    })
    .post("/watches", async (c) => {
      const user = currentUser(c);
      let payload: unknown;
      try {
        payload = await c.req.json();
      } catch {
        payload = undefined;
      }
      return c.json({ watch: await createWatch(c.get("deps"), user, payload) }, 201);
    })
    .post("/watches/:id/cancel", async (c) => {
      const user = currentUser(c);
      await cancelWatch(c.get("deps"), user.id, readParam(c, "id", watchIdParamSchema));
      return c.body(null, 204);
    })
    .post("/requests/check", async (c) => {
      const user = currentUser(c);
      return c.json(await c.get("deps").readiness.checkMember(user.id));
    });
}
