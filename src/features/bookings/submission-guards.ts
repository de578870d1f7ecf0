/**
 * What a submission is checked against beyond the rules: the form-options lists, the time of day
 * now (Manila), the times that exist on the date (the club's live sheet), and the member's other requests (no identical twin, at most max_open_requests
 * open). The rules themselves live in domain/booking-submission.ts; this reads what they need.
 */
import { and, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookingRequests, bookings, teeTimeSlots } from "../../db/schema.ts";
import { checkOpenRequests, type NormalisedSubmission, type SubmissionContext } from "../../domain/booking-submission.ts";
import { optionValues } from "../../domain/form-options.ts";
import { manilaDate, manilaTimeOfDay } from "../../domain/manila-time.ts";
import { badRequest } from "../../lib/errors.ts";
import { readSettings } from "../../services/settings.service.ts";
import { listFormOptions } from "../../services/options-and-texts.service.ts";

/**
 * The parts of the submission context read from the database and the clock, for the submitted
 * date: its live sheet's times per course (a date or course without stored data is checked
 * against the estimated grid instead).
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

/** Refuses an identical request and one beyond the member's open-request allowance. */
export async function checkMemberRequests(db: Db, userId: number, sub: NormalisedSubmission, now: number): Promise<void> {
  const rows = await db
    .select({ id: bookingRequests.id, playDate: bookingRequests.playDate, courseId: bookingRequests.courseId, selection: bookingRequests.selection, status: bookingRequests.status })
    .from(bookingRequests)
    .where(and(eq(bookingRequests.userId, userId), inArray(bookingRequests.status, ["pending", "processing", "confirmed"]), gte(bookingRequests.playDate, manilaDate(now))));
  // A confirmed request counts only while its booking stands: once the member cancels the booking
  // (here or at the club), the same time may be asked for again.
  const confirmedIds = rows.filter((r) => r.status === "confirmed").map((r) => r.id);
  const standing = confirmedIds.length === 0 ? new Set<number>() : new Set((await db.select({ requestId: bookings.requestId }).from(bookings).where(inArray(bookings.requestId, confirmedIds))).map((b) => b.requestId));
  const existing = rows
    .filter((r) => r.status !== "confirmed" || standing.has(r.id))
    .map((r) => ({ id: r.id, playDate: r.playDate, courseId: r.courseId, firstTime: r.selection[0]?.time ?? "", isOpen: r.status !== "confirmed" }));
  const { max_open_requests } = await readSettings(db);
  const problem = checkOpenRequests(existing, { playDate: sub.targetDate, courseId: sub.courseId, firstTime: sub.times[0] ?? "", editTarget: sub.editTarget }, max_open_requests);
  if (problem) throw badRequest(problem.message, problem.errorKey);
}
