/**
 * What the member's bookings calls answer (spec §3 'Confirmed booking', 'Pending request', §7),
 * checked by the web app before it trusts an answer. Apart from bookings.schemas.ts because the web
 * bundle carries zod/mini, not the full zod of the request checks.
 */
import * as z from "zod/mini";
import { confirmedBookingSchema, pendingRequestShape } from "../../domain/record-schemas.ts";

/** GET /v1/my/bookings. */
export const bookingsResponseSchema = z.array(confirmedBookingSchema);

/** One booking post as the member's record shows it. */
export const attemptSchema = z.object({
  time: z.string(),
  firedAtClub: z.optional(z.nullable(z.number())),
  offsetFromReleaseMs: z.optional(z.nullable(z.number())),
  outcome: z.optional(z.nullable(z.string())),
  answer: z.optional(z.nullable(z.string())),
  durationMs: z.optional(z.nullable(z.number())),
});
export type AttemptRow = z.infer<typeof attemptSchema>;

/**
 * A request with what the release engine did about it (Bookings page), and the selection as
 * submitted with its slot ids and the member's cart (editing it in the Book wizard).
 */
export const requestRowSchema = z.object({
  ...pendingRequestShape,
  failureReason: z.optional(z.nullable(z.string())),
  /** While Processing, what the club's trouble means for it now (decision 116). */
  phase: z.optional(z.nullable(z.string())),
  submittedAt: z.optional(z.nullable(z.number())),
  attempts: z.optional(z.array(attemptSchema)),
  selectionOrder: z.optional(z.array(z.object({ time: z.string(), slotId: z.nullable(z.string()) }))),
  memberCartType: z.optional(z.string()),
});
export type RequestRow = z.infer<typeof requestRowSchema>;

/** GET /v1/my/requests. */
export const requestsResponseSchema = z.array(requestRowSchema);

