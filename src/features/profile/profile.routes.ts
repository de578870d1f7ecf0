import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { profileRoutes } from "./profile.contract.ts";
import { changePassword, setFirstPassword, updateProfile, type ProfileDeps } from "./profile.service.ts";

/** PUT /v1/my/profile, POST /v1/my/user/change-password, POST /v1/my/user/set-password. */
export function createProfileRoutes(deps: ProfileDeps) {
  return routeGroup()
    .handle(profileRoutes.update, async (c) => {
      const user = await updateProfile(deps, currentUser(c).id, c.req.valid("json"));
      return c.json({ user }, 200);
    })
    .handle(profileRoutes.changePassword, async (c) => {
      await changePassword(deps, currentUser(c).id, c.get("sessionId"), c.req.valid("json"));
      return c.body(null, 204);
    })
    .handle(profileRoutes.setPassword, async (c) => {
      await setFirstPassword(deps, currentUser(c).id, c.get("sessionId"), c.req.valid("json"));
      return c.body(null, 204);
    });
}
