/** GET /v1/my/push, POST /v1/my/push/devices and /v1/my/push/devices/remove (members). */
import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { pushRoutes } from "./push.contract.ts";
import { addDevice, pushStatus, removeDevice, type PushDeps } from "./push.service.ts";

export function createPushRoutes(deps: PushDeps) {
  return routeGroup()
    .handle(pushRoutes.status, async (c) => c.json(await pushStatus(deps, currentUser(c).id), 200))
    .handle(pushRoutes.addDevice, async (c) => c.json(await addDevice(deps, currentUser(c).id, c.req.valid("json")), 200))
    .handle(pushRoutes.removeDevice, async (c) => c.json(await removeDevice(deps, currentUser(c).id, c.req.valid("json")), 200));
}
