/**
 * createApp(deps): the Hono app behind /v1, with its middleware and one error handler, plus the
 * supervisor's probes. No side effects: main.ts and tests give it everything it uses.
 *
 * Every route is added with its contract (src/lib/contract.ts, decision 170): who may call it,
 * its input and every answer. Each route group is given the narrow part of the app it uses, never
 * the whole of it. The contracts make the OpenAPI document at /v1/openapi.json.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "./deps.ts";
import { createAdminRouteGroups } from "./features/admin/admin.routes.ts";
import { createAuthRoutes } from "./features/auth/auth.routes.ts";
import { createAvailabilityRoutes } from "./features/availability/availability.routes.ts";
import { createBookingsRoutes, createMyBookingsRoutes } from "./features/bookings/bookings.routes.ts";
import { createCalendarFeedRoutes, createMyCalendarRoutes } from "./features/calendar/calendar.routes.ts";
import { createClientLogRoutes } from "./features/client-log/client-log.routes.ts";
import { createClubStatusRoutes, createVerifyCredentialsRoutes } from "./features/club/club.routes.ts";
import { createMailOutboxRoutes, createNotificationsRoutes } from "./features/notifications/notifications.routes.ts";
import { createPlayersRoutes } from "./features/players/players.routes.ts";
import { createPushRoutes } from "./features/push/push.routes.ts";
import { createProfileRoutes } from "./features/profile/profile.routes.ts";
import { createMetricsRoutes } from "./features/system/metrics.ts";
import type { ApiDocument } from "./features/system/openapi.schemas.ts";
import { createDocumentRoutes, createProbeRoutes } from "./features/system/probes.routes.ts";
import { createPublicRoutes } from "./features/system/system.routes.ts";
import { createSeriesRoutes } from "./features/series/series.routes.ts";
import { createPartnersRoutes } from "./features/partners/partners.routes.ts";
import { createWatchesRoutes } from "./features/watches/watches.routes.ts";
import type { RouteGroup } from "./lib/contract.ts";
import { compressJson } from "./lib/compress.ts";
import { AppError, textError } from "./lib/errors.ts";
import { guardWrites, prepareRequest } from "./lib/middleware.ts";

export const MAX_BODY_BYTES = 64 * 1024;

/** What the OpenAPI document says of Teebox as a whole. */
export const OPENAPI_INFO = {
  openapi: "3.0.3",
  info: {
    title: "Teebox",
    version: "1",
    description:
      "Every route Teebox serves. Errors are always `{ message, errorKey }`: the problem in the default wording of its UI text, and the key for the member's own wording.",
  },
} as const;

/** The groups of /v1, each with the part of the app it uses. */
function apiRouteGroups(deps: AppDeps, documentOf: () => ApiDocument): RouteGroup[] {
  return [
    // Public: signing in, reference data the login page needs, browser log entries, and the
    // calendar feed (a calendar app sends no cookie: its token is the credential).
    createAuthRoutes(deps),
    createPublicRoutes(deps),
    createClientLogRoutes(deps),
    createCalendarFeedRoutes(deps),
    // Members.
    createVerifyCredentialsRoutes(deps),
    createPlayersRoutes(deps),
    createMyBookingsRoutes(deps),
    createBookingsRoutes(deps),
    createWatchesRoutes(deps),
    createSeriesRoutes(deps),
    createPartnersRoutes(deps),
    createProfileRoutes(deps),
    createNotificationsRoutes(deps),
    createPushRoutes(deps),
    createMyCalendarRoutes(deps),
    createAvailabilityRoutes(deps),
    // Admins. The outbox is the notifications feature's; the admin feature imports no other feature.
    createClubStatusRoutes(deps),
    ...createAdminRouteGroups(deps),
    createMailOutboxRoutes(deps),
    createDocumentRoutes(documentOf),
  ];
}

export function createApp(deps: AppDeps) {
  const api = new OpenAPIHono<AppEnv>();
  api.use("*", compressJson);
  api.use("*", prepareRequest(deps));
  api.on(
    ["POST", "PUT", "PATCH", "DELETE"],
    "*",
    guardWrites(
      deps,
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: () => {
          throw textError(413, "request.too_large");
        },
      }),
    ),
  );
  // Each route carries its own guard (its contract's access), so an unknown path answers 404, never 401.
  // The document is made from the whole app (the probes too), once it is built.
  const documentOf = () => app.getOpenAPIDocument(OPENAPI_INFO) as unknown as ApiDocument;
  for (const group of apiRouteGroups(deps, documentOf)) api.route("/", group);

  api.onError((error, c) => {
    c.header("x-request-id", c.get("requestId"));
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(error.toBody(), error.status);
    }
    if (error instanceof HTTPException) {
      // biome-ignore lint/complexity/useMathMinMax: Math.min would lose the status code's type.
      const status = error.status >= 500 ? 500 : error.status;
      return c.json(textError(400, status >= 500 ? "common.unexpected" : "request.invalid").toBody(), status);
    }
    deps.logger.error("unhandled error", { requestId: c.get("requestId"), path: c.req.path, error });
    return c.json(textError(500, "common.unexpected").toBody(), 500);
  });

  const app = new OpenAPIHono<AppEnv>();
  app.openAPIRegistry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "teebox_session",
    description: "The session cookie set by POST /v1/auth/login",
  });
  for (const path of ["/healthz", "/readyz", "/metrics"]) app.use(path, prepareRequest(deps, { readSession: false }));
  app.route("/", createProbeRoutes(deps));
  app.route("/", createMetricsRoutes(deps));
  app.route("/v1", api);
  app.notFound((c) => c.json(textError(404, "request.no_route").toBody(), 404));
  return app;
}
