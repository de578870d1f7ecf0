import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { textError } from "../../lib/errors.ts";
import { createWindowLimiter, READINESS_CHECK_LIMIT, READINESS_CHECK_WINDOW_MS } from "../../lib/limits.ts";
import { currentUser } from "../../lib/middleware.ts";
import { z } from "zod";
import { readBody, readJson, readParam } from "../../lib/validate.ts";
import { watchIdParamSchema } from "./watches-input.ts";
import { cancelWatch, createWatch, listWatches } from "./watches.service.ts";

const checkNowBodySchema = z.strictObject({});

/** The member's slot watches (/v1/my/watches) and the readiness check of their requests. */
export function createWatchesRoutes() {
  // Each check signs in at the club, so a member cannot make Teebox hammer it.
  const checks = createWindowLimiter(READINESS_CHECK_LIMIT, READINESS_CHECK_WINDOW_MS);
  return new Hono<AppEnv>()
    .get("/watches", async (c) => {
      const user = currentUser(c);
      c.header("cache-control", "no-store");
      return c.json(await listWatches(c.get("deps").database.db, user.id));
    })
    .post("/watches", async (c) => {
      const user = currentUser(c);
      const payload = await readBody(c);
      return c.json({ watch: await createWatch(c.get("deps"), user, payload) }, 201);
    })
    .post("/watches/:id/cancel", async (c) => {
      const user = currentUser(c);
      await cancelWatch(c.get("deps"), user.id, readParam(c, "id", watchIdParamSchema));
      return c.body(null, 204);
    })
    .post("/requests/check", async (c) => {
      // Nothing to say but "check now": a body that is not the empty object is refused before anything runs.
      await readJson(c, checkNowBodySchema);
      const user = currentUser(c);
      const deps = c.get("deps");
      const now = deps.clock.now();
      const key = String(user.id);
      if (!checks.hasRoom(key, now)) {
        throw textError(429, "readiness.error.too_often", undefined, { "retry-after": String(Math.max(1, Math.ceil((checks.freeAt(key, now) - now) / 1000))) });
      }
      checks.add(key, now);
      return c.json(await deps.readiness.checkMember(user.id));
    });
}
