/**
 * What a submission's check reads beyond the rules: the form-options lists, the time of day now
 * (Manila) and the submitted date's live sheet. Shared by booking requests and slot watches,
 * which are checked alike.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { teeTimeSlots } from "../db/schema.ts";
import type { SubmissionContext } from "../domain/booking-submission.ts";
import { optionValues } from "../domain/form-options.ts";
import { manilaTimeOfDay } from "../domain/manila-time.ts";
import { listFormOptions } from "./options-and-texts.service.ts";

/**
 * The context for a submission for `targetDate`: its live sheet's times per course (a date or
 * course without stored data is checked against the estimated grid instead).
 */
export async function submissionGuards(db: Db, now: number, targetDate: string): Promise<Pick<SubmissionContext, "options" | "nowTime" | "liveTimes">> {
  const options = await listFormOptions(db);
  const live = await db.select({ courseId: teeTimeSlots.courseId, time: teeTimeSlots.time }).from(teeTimeSlots).where(eq(teeTimeSlots.date, targetDate.trim()));
  const liveTimes: Record<string, string[]> = {};
  for (const row of live) (liveTimes[row.courseId] ??= []).push(row.time);
  return {
    liveTimes,
    nowTime: manilaTimeOfDay(now),
    options: {
      playerTypes: optionValues(options, "playerType"),
      carts: optionValues(options, "cartPreference"),
      guestFees: optionValues(options, "feePreferenceGuest"),
      memberFees: optionValues(options, "feePreferenceMember"),
    },
  };
}
