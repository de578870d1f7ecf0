/**
 * createApp(deps): the Hono app behind /v1, with its middleware and one error handler.
 * No side effects: main.ts and tests give it everything it uses.
 */
import { createWatchesRoutes } from "./features/watches/watches.routes.ts";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "./deps.ts";
import { createAuthRoutes } from "./features/auth/auth.routes.ts";
import { createAdvisoriesRoutes, createAvailabilitySystemRoutes, createTeeTimesRoutes } from "./features/availability/availability.routes.ts";
import { createClubStatusRoutes, createVerifyCredentialsRoutes } from "./features/club/club.routes.ts";
import { createClientLogRoutes } from "./features/client-log/client-log.routes.ts";
import { createPlayersRoutes } from "./features/players/players.routes.ts";
import { createBookingsRoutes, createMyBookingsRoutes } from "./features/bookings/bookings.routes.ts";
import { createProfileRoutes } from "./features/profile/profile.routes.ts";
import { createCalendarFeedRoutes, createMyCalendarRoutes } from "./features/calendar/calendar.routes.ts";
import { createPublicRoutes } from "./features/system/system.routes.ts";
import { checkHealth, checkReady } from "./services/health.service.ts";
import { createMetricsRoutes } from "./features/system/metrics.ts";
import { compressJson } from "./lib/compress.ts";
import { AppError, textError } from "./lib/errors.ts";
import { guardWrites, prepareRequest, requireOwnPassword, requireRole, requireUser } from "./lib/middleware.ts";
import { createAdminRouteGroups } from "./features/admin/admin.routes.ts";
import { createMailOutboxRoutes, createNotificationsRoutes } from "./features/notifications/notifications.routes.ts";

export const MAX_BODY_BYTES = 64 * 1024;

export function createApp(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  api.use("*", compressJson);
  api.use("*", prepareRequest(deps));
  api.on(
    ["POST", "PUT", "PATCH", "DELETE"],
    "*",
    guardWrites(
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: () => {
          throw textError(413, "request.too_large");
        },
      }),
    ),
  );

  // Public: signing in, reference data the login page needs, and browser log entries.
  api.route("/auth", createAuthRoutes());
  api.route("/", createPublicRoutes());
  api.route("/client", createClientLogRoutes());
  // A calendar app fetches the feed with no cookie: its token is the credential.
  api.route("/calendar", createCalendarFeedRoutes());

  // Member groups need a signed-in user; admin groups an admin. Each group is guarded by its own
  // path so an unknown path still answers 404 rather than 401.
  const memberGroups: [string, Hono<AppEnv>][] = [
    ["/my", createVerifyCredentialsRoutes()],
    ["/my", createPlayersRoutes()],
    ["/my", createMyBookingsRoutes()],
    ["/my", createWatchesRoutes()],
    ["/bookings", createBookingsRoutes()],
    ["/my", createProfileRoutes()],
    ["/my", createNotificationsRoutes()],
    ["/my", createMyCalendarRoutes()],
    ["/system", createClubStatusRoutes()],
    ["/tee-times", createTeeTimesRoutes()],
    ["/system", createAvailabilitySystemRoutes()],
    ["/advisories", createAdvisoriesRoutes()],
  ];
  // The outbox is the notifications feature's; the admin feature does not import another feature.
  const adminGroups: [string, Hono<AppEnv>][] = [...createAdminRouteGroups(), ["/mail-outbox", createMailOutboxRoutes()]];
  for (const path of new Set(memberGroups.map(([path]) => path))) api.use(`${path}/*`, requireUser, requireOwnPassword);
  for (const [path, group] of memberGroups) api.route(path, group);
  for (const [path, group] of adminGroups) {
    api.use(`/admin${path}/*`, requireRole("admin", "superadmin"), requireOwnPassword);
    api.route(`/admin${path}`, group);
  }

  api.onError((error, c) => {
    c.header("x-request-id", c.get("requestId"));
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(error.toBody(), error.status);
    }
    if (error instanceof HTTPException) {
      const status = error.status >= 500 ? 500 : error.status;
      return c.json(textError(400, status >= 500 ? "common.unexpected" : "request.invalid").toBody(), status);
    }
    deps.logger.error("unhandled error", { requestId: c.get("requestId"), path: c.req.path, error });
    return c.json(textError(500, "common.unexpected").toBody(), 500);
  });

  const app = new Hono<AppEnv>();
  app.use("/healthz", prepareRequest(deps, { readSession: false }));
  app.get("/healthz", async (c) => {
    const health = await checkHealth(deps);
    return c.json(health, health.status === "ok" ? 200 : 503);
  });
  app.use("/readyz", prepareRequest(deps, { readSession: false }));
  app.get("/readyz", async (c) => {
    const readiness = await checkReady(deps);
    return c.json(readiness, readiness.ready ? 200 : 503);
  });
  app.use("/metrics", prepareRequest(deps, { readSession: false }));
  app.route("/metrics", createMetricsRoutes(deps.metricsToken ?? null));
  app.route("/v1", api);
  app.notFound((c) => c.json(textError(404, "request.no_route").toBody(), 404));
  return app;
}
