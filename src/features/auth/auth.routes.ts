import { deleteCookie, setCookie } from "hono/cookie";
import { routeGroup } from "../../lib/contract.ts";
import { clientAddress, isSecureRequest, type TrustDeps } from "../../lib/middleware.ts";
import { endSession, SESSION_COOKIE, signSessionCookie, type SessionDeps } from "../../services/sessions.ts";
import { authRoutes } from "./auth.contract.ts";
import type { AuthStatus } from "./auth.schemas.ts";
import { createLoginLimiters, login, type LoginDeps } from "./auth.service.ts";

export type AuthRoutesDeps = LoginDeps & SessionDeps & TrustDeps;

export function createAuthRoutes(deps: AuthRoutesDeps) {
  const limiters = createLoginLimiters();
  return routeGroup()
    .handle(authRoutes.login, async (c) => {
      const body = c.req.valid("json");
      const result = await login(deps, limiters, { ...body, address: clientAddress(c, deps) });
      const token = await signSessionCookie(deps, result.sessionId, result.expiresAt);
      setCookie(c, SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: "Lax",
        secure: isSecureRequest(c, deps),
        path: "/",
        // How long, not until when: the cookie library checks an Expires date against the machine's
        // own time, and Teebox's clock is not always it (a simulated year refused every sign-in).
        maxAge: Math.max(0, Math.floor((result.expiresAt - deps.clock.now()) / 1000)),
      });
      return c.json({ user: result.user }, 200);
    })
    .handle(authRoutes.logout, async (c) => {
      const sessionId = c.get("sessionId");
      if (sessionId) await endSession(deps, sessionId);
      deleteCookie(c, SESSION_COOKIE, { path: "/", secure: isSecureRequest(c, deps) });
      return c.body(null, 204);
    })
    .handle(authRoutes.status, (c) => {
      const user = c.get("user");
      const status: AuthStatus = { isAuthenticated: Boolean(user), user };
      return c.json(status, 200);
    });
}
