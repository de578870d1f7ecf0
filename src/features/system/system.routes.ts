import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { listFormOptions, readUiText } from "../../services/options-and-texts.service.ts";

/** Public reference data the login page and forms need before anyone signs in. */
export function createPublicRoutes() {
  return new Hono<AppEnv>()
    .get("/form-options", async (c) => c.json(await listFormOptions(c.get("deps").database.db)))
    .get("/ui-text", async (c) => c.json(await readUiText(c.get("deps").database.db)));
}
