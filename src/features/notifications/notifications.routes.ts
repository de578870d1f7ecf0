/**
 * GET /v1/my/notifications, POST /v1/my/notifications/read, GET and PUT
 * /v1/my/notification-settings (members); GET /v1/admin/mail-outbox (admins).
 */
import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { notificationsRoutes } from "./notifications.contract.ts";
import { notificationPage, notificationSettings, outbox, readNotifications, saveNotificationSettings, type NotificationsDeps } from "./notifications.service.ts";

export function createNotificationsRoutes(deps: NotificationsDeps) {
  return routeGroup()
    .handle(notificationsRoutes.page, async (c) => {
      const { limit, before } = c.req.valid("query");
      return c.json(await notificationPage(deps, currentUser(c).id, { limit, before }), 200);
    })
    .handle(notificationsRoutes.markRead, async (c) => c.json(await readNotifications(deps, currentUser(c).id, c.req.valid("json")), 200))
    .handle(notificationsRoutes.settings, async (c) => c.json(await notificationSettings(deps, currentUser(c).id), 200))
    .handle(notificationsRoutes.saveSettings, async (c) => c.json(await saveNotificationSettings(deps, currentUser(c).id, c.req.valid("json")), 200));
}

export function createMailOutboxRoutes(deps: Pick<AppDeps, "database" | "mailSender">) {
  return routeGroup().handle(notificationsRoutes.outbox, async (c) => c.json(await outbox(deps), 200));
}
