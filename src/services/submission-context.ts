/**
 * What a submission's check reads beyond the rules: the form-options lists and the time of day
 * now (Manila). Shared by booking requests and slot watches, which are checked alike.
 */
import type { Db } from "../db/client.ts";
import type { SubmissionContext } from "../domain/booking-submission.ts";
import { optionValues } from "../domain/form-options.ts";
import { manilaTimeOfDay } from "../domain/manila-time.ts";
import { listFormOptions } from "./options-and-texts.service.ts";

export async function submissionGuards(db: Db, now: number): Promise<Pick<SubmissionContext, "options" | "nowTime">> {
  const options = await listFormOptions(db);
  return {
    nowTime: manilaTimeOfDay(now),
    options: {
      playerTypes: optionValues(options, "playerType"),
      carts: optionValues(options, "cartPreference"),
      guestFees: optionValues(options, "feePreferenceGuest"),
      memberFees: optionValues(options, "feePreferenceMember"),
    },
  };
}
