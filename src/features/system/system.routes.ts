import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { listFormOptions, readUiText } from "../../services/options-and-texts.service.ts";
import { systemRoutes } from "./system.contract.ts";

/** Public reference data the login page and forms need before anyone signs in. */
export function createPublicRoutes(deps: Pick<AppDeps, "database">) {
  return routeGroup()
    .handle(systemRoutes.formOptions, async (c) => c.json(await listFormOptions(deps.database.db), 200))
    .handle(systemRoutes.uiText, async (c) => c.json(await readUiText(deps.database.db), 200));
}
