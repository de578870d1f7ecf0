/**
 * Contracts of the standing-request answers, read by the web app too (zod/mini keeps its bundle
 * small): GET /v1/my/series and the series a create or change answers with.
 */
import * as z from "../../domain/zod-mini.ts";

export const OCCURRENCE_VIEW_STATES = ["scheduled", "pending", "held", "processing", "booked", "failed", "needs_attention", "skipped", "cancelled"] as const;
export type OccurrenceViewState = (typeof OCCURRENCE_VIEW_STATES)[number];

/** One date of a series as the Bookings page lists it. */
export const occurrenceViewSchema = z.object({
  date: z.string(),
  state: z.enum(OCCURRENCE_VIEW_STATES),
  requestId: z.nullable(z.number()),
  /** The course the date is queued on (null: not queued yet with any course). */
  course: z.nullable(z.string()),
  /** The times asked for that date (its own when changed alone, else the series'). */
  times: z.array(z.string()),
  isChangedAlone: z.boolean(),
  releaseAt: z.nullable(z.number()),
  /** When a date not queued yet will be (null once queued). */
  queuesAt: z.nullable(z.number()),
  /** Why it needs attention or failed, in the admin's wording. */
  reason: z.nullable(z.string()),
  reasonKey: z.nullable(z.string()),
  /** Its place among the Teebox requests released at the same instant on the same course (decision 181). */
  line: z.nullable(z.object({ place: z.number(), of: z.number() })),
});
export type OccurrenceView = z.infer<typeof occurrenceViewSchema>;

const choiceSchema = z.record(z.string(), z.literal(true));

/** A player as the series keeps them: the form's submission row, so a change can send them back. */
export const seriesPlayerSchema = z.object({
  type: z.string(),
  cartType: choiceSchema,
  chargeFeesTo: choiceSchema,
  firstName: z.optional(z.string()),
  lastName: z.optional(z.string()),
  searchLastName: z.optional(z.string()),
  searchIdNumber: z.optional(z.string()),
});

export const seriesViewSchema = z.object({
  id: z.number(),
  status: z.enum(["active", "ended"]),
  /** null: any course. */
  course: z.nullable(z.string()),
  times: z.nullable(z.array(z.string())),
  fromTime: z.nullable(z.string()),
  toTime: z.nullable(z.string()),
  weekdays: z.array(z.number()),
  startDate: z.string(),
  endDate: z.nullable(z.string()),
  skipDates: z.array(z.string()),
  playerNames: z.array(z.string()),
  players: z.array(seriesPlayerSchema),
  memberCartType: z.string(),
  /** Each date is sent only if every partner has accepted by the readiness check (decision 200). */
  partnersMustAccept: z.boolean(),
  createdAt: z.number(),
  next: z.array(occurrenceViewSchema),
});
export type SeriesView = z.infer<typeof seriesViewSchema>;

export const seriesListSchema = z.array(seriesViewSchema);
export const seriesAnswerSchema = z.object({ series: seriesViewSchema });
