/**
 * GET /v1/my/notifications, POST /v1/my/notifications/read, GET and PUT
 * /v1/my/notification-settings (members); GET /v1/admin/mail-outbox (admins).
 */
import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { currentUser } from "../../lib/middleware.ts";
import { readJson, readQuery } from "../../lib/validate.ts";
import { emailSwitchesSchema, markReadSchema, notificationsPageSchema } from "./notifications.schemas.ts";
import { emailSettings, notificationPage, outbox, readNotifications, saveEmailSettings } from "./notifications.service.ts";

export function createNotificationsRoutes() {
  return new Hono<AppEnv>()
    .get("/notifications", async (c) => {
      const { limit, before } = readQuery(c, notificationsPageSchema);
      return c.json(await notificationPage(c.get("deps"), currentUser(c).id, { limit, before }));
    })
    .post("/notifications/read", async (c) => {
      const which = await readJson(c, markReadSchema);
      return c.json(await readNotifications(c.get("deps"), currentUser(c).id, which));
    })
    .get("/notification-settings", async (c) => c.json(await emailSettings(c.get("deps"), currentUser(c).id)))
    .put("/notification-settings", async (c) => {
      const input = await readJson(c, emailSwitchesSchema);
      return c.json(await saveEmailSettings(c.get("deps"), currentUser(c).id, input));
    });
}

export function createMailOutboxRoutes() {
  return new Hono<AppEnv>().get("/", async (c) => c.json(await outbox(c.get("deps"))));
}
