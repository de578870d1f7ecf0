/**
 * Every /v1/admin group (spec §7 admin calls), each mounted by src/app.ts behind the admin guard
 * (401 without a session, 403 for a member).
 */
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import {
  createBookingRulesRoutes,
  createBookingWindowsRoutes,
  createCoursesRoutes,
  createFrontpageMessagesRoutes,
  createFullConfigRoutes,
  createHolidaysRoutes,
} from "./admin-config.routes.ts";
import { createAppSettingsRoutes, createUiTextRoutes } from "./admin-settings.routes.ts";
import { createSystemStatsRoutes } from "./admin-stats.routes.ts";
import { createAdminUsersRoutes } from "./admin-users.routes.ts";
import { createClubCheckRoutes } from "./admin-club-check.routes.ts";

export function createAdminRouteGroups(): [string, Hono<AppEnv>][] {
  return [
    ["/users", createAdminUsersRoutes()],
    ["/system-stats", createSystemStatsRoutes()],
    ["/full-config", createFullConfigRoutes()],
    ["/app-settings", createAppSettingsRoutes()],
    ["/ui-text", createUiTextRoutes()],
    ["/holidays", createHolidaysRoutes()],
    ["/booking-rules", createBookingRulesRoutes()],
    ["/courses", createCoursesRoutes()],
    ["/booking-windows", createBookingWindowsRoutes()],
    ["/frontpage-messages", createFrontpageMessagesRoutes()],
    ["/club-check", createClubCheckRoutes()],
  ];
}
