/** GET /v1/my/invitations, POST /v1/my/invitations/{id}/answer, PUT /v1/my/invitations/settings, GET /v1/my/partners/overlaps. */
import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { partnersRoutes } from "./partners.contract.ts";
import { answerOwnInvitation, flightOverlaps, listInvitations, saveInvitationSetting, type PartnersFeatureDeps } from "./partners.service.ts";

export function createPartnersRoutes(deps: PartnersFeatureDeps) {
  return routeGroup()
    .handle(partnersRoutes.list, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await listInvitations(deps, currentUser(c).id), 200);
    })
    .handle(partnersRoutes.answer, async (c) => {
      const invitation = await answerOwnInvitation(deps, currentUser(c).id, c.req.valid("param").id, c.req.valid("json").answer);
      return c.json({ invitation }, 200);
    })
    .handle(partnersRoutes.setting, async (c) => c.json(await saveInvitationSetting(deps, currentUser(c).id, c.req.valid("json").from), 200))
    .handle(partnersRoutes.overlaps, async (c) => {
      c.header("cache-control", "no-store");
      return c.json({ overlaps: await flightOverlaps(deps, currentUser(c).id, c.req.valid("query")) }, 200);
    });
}
