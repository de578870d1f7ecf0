/**
 * Contracts of the slot-watch calls, read by the web app too (zod/mini keeps its bundle small):
 * GET /v1/my/watches, POST /v1/my/watches, POST /v1/my/watches/{id}/cancel, and the readiness
 * check POST /v1/my/requests/check.
 */
import * as z from "../../domain/zod-mini.ts";

/** One booking post a watch made, as "what was tried" shows it. */
export const watchTrySchema = z.object({
  course: z.string(),
  time: z.string(),
  at: z.number(),
  /** confirmed, slot_taken, …; null while the club's answer is not known. */
  outcome: z.nullable(z.string()),
  answer: z.nullable(z.string()),
});

export const watchViewSchema = z.object({
  id: z.number(),
  date: z.string(),
  /** null: any course. */
  course: z.nullable(z.string()),
  fromTime: z.string(),
  toTime: z.string(),
  mode: z.enum(["book", "notify"]),
  upgradeBookingId: z.nullable(z.string()),
  status: z.enum(["watching", "booked", "found", "ended"]),
  /** What was found or why it ended, in the admin's wording. */
  reason: z.nullable(z.string()),
  reasonKey: z.nullable(z.string()),
  foundCourse: z.nullable(z.string()),
  foundTime: z.nullable(z.string()),
  bookingId: z.nullable(z.string()),
  createdAt: z.number(),
  tried: z.array(watchTrySchema),
});
export type WatchView = z.infer<typeof watchViewSchema>;

export const watchesResponseSchema = z.array(watchViewSchema);
export const watchCreatedSchema = z.object({ watch: watchViewSchema });

export const readinessResultSchema = z.object({ checked: z.number(), problems: z.number() });
export type ReadinessResult = z.infer<typeof readinessResultSchema>;
