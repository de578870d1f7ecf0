import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { currentUser } from "../../lib/middleware.ts";
import { listSavedPlayers } from "./players.service.ts";

/** GET /v1/my/players: the member's saved players, in their saved order. */
export function createPlayersRoutes() {
  return new Hono<AppEnv>().get("/players", async (c) => {
    const user = currentUser(c);
    c.header("cache-control", "no-store");
    return c.json(await listSavedPlayers(c.get("deps").database.db, user.id));
  });
}
