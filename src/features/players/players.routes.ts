import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { playersRoutes } from "./players.contract.ts";
import { listSavedPlayers } from "./players.service.ts";

/** GET /v1/my/players: the member's saved players, in their saved order. */
export function createPlayersRoutes(deps: Pick<AppDeps, "database">) {
  return routeGroup().handle(playersRoutes.list, async (c) => {
    const user = currentUser(c);
    c.header("cache-control", "no-store");
    return c.json(await listSavedPlayers(deps.database.db, user.id), 200);
  });
}
