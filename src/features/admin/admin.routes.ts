/**
 * Every /v1/admin group, each route behind the admin guard its contract names (401 without a
 * session, 403 for a member), with the narrow part of the app it uses.
 */
import type { AppDeps } from "../../deps.ts";
import type { RouteGroup } from "../../lib/contract.ts";
import { createAdminConfigRoutes, type AdminConfigDeps } from "./admin-config.routes.ts";
import { createAppSettingsRoutes, createUiTextRoutes } from "./admin-settings.routes.ts";
import { createSystemStatsRoutes } from "./admin-stats.routes.ts";
import { createAdminUsersRoutes } from "./admin-users.routes.ts";
import { createClubCheckRoutes } from "./admin-club-check.routes.ts";
import type { SettingsDeps } from "./admin-settings.service.ts";
import type { StatsDeps } from "./admin-stats.service.ts";
import type { AdminUsersDeps } from "./admin-users.service.ts";

export type AdminDeps = AdminConfigDeps & AdminUsersDeps & SettingsDeps & StatsDeps & Pick<AppDeps, "telemetry" | "secretBox" | "clubInfo">;

export function createAdminRouteGroups(deps: AdminDeps): RouteGroup[] {
  return [
    createAdminUsersRoutes(deps),
    createSystemStatsRoutes(deps),
    createAdminConfigRoutes(deps),
    createAppSettingsRoutes(deps),
    createUiTextRoutes(deps),
    createClubCheckRoutes(deps),
  ];
}
