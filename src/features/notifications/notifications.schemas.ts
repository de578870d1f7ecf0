/**
 * What the notification calls accept: a page of the list, which notifications to mark
 * read, and the member's channel switches. Strict: a field Teebox does not know is refused.
 */
import { z } from "zod";
import { NOTIFICATION_KINDS, NOTIFICATIONS_PAGE_DEFAULT, NOTIFICATIONS_PAGE_MAX } from "../../domain/notifications.ts";

// The message names a UI-text key: the one input check tells it with the field's name.
const wholeNumber = (max: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, "validation.expected_whole_number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

/** GET /v1/my/notifications?limit=&before= (other query fields, such as the cache buster, are ignored). */
export const notificationsPageSchema = z.object({
  limit: wholeNumber(NOTIFICATIONS_PAGE_MAX).default(NOTIFICATIONS_PAGE_DEFAULT),
  before: wholeNumber(Number.MAX_SAFE_INTEGER).optional(),
});

/** POST /v1/my/notifications/read: `{ "all": true }` or `{ "ids": [3, 4] }`. */
export const markReadSchema = z.union([
  z.strictObject({ all: z.literal(true) }),
  z.strictObject({
    ids: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .min(1)
      .max(NOTIFICATIONS_PAGE_MAX * 2),
  }),
]);
export type MarkReadInput = z.infer<typeof markReadSchema>;

const kindSwitches = z.strictObject(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean().optional()])) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodOptional<z.ZodBoolean>>,
);

/**
 * PUT /v1/my/notification-settings: any channel's switches for any of the kinds,
 * `{ "push": { "watch_found": false }, "email": { … }, "inApp": { … } }`; at least one channel.
 */
export const channelSwitchesSchema = z
  .strictObject({ inApp: kindSwitches.optional(), push: kindSwitches.optional(), email: kindSwitches.optional() })
  .refine((body) => body.inApp !== undefined || body.push !== undefined || body.email !== undefined, "notifications.settings.nothing_to_change");
export type ChannelSwitchesInput = z.infer<typeof channelSwitchesSchema>;
