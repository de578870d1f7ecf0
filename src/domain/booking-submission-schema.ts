/**
 * The shape of a booking submission, checked by the server where it
 * arrives (POST /v1/bookings/{id}/edit, the socket's SUBMIT_BOOKING_REQUEST, a watch). Kept apart
 * from the rules in booking-submission.ts, which the web app uses too: the app never parses a
 * submission, so it does not download this zod build.
 */
import { z } from "zod";

/** Sanity bounds of the payload, not club rules. */
const MAX_TEXT = 100;
const MAX_SELECTED_TIMES = 40;
const MAX_LISTED_PLAYERS = 8;

const text = z.string().max(MAX_TEXT);
/** `{ "Rental Cart - Solo": true }`: the chosen option is the single key. */
const choiceSchema = z.record(text, z.literal(true));

export const submissionPlayerSchema = z.object({
  type: text,
  cartType: choiceSchema,
  chargeFeesTo: choiceSchema,
  firstName: text.optional(),
  lastName: text.optional(),
  searchLastName: text.optional(),
  searchIdNumber: text.optional(),
});

export const selectionSchema = z.object({
  time: z.string().max(16),
  slotId: z
    .string()
    .max(MAX_TEXT)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});

export const bookingSubmissionSchema = z.object({
  course: text,
  targetDate: z.string().max(32),
  selectionOrder: z.array(selectionSchema).max(MAX_SELECTED_TIMES),
  memberCartType: text,
  playerDetails: z.object({ players: z.array(submissionPlayerSchema).max(MAX_LISTED_PLAYERS) }),
  editTarget: z.number().int().positive().optional(),
  /** Send only if every invited partner has accepted by the readiness check (decision 200). */
  partnersMustAccept: z.boolean().optional(),
});

export type SubmissionPlayer = z.infer<typeof submissionPlayerSchema>;
export type Selection = z.infer<typeof selectionSchema>;
export type BookingSubmission = z.infer<typeof bookingSubmissionSchema>;
