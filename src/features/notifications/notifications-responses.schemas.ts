/**
 * What the notification calls answer, checked by the web app before it trusts an answer. Apart
 * from notifications.schemas.ts because the web bundle carries zod/mini, not the full zod of the
 * request checks.
 */
import * as z from "../../domain/zod-mini.ts";
import { MAIL_STATES, NOTIFICATION_KINDS } from "../../domain/notifications.ts";

export const notificationSchema = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** The line in the member's current wording. */
  text: z.string(),
  /** The line's UI-text key and its placeholders. */
  textKey: z.optional(z.string()),
  context: z.optional(z.record(z.string(), z.string())),
  createdAt: z.number(),
  readAt: z.nullable(z.number()),
});
export type NotificationItem = z.infer<typeof notificationSchema>;

/** GET /v1/my/notifications. */
export const notificationsResponseSchema = z.object({
  items: z.array(notificationSchema),
  unread: z.number(),
  hasMore: z.boolean(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

/** POST /v1/my/notifications/read. */
export const markReadResponseSchema = z.object({ unread: z.number() });

const perKind = z.record(z.enum(NOTIFICATION_KINDS), z.boolean());

/** GET and PUT /v1/my/notification-settings: each channel's switch per kind. */
export const notificationSettingsSchema = z.object({
  /** Where the emails go (the member's club email); empty when there is none. */
  address: z.string(),
  /** Listed under the bell (unread); off: kept out of the list. */
  inApp: perKind,
  /** Pushed to the member's devices that have push on. */
  push: perKind,
  email: perKind,
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** One message of the admin's outbox. */
export const outboxMessageSchema = z.object({
  id: z.number(),
  createdAt: z.number(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  state: z.enum(MAIL_STATES),
  attempts: z.number(),
  lastError: z.nullable(z.string()),
  sentAt: z.nullable(z.number()),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** GET /v1/admin/mail-outbox: the newest messages, and what happens to them. */
export const outboxResponseSchema = z.object({
  /** The SMTP server messages go to (no password), or null when none is configured. */
  smtp: z.nullable(z.string()),
  counts: z.object({ queued: z.number(), sent: z.number(), failed: z.number() }),
  messages: z.array(outboxMessageSchema),
});
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;
