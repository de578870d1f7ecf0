/** The contracts of the member's notifications and email switches, and of the admin's outbox (decision 170). */
import { answer, defineRoute, jsonBody } from "../../lib/contract.ts";
import { emailSettingsSchema, markReadResponseSchema, notificationsResponseSchema, outboxResponseSchema } from "./notifications-responses.schemas.ts";
import { emailSwitchesSchema, markReadSchema, notificationsPageSchema } from "./notifications.schemas.ts";

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
  emailSettings: defineRoute({
    access: "member",
    method: "get",
    path: "/my/notification-settings",
    tags,
    summary: "Where notification emails go and which kinds are emailed",
    responses: { 200: answer(emailSettingsSchema, "The address and a switch per kind") },
  }),
  saveEmailSettings: defineRoute({
    access: "member",
    method: "put",
    path: "/my/notification-settings",
    tags,
    summary: "Switch the email of any kinds on or off",
    request: { body: jsonBody(emailSwitchesSchema) },
    responses: { 200: answer(emailSettingsSchema, "Every switch as now saved") },
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
