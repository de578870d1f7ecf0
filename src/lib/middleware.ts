/**
 * Middleware every /v1 request passes: deps, request id, security headers and session; checks on
 * writes; role guards.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import type { Role } from "../db/schema.ts";
import { getSessionFromCookieHeader } from "../services/sessions.ts";
import { type AppError, forbidden, textError, unauthorized } from "./errors.ts";
import { API_SECURITY_HEADERS } from "./security-headers.ts";
import { createTrustPolicy, type TrustPolicy } from "./trust.ts";

const SECURITY_HEADER_ENTRIES = Object.entries(API_SECURITY_HEADERS);

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Request ids unique to this process: a random prefix per start and a counter (no crypto per request). */
function createRequestIds(): () => string {
  const prefix = crypto.randomUUID().slice(0, 8);
  let counter = 0;
  return () => `${prefix}-${(++counter).toString(36)}`;
}

/**
 * The first step of every request, in one layer because reads are the hot path: a request
 * id (logged, and returned with error answers, where support needs it), the security headers (set before the handler so they are part of the answer as it is built),
 * and the signed-in user when a session cookie is sent.
 */
export function prepareRequest(deps: AppDeps, options: { readSession: boolean } = { readSession: true }): MiddlewareHandler<AppEnv> {
  const nextRequestId = createRequestIds();
  return async (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 64) || nextRequestId();
    c.set("requestId", requestId);
    c.set("user", null);
    c.set("sessionId", null);
    for (const [name, value] of SECURITY_HEADER_ENTRIES) c.header(name, value);
    if (!trustOf(deps).isAllowedHost(hostOf(c.req.raw))) {
      const error = misdirected();
      return c.json(error.toBody(), 421);
    }
    // At a release instant the posts leave first: a read arriving in the last moments before a
    // first wave waits until it has left (a few ms), so answering it cannot delay them.
    const wave = deps.releaseEngine?.waveAboutToLeave();
    if (wave) await wave;
    const session = options.readSession ? await getSessionFromCookieHeader(deps, c.req.header("cookie")) : null;
    if (session) {
      c.set("user", session.user);
      c.set("sessionId", session.sessionId);
    }
    await next();
  };
}

const defaultPolicies = new WeakMap<TrustDeps, TrustPolicy>();

/** What the checks of a request's origin, address and scheme use of the app. */
export type TrustDeps = Pick<AppDeps, "trust" | "publicOrigin">;

/** The trust policy of these deps: the configured one, else the defaults for PUBLIC_ORIGIN. */
export function trustOf(deps: TrustDeps): TrustPolicy {
  if (deps.trust) return deps.trust;
  let policy = defaultPolicies.get(deps);
  if (!policy) {
    policy = createTrustPolicy(deps.publicOrigin);
    defaultPolicies.set(deps, policy);
  }
  return policy;
}

/**
 * The Host a request was sent to (the URL's host where no header exists, as in tests); undefined
 * when it names none: an HTTP/1.0 request may send no Host, and Bun then hands over a bare path.
 */
export function hostOf(req: Request): string | undefined {
  const header = req.headers.get("host");
  if (header) return header;
  return URL.canParse(req.url) ? new URL(req.url).host || undefined : undefined;
}

/** A request that names no host at all (HTTP/1.0 without Host): 400, never a crash on its URL. */
export function hostMissing(): AppError {
  return textError(400, "request.no_host");
}

/** A request for a host name that is not ours (DNS rebinding, a misrouted proxy): 421. */
export function misdirected(): AppError {
  return textError(421, "request.unknown_host");
}

/**
 * The client's address: the socket's, or behind a trusted proxy the right-most forwarded address
 * that is not itself a trusted proxy. Looked up only when asked (sign-in, limits), not per read.
 */
export function clientAddress(c: Context<AppEnv>, deps: TrustDeps): string {
  const peer = c.env?.clientIp?.() ?? "unknown";
  return trustOf(deps).clientAddress(peer, c.req.header("x-forwarded-for"));
}

/** The origins a browser page of ours can have: PUBLIC_ORIGIN, else the one the request came to. */
export function allowedOrigins(deps: TrustDeps, requestUrl: string, hostHeader: string | undefined): string[] {
  if (deps.publicOrigin) return [deps.publicOrigin];
  const url = new URL(requestUrl);
  const own = [url.origin];
  if (hostHeader) own.push(`${url.protocol}//${hostHeader}`);
  return own;
}

export function isAllowedOrigin(deps: TrustDeps, origin: string | undefined, requestUrl: string, host?: string): boolean {
  return Boolean(origin) && allowedOrigins(deps, requestUrl, host).includes(origin as string);
}

/**
 * State-changing calls must be JSON (a cross-site form cannot send it) from one of our own pages,
 * and their bodies are measured; reads pass straight through.
 */
export function guardWrites(deps: TrustDeps, limitBody: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("application/json")) {
      throw textError(415, "request.json_required");
    }
    if (!isAllowedOrigin(deps, c.req.header("origin"), c.req.url, c.req.header("host"))) {
      throw forbidden("request.bad_origin");
    }
    return limitBody(c, next);
  };
}

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("user")) throw unauthorized();
  await next();
};

/** The only member calls open to a user who must still choose their own password. */
const PASSWORD_CALLS = new Set(["/v1/my/user/set-password", "/v1/my/user/change-password"]);

/**
 * A user whose password an admin typed (or equals the username) must choose their own before
 * anything else: every member and admin call but setting the password answers 403.
 */
export const requireOwnPassword: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("user")?.mustSetPassword && !PASSWORD_CALLS.has(c.req.path)) {
    throw forbidden("password.must_change");
  }
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

/** Whether cookies get Secure: PUBLIC_ORIGIN's scheme, else the connection's, or a trusted proxy's word. */
export function isSecureRequest(c: Context<AppEnv>, deps: TrustDeps): boolean {
  if (deps.publicOrigin) return deps.publicOrigin.startsWith("https:");
  if (c.req.url.startsWith("https:")) return true;
  const proto = c.req.header("x-forwarded-proto");
  if (!proto) return false;
  const peer = c.env?.clientIp?.() ?? "unknown";
  // The proxy nearest to us appends last.
  return trustOf(deps).isTrustedProxy(peer) && proto.split(",").at(-1)?.trim().toLowerCase() === "https";
}
