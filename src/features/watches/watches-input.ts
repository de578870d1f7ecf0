/**
 * The body of POST /v1/my/watches: a booking submission without its selected times (the watch's
 * range replaces them), whether any course will do, what to do on a find, and the booking an
 * upgrade replaces.
 */
import { z } from "zod";
import { bookingSubmissionSchema } from "../../domain/booking-submission-schema.ts";
import { WATCH_MODES } from "../../domain/watches.ts";

export const createWatchSchema = bookingSubmissionSchema.omit({ selectionOrder: true, editTarget: true }).extend({
  fromTime: z.string().max(16),
  toTime: z.string().max(16),
  anyCourse: z.boolean().optional().default(false),
  mode: z.enum(WATCH_MODES),
  upgradeBookingId: z.string().trim().min(1).max(100).nullable().optional(),
});

export type CreateWatchInput = z.output<typeof createWatchSchema>;

export const watchIdParamSchema = z.coerce.number().int().positive();
