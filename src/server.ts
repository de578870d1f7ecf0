/**
 * Bun.serve for Teebox: /v1 to the Hono app, /v1/ws to the socket hub, and the React app (one
 * code-split bundle from web-assets.ts) for every other path so deep links such as /bookings load the app.
 */
import type { Hono } from "hono";
import type { Server } from "bun";
import type { AppBindings, AppDeps, AppEnv } from "./deps.ts";
import { getSessionFromCookieHeader, resolveSession } from "./services/sessions.ts";
import { hostMissing, hostOf, isAllowedOrigin, misdirected, trustOf } from "./lib/middleware.ts";
import { textError } from "./lib/errors.ts";
import { SOCKET_MAX_PER_USER } from "./lib/limits.ts";
import { SECURITY_HEADERS } from "./lib/security-headers.ts";
import type { SocketData } from "./realtime/hub.ts";
import type { WebAssets } from "./web-assets.ts";
import { answerTeeTimesFast } from "./features/availability/tee-times-fast-path.ts";

export interface HttpServer {
  url: string;
  server: Server<SocketData>;
  /** Stops listening; requests in flight finish. */
  stopAccepting(): Promise<void>;
  /** Closes what is still open, sockets included. */
  closeConnections(): Promise<void>;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...SECURITY_HEADERS },
  });
}

/**
 * Answers the React app: a bundle file by its path, index.html (with the security headers) for every
 * other path so deep links load the app. Gzipped when the browser accepts it.
 */
function createWebHandler(assets: WebAssets) {
  const index = assets.get("/index.html");
  if (!index) throw new Error("the web bundle has no index.html");
  return (req: Request) => {
    const path = new URL(req.url).pathname;
    const file = path !== "/index.html" ? assets.get(path) : undefined;
    const asset = file ?? index;
    const headers: Record<string, string> = {
      "content-type": asset.contentType,
      "cache-control": asset.isImmutable && file ? "public, max-age=31536000, immutable" : "no-cache",
      vary: "accept-encoding",
      ...SECURITY_HEADERS,
    };
    const acceptsGzip = /\bgzip\b/.test(req.headers.get("accept-encoding") ?? "");
    if (asset.gzip && acceptsGzip) {
      headers["content-encoding"] = "gzip";
      return new Response(asset.gzip, { headers });
    }
    return new Response(asset.body, { headers });
  };
}

export function startHttpServer(options: { app: Hono<AppEnv>; deps: AppDeps; web: WebAssets; port: number; host: string }): HttpServer {
  const { app, deps } = options;
  // Hono gets the socket's address as a binding (a header could be sent from outside), looked up
  // only when asked for: sign-in counts failures per address, reads never need it.
  const forward = (req: Request, server: Server<SocketData>) => app.fetch(req, { clientIp: () => server.requestIP(req)?.address ?? "unknown" } satisfies AppBindings);

  // Every path, pages and socket included, answers only for our host names (DNS rebinding); a
  // request naming no host (HTTP/1.0) gets 400 before anything reads its URL.
  const unknownHost = misdirected();
  const noHost = hostMissing();
  const forHostsOfOurs =
    <A extends unknown[]>(handler: (req: Request, ...rest: A) => Response | undefined | Promise<Response | undefined>) =>
    (req: Request, ...rest: A) => {
      const host = hostOf(req);
      if (host === undefined) return json(noHost.status, noHost.toBody());
      return trustOf(deps).isAllowedHost(host) ? handler(req, ...rest) : json(unknownHost.status, unknownHost.toBody());
    };

  const server: Server<SocketData> = Bun.serve<SocketData>({
    port: options.port,
    hostname: options.host,
    development: false,
    routes: {
      "/v1/ws": forHostsOfOurs(async (req: Request, srv: Server<SocketData>) => {
        if (!isAllowedOrigin(deps, req.headers.get("origin") ?? undefined, req.url, req.headers.get("host") ?? undefined)) {
          return json(403, textError(403, "request.bad_origin").toBody());
        }
        const session = await getSessionFromCookieHeader(deps, req.headers.get("cookie"));
        if (!session) return json(401, textError(401, "auth.required").toBody());
        if (deps.hub.userConnectionCount(session.user.id) >= SOCKET_MAX_PER_USER) {
          return json(429, textError(429, "socket.too_many").toBody());
        }
        const data: SocketData = { ...session, current: () => resolveSession(deps, session.sessionId) };
        if (srv.upgrade(req, { data })) return undefined as unknown as Response;
        return json(400, textError(400, "socket.upgrade_required").toBody());
      }),
      // The read every open app makes: answered without the app's router when it can be (decision 195).
      "/v1/tee-times": forHostsOfOurs((req: Request, srv: Server<SocketData>) => {
        const fast = answerTeeTimesFast(deps, req);
        if (fast instanceof Response) return fast;
        return fast === null ? forward(req, srv) : fast.then((answer) => answer ?? forward(req, srv));
      }),
      "/v1/*": forHostsOfOurs(forward),
      "/v1": forHostsOfOurs(forward),
      "/healthz": forHostsOfOurs(forward),
      "/readyz": forHostsOfOurs(forward),
      "/metrics": forHostsOfOurs(forward),
      "/*": forHostsOfOurs(createWebHandler(options.web)),
    },
    fetch: forHostsOfOurs(forward),
    websocket: deps.hub.websocket,
    error(error) {
      deps.logger.error("server error", { error });
      return json(500, textError(500, "common.unexpected").toBody());
    },
  });
  deps.hub.attach(server);
  const webJob = deps.jobs.register("web server");
  const hubJob = deps.jobs.register("socket hub");
  webJob.started(deps.clock.now());
  hubJob.started(deps.clock.now());
  return {
    url: `http://${options.host === "0.0.0.0" ? "localhost" : options.host}:${server.port}`,
    server,
    stopAccepting: async () => {
      webJob.stopped();
      // Stops listening at once; its promise only settles when every socket is gone, so it is not awaited.
      void server.stop(false);
    },
    closeConnections: async () => {
      hubJob.stopped();
      await server.stop(true);
    },
  };
}
