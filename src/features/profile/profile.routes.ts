import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { currentUser } from "../../lib/middleware.ts";
import { readJson } from "../../lib/validate.ts";
import { changePasswordSchema, setPasswordSchema, updateProfileSchema } from "./profile.schemas.ts";
import { changePassword, setFirstPassword, updateProfile } from "./profile.service.ts";

/** PUT /v1/my/profile, POST /v1/my/user/change-password, POST /v1/my/user/set-password. */
export function createProfileRoutes() {
  return new Hono<AppEnv>()
    .put("/profile", async (c) => {
      const input = await readJson(c, updateProfileSchema);
      const user = await updateProfile(c.get("deps"), currentUser(c).id, input);
      return c.json({ user });
    })
    .post("/user/change-password", async (c) => {
      const input = await readJson(c, changePasswordSchema);
      await changePassword(c.get("deps"), currentUser(c).id, c.get("sessionId"), input);
      return c.body(null, 204);
    })
    .post("/user/set-password", async (c) => {
      const input = await readJson(c, setPasswordSchema);
      await setFirstPassword(c.get("deps"), currentUser(c).id, c.get("sessionId"), input);
      return c.body(null, 204);
    });
}
