/**
 * The bodies of the standing-request calls: a booking submission without its date and times,
 * with the weekdays, first and last date, dates to skip, and either ordered times or a range.
 */
import { z } from "zod";
import { bookingSubmissionSchema } from "../../domain/booking-submission-schema.ts";
import { SERIES_LIMITS } from "../../domain/series.ts";

const isoDate = z.string().max(32);
const hhmm = z.string().max(16);

export const seriesInputSchema = bookingSubmissionSchema.omit({ selectionOrder: true, editTarget: true, targetDate: true }).extend({
  anyCourse: z.boolean().optional().default(false),
  times: z.array(hhmm).max(40).optional().default([]),
  fromTime: hhmm.nullable().optional(),
  toTime: hhmm.nullable().optional(),
  weekdays: z.array(z.number().int()).max(7),
  startDate: isoDate,
  endDate: isoDate.nullable().optional(),
  skipDates: z
    .array(isoDate)
    .max(SERIES_LIMITS.maxSkipDates * 2)
    .optional()
    .default([]),
});
export type SeriesInput = z.output<typeof seriesInputSchema>;

export const occurrenceChangeSchema = z.object({ times: z.array(hhmm).min(1).max(40) });
export type OccurrenceChange = z.output<typeof occurrenceChangeSchema>;

export const seriesIdParamSchema = z.coerce.number().int().positive();
export const occurrenceDateParamSchema = z.string().max(32);
