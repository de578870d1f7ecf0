/**
 * What the calendar address calls answer (GET and POST /v1/my/calendar), checked by the web app.
 * zod/mini: the web bundle reads it.
 */
import * as z from "../../domain/zod-mini.ts";

/** The member's private feed address; null until one is made (or when it can no longer be read). */
export const calendarAddressResponseSchema = z.object({
  url: z.nullable(z.string()),
  createdAt: z.nullable(z.number()),
});
export type CalendarAddress = z.infer<typeof calendarAddressResponseSchema>;

/** The file part of the feed's path: a 43-character base64url token and `.ics`. */
export const FEED_FILE_PATTERN = /^([A-Za-z0-9_-]{43})\.ics$/;
