/** How a request ends: booked or failed, written once and told to its member once. */
import { AppError } from "../../lib/errors.ts";
import { reason, type RequestReason } from "../../domain/request-reasons.ts";
import { confirmRequest, courseNameOf, failRequest, markUnsure, type RequestRow } from "../../lifecycle/request-lifecycle.ts";
import { describeError, type ReleaseRuntime } from "./runtime.ts";

export async function finishBooked(rt: ReleaseRuntime, request: RequestRow, attemptId: number | null, time: string, ref: string, durationMs: number | null): Promise<void> {
  const { database, logger, notifier } = rt.deps;
  rt.board.release(request.id, request.playDate, request.courseId, time, "gone");
  const isNew = await confirmRequest(database, { request, attemptId, time, ref, durationMs, now: rt.now() });
  if (!isNew) return;
  const course = await courseNameOf(database.db, request.courseId);
  logger.info("release: booked", { requestId: request.id, ref, teeTime: time, latenessMs: request.latenessMs });
  notifier.publish({ type: "booking_confirmed", userId: request.userId, course, date: request.playDate, time, ref, requestId: request.id });
}

export async function finishFailed(rt: ReleaseRuntime, request: RequestRow, why: RequestReason): Promise<void> {
  const { database, logger, notifier } = rt.deps;
  const isNew = await failRequest(database.db, request.id, why, rt.now());
  if (!isNew) return;
  const course = await courseNameOf(database.db, request.courseId);
  logger.info("release: request failed", { requestId: request.id, reason: why.key, context: why.context });
  notifier.publish({ type: "request_failed", userId: request.userId, course, date: request.playDate, reason: why, requestId: request.id, submittedAt: request.submittedAt });
}

/**
 * The club could not be read for the whole retry window after a post whose outcome is unknown:
 * not Failed (the club may hold the booking), but needs attention, with what to do about it.
 */
export async function finishUnsure(rt: ReleaseRuntime, request: RequestRow, minutes: number): Promise<void> {
  const { database, logger, notifier } = rt.deps;
  const why = reason("bookings.reason.could_not_tell", { date: request.playDate, minutes: String(Math.max(1, minutes)) });
  if (!(await markUnsure(database.db, request.id, why, rt.now()))) return;
  logger.warn("release: could not tell whether the club booked a request", { requestId: request.id });
  const course = await courseNameOf(database.db, request.courseId);
  // A toast and a refresh, and a notification (list and email): the member has something to check.
  notifier.publish({ type: "needs_attention", userId: request.userId, course, date: request.playDate, reason: why, requestId: request.id, submittedAt: request.submittedAt });
}

/** Why a member's club session could not be opened. */
export function sessionFailure(error: unknown): RequestReason {
  if (error instanceof AppError && error.errorKey === "club.no_login") return reason("bookings.reason.no_club_login");
  return reason("bookings.reason.other", { message: describeError(error) });
}
