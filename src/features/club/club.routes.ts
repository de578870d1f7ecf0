import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../deps.ts";
import { requireRole } from "../../lib/middleware.ts";
import { readJson } from "../../lib/validate.ts";
import { readClubStatus } from "../../club/club-info.ts";
import { verifyClubLogin } from "../../club/club-login.ts";

const credentialsSchema = z.object({
  email: z.string().trim().min(1, "Southwoods email is required.").max(200).email("Please enter a valid email address."),
  password: z.string().min(1, "Password is required.").max(200),
});

/** POST /v1/my/verify-credentials: the setup wizard checks a club login before saving it. */
export function createVerifyCredentialsRoutes() {
  return new Hono<AppEnv>().post("/verify-credentials", async (c) => {
    const body = await readJson(c, credentialsSchema);
    await verifyClubLogin(c.get("deps").club, body.email, body.password);
    return c.json({ ok: true });
  });
}

/** GET /v1/system/club (admins): which club Teebox talks to, and whether it answers. */
export function createClubStatusRoutes() {
  return new Hono<AppEnv>().get("/club", requireRole("admin", "superadmin"), async (c) => {
    const deps = c.get("deps");
    return c.json(await readClubStatus(deps.club, deps.clubInfo));
  });
}
