/** The contracts of the member's notifications and channel switches, and of the admin's outbox (decision 170). */
import { answer, defineRoute, jsonBody } from "../../lib/contract.ts";
import { markReadResponseSchema, notificationSettingsSchema, notificationsResponseSchema, outboxResponseSchema } from "./notifications-responses.schemas.ts";
import { channelSwitchesSchema, markReadSchema, notificationsPageSchema } from "./notifications.schemas.ts";

const tags = ["Notifications"];

export const notificationsRoutes = {
  page: defineRoute({
    access: "member",
    method: "get",
    path: "/my/notifications",
    tags,
    summary: "A page of the member's notifications, newest first (`before`: older than that id)",
    request: { query: notificationsPageSchema },
    responses: { 200: answer(notificationsResponseSchema, "The page, the unread count and whether older ones exist") },
  }),
  markRead: defineRoute({
    access: "member",
    method: "post",
    path: "/my/notifications/read",
    tags,
    summary: "Mark notifications read: all, or those ids",
    request: { body: jsonBody(markReadSchema) },
    responses: { 200: answer(markReadResponseSchema, "How many are still unread") },
  }),
  settings: defineRoute({
    access: "member",
    method: "get",
    path: "/my/notification-settings",
    tags,
    summary: "Where notification emails go, and each kind's switch per channel (in the app, push, email)",
    responses: { 200: answer(notificationSettingsSchema, "The address and the switches") },
  }),
  saveSettings: defineRoute({
    access: "member",
    method: "put",
    path: "/my/notification-settings",
    tags,
    summary: "Switch any channel of any kinds on or off: `{ inApp?, push?, email? }`, each a map of kind to true or false",
    request: { body: jsonBody(channelSwitchesSchema) },
    responses: { 200: answer(notificationSettingsSchema, "Every switch as now saved") },
  }),
  outbox: defineRoute({
    access: "admin",
    method: "get",
    path: "/admin/mail-outbox",
    tags,
    summary: "The newest 50 messages of the mail outbox, the count in each state, and the SMTP server",
    responses: { 200: answer(outboxResponseSchema, "The outbox") },
  }),
};
