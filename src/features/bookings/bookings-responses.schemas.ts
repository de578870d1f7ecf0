/**
 * What the member's bookings calls answer,
 * checked by the web app before it trusts an answer. Apart from bookings.schemas.ts because the web
 * bundle carries zod/mini, not the full zod of the request checks.
 */
import * as z from "../../domain/zod-mini.ts";
import { confirmedBookingSchema, pendingRequestShape } from "../../domain/record-schemas.ts";

/** GET /v1/my/bookings. */
export const bookingsResponseSchema = z.array(confirmedBookingSchema);

/** POST /v1/bookings/{bookingId}/edit: the booking as it now is. */
export const editedBookingResponseSchema = z.object({ booking: confirmedBookingSchema });

/** One booking post as the member's record shows it. */
export const attemptSchema = z.object({
  time: z.string(),
  firedAtClub: z.optional(z.nullable(z.number())),
  offsetFromReleaseMs: z.optional(z.nullable(z.number())),
  outcome: z.optional(z.nullable(z.string())),
  answer: z.optional(z.nullable(z.string())),
  /** The answer as a UI-text key and its placeholders (rendered into `answer`). */
  answerKey: z.optional(z.nullable(z.string())),
  answerContext: z.optional(z.nullable(z.record(z.string(), z.string()))),
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
  /** The reason as a UI-text key (src/domain/request-reasons.ts) and its placeholders. */
  reasonKey: z.optional(z.nullable(z.string())),
  reasonContext: z.optional(z.nullable(z.record(z.string(), z.string()))),
  /** How late the first post left after the release instant, on the club's clock. */
  latenessMs: z.optional(z.nullable(z.number())),
  /** While Processing, what the club's trouble means for it now (decision 116). */
  phase: z.optional(z.nullable(z.string())),
  submittedAt: z.optional(z.nullable(z.number())),
  attempts: z.optional(z.array(attemptSchema)),
  selectionOrder: z.optional(z.array(z.object({ time: z.string(), slotId: z.nullable(z.string()) }))),
  memberCartType: z.optional(z.string()),
  /** Send only if every partner has accepted by the readiness check (decision 200): an edit opens with it. */
  partnersMustAccept: z.optional(z.boolean()),
});
export type RequestRow = z.infer<typeof requestRowSchema>;

/** GET /v1/my/requests. */
export const requestsResponseSchema = z.array(requestRowSchema);

/** One post of a request's story: what was tried, when it left, what the club answered, what the sheet showed after. */
export const storyAttemptSchema = z.object({
  time: z.string(),
  /** Milliseconds after the release instant, on the club's clock, that the post left. */
  leftAtMs: z.number(),
  outcome: z.nullable(z.string()),
  /** The answer as a UI-text key and its placeholders; `answer` is the same rendered by the server. */
  answerKey: z.nullable(z.string()),
  answerContext: z.nullable(z.record(z.string(), z.string())),
  answer: z.nullable(z.string()),
  durationMs: z.nullable(z.number()),
  /** The slot's status on the club's sheet as read after the release; null when the club showed nothing since. */
  sheetAfter: z.nullable(z.object({ status: z.string(), readAt: z.number() })),
});
export type StoryAttempt = z.infer<typeof storyAttemptSchema>;

/** One post a slot watch made: which course and time, when it left (our clock), the club's answer. */
export const watchStoryAttemptSchema = z.object({
  course: z.string(),
  time: z.string(),
  sentAt: z.number(),
  outcome: z.nullable(z.string()),
  answerKey: z.nullable(z.string()),
  answerContext: z.nullable(z.record(z.string(), z.string())),
  answer: z.nullable(z.string()),
});
export type WatchStoryAttempt = z.infer<typeof watchStoryAttemptSchema>;

/**
 * GET /v1/my/requests/:id/story and GET /v1/my/bookings/:id/story. `request` is null for a booking
 * Teebox did not make at a release: `watch` then names the slot watch that made it, and is null
 * for one copied from the club's site or made by an edit.
 */
export const requestStoryResponseSchema = z.object({
  request: z.nullable(
    z.object({
      id: z.number(),
      course: z.string(),
      playDate: z.string(),
      status: z.string(),
      releaseAt: z.number(),
      times: z.array(z.string()),
      bookingRef: z.nullable(z.string()),
      reasonKey: z.nullable(z.string()),
      reasonContext: z.nullable(z.record(z.string(), z.string())),
      reason: z.nullable(z.string()),
    }),
  ),
  /** The club clock minus ours as measured for the release; null when not released yet or not measured. */
  clock: z.nullable(z.object({ offsetMs: z.number(), uncertaintyMs: z.nullable(z.number()) })),
  attempts: z.array(storyAttemptSchema),
  watch: z.optional(
    z.nullable(
      z.object({
        id: z.number(),
        playDate: z.string(),
        /** null: any course. */
        course: z.nullable(z.string()),
        fromTime: z.string(),
        toTime: z.string(),
        createdAt: z.number(),
        attempts: z.array(watchStoryAttemptSchema),
      }),
    ),
  ),
});
export type RequestStory = z.infer<typeof requestStoryResponseSchema>;
