import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../deps.ts";
import { clientAddress, isSecureRequest } from "../../lib/middleware.ts";
import { readJson } from "../../lib/validate.ts";
import { loginBodySchema, type AuthStatus } from "./auth.schemas.ts";
import { createLoginLimiters, login } from "./auth.service.ts";
import { endSession, SESSION_COOKIE, signSessionCookie } from "../../services/sessions.ts";

export function createAuthRoutes() {
  const limiters = createLoginLimiters();
  return new Hono<AppEnv>()
    .post("/login", async (c) => {
      const body = await readJson(c, loginBodySchema);
      const deps = c.get("deps");
      const result = await login(deps, limiters, { ...body, address: clientAddress(c) });
      const token = await signSessionCookie(deps, result.sessionId, result.expiresAt);
      setCookie(c, SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: "Lax",
        secure: isSecureRequest(c),
        path: "/",
        expires: new Date(result.expiresAt),
      });
      return c.json({ user: result.user });
    })
    .post("/logout", async (c) => {
      const sessionId = c.get("sessionId");
      if (sessionId) await endSession(c.get("deps"), sessionId);
      deleteCookie(c, SESSION_COOKIE, { path: "/", secure: isSecureRequest(c) });
      return c.body(null, 204);
    })
    .get("/status", (c) => {
      const user = c.get("user");
      const status: AuthStatus = { isAuthenticated: Boolean(user), user };
      return c.json(status);
    });
}
