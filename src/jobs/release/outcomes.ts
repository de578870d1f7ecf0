/** How a request ends: booked or failed, written once and told to its member once. */
import { AppError } from "../../lib/errors.ts";
import { reason, type RequestReason } from "../../domain/request-reasons.ts";
import { confirmRequest, failRequest, markUnsure, type RequestRow } from "../../lifecycle/request-lifecycle.ts";
import { describeError, type ReleaseRuntime } from "./runtime.ts";

export async function finishBooked(rt: ReleaseRuntime, request: RequestRow, attemptId: number | null, time: string, ref: string, durationMs: number | null): Promise<void> {
  const { database, logger, notifier } = rt.deps;
  // The slot is let go at once, so the requests waiting for it move on; the write takes its turn.
  rt.board.release(request.id, request.playDate, request.courseId, time, "gone");
  const confirmed = await rt.outcomes.run(() => confirmRequest(database, { request, attemptId, time, ref, durationMs, now: rt.now() }));
  if (!confirmed) return;
  logger.info("release: booked", { requestId: request.id, ref, teeTime: time, latenessMs: request.latenessMs });
  notifier.publish(confirmed);
}

export async function finishFailed(rt: ReleaseRuntime, request: RequestRow, why: RequestReason): Promise<void> {
  const { database, logger, notifier } = rt.deps;
  const failed = await rt.outcomes.run(() => failRequest(database.db, request.id, why, rt.now()));
  if (!failed) return;
  logger.info("release: request failed", { requestId: request.id, reason: why.key, context: why.context });
  notifier.publish(failed);
}

/**
 * The club could not be read for the whole retry window after a post whose outcome is unknown:
 * not Failed (the club may hold the booking), but needs attention, with what to do about it.
 */
export async function finishUnsure(rt: ReleaseRuntime, request: RequestRow, minutes: number): Promise<void> {
  const { database, logger, notifier } = rt.deps;
  const why = reason("bookings.reason.could_not_tell", { date: request.playDate, minutes: String(Math.max(1, minutes)) });
  const unsure = await markUnsure(database.db, request.id, why, rt.now());
  if (!unsure) return;
  logger.warn("release: could not tell whether the club booked a request", { requestId: request.id });
  // A toast and a refresh, and a notification (list and email): the member has something to check.
  notifier.publish(unsure);
}

/** Why a member's club session could not be opened. */
export function sessionFailure(error: unknown): RequestReason {
  if (error instanceof AppError && error.errorKey === "club.no_login") return reason("bookings.reason.no_club_login");
  return reason("bookings.reason.other", { message: describeError(error) });
}
