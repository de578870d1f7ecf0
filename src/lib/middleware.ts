/**
 * Middleware every /v1 request passes: request id, session, same-origin checks, and role guards.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { randomUUID } from "node:crypto";
import type { AppDeps, AppEnv } from "../deps.ts";
import type { Role } from "../db/schema.ts";
import { resolveSessionToken, SESSION_COOKIE } from "../features/auth/sessions.ts";
import { AppError, forbidden, unauthorized } from "./errors.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function withDeps(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("deps", deps);
    c.set("requestId", c.req.header("x-request-id")?.slice(0, 64) || randomUUID());
    c.set("user", null);
    c.set("sessionId", null);
    await next();
    c.header("x-request-id", c.get("requestId"));
  };
}

/** The origins a browser page of ours can have: PUBLIC_ORIGIN, else the one the request came to. */
export function allowedOrigins(deps: AppDeps, requestUrl: string, hostHeader: string | undefined): string[] {
  if (deps.publicOrigin) return [deps.publicOrigin];
  const url = new URL(requestUrl);
  const own = [url.origin];
  if (hostHeader) own.push(`${url.protocol}//${hostHeader}`);
  return own;
}

export function isAllowedOrigin(deps: AppDeps, origin: string | undefined, requestUrl: string, host?: string): boolean {
  return Boolean(origin) && allowedOrigins(deps, requestUrl, host).includes(origin as string);
}

/** State-changing calls must be JSON from one of our own pages (a cross-site form cannot do either). */
export const sameOriginJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (STATE_CHANGING.has(c.req.method)) {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("application/json")) {
      throw new AppError(415, "Requests must be sent as JSON.", "request.json_required");
    }
    if (!isAllowedOrigin(c.get("deps"), c.req.header("origin"), c.req.url, c.req.header("host"))) {
      throw forbidden("This request did not come from Teebox.", "request.bad_origin");
    }
  }
  await next();
};

export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = await resolveSessionToken(c.get("deps"), getCookie(c, SESSION_COOKIE));
  if (session) {
    c.set("user", session.user);
    c.set("sessionId", session.sessionId);
  }
  await next();
};

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("user")) throw unauthorized();
  await next();
};

export function requireRole(...roles: Role[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get("user");
    if (!user) throw unauthorized();
    if (!roles.includes(user.role)) throw forbidden();
    await next();
  };
}

/** The signed-in user of a route behind requireUser. */
export function currentUser(c: Context<AppEnv>) {
  const user = c.get("user");
  if (!user) throw unauthorized();
  return user;
}

export function isSecureRequest(c: Context<AppEnv>): boolean {
  const deps = c.get("deps");
  if (deps.publicOrigin) return deps.publicOrigin.startsWith("https:");
  return c.req.url.startsWith("https:") || c.req.header("x-forwarded-proto") === "https";
}
