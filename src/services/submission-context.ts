/**
 * What a submission's check reads beyond the rules: the form-options lists, the time of day now
 * (Manila) and the submitted date's live sheet. Shared by booking requests and slot watches,
 * which are checked alike.
 */
import { and, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { bookingRequests, bookings, teeTimeSlots } from "../db/schema.ts";
import type { OpenRequest, SubmissionContext } from "../domain/booking-submission.ts";
import { optionValues } from "../domain/form-options.ts";
import { manilaDate, manilaTimeOfDay } from "../domain/manila-time.ts";
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

/**
 * The member's requests that are open or booked from today on, as the duplicate and count checks
 * see them (shared by booking requests and the occurrences of standing requests).
 */
export async function openRequestsOf(db: Db, userId: number, now: number): Promise<OpenRequest[]> {
  const rows = await db
    .select({
      id: bookingRequests.id,
      playDate: bookingRequests.playDate,
      courseId: bookingRequests.courseId,
      selection: bookingRequests.selection,
      status: bookingRequests.status,
    })
    .from(bookingRequests)
    .where(and(eq(bookingRequests.userId, userId), inArray(bookingRequests.status, ["pending", "processing", "confirmed"]), gte(bookingRequests.playDate, manilaDate(now))));
  // A confirmed request counts only while its booking stands: once the member cancels the booking
  // (here or at the club), the same time may be asked for again.
  const confirmedIds = rows.filter((r) => r.status === "confirmed").map((r) => r.id);
  const standing =
    confirmedIds.length === 0
      ? new Set<number>()
      : new Set((await db.select({ requestId: bookings.requestId }).from(bookings).where(inArray(bookings.requestId, confirmedIds))).map((b) => b.requestId));
  return rows
    .filter((r) => r.status !== "confirmed" || standing.has(r.id))
    .map((r) => ({ id: r.id, playDate: r.playDate, courseId: r.courseId, firstTime: r.selection[0]?.time ?? "", isOpen: r.status !== "confirmed" }));
}
