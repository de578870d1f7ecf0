/**
 * On start: requests a stop or crash left processing are either found booked at the club (their
 * unanswered post did go through) or resumed; nothing is posted before the club has been read.
 */
import type { MemberClubSession } from "../../club/client.ts";
import { reason } from "../../domain/request-reasons.ts";
import type { RunContext } from "./first-wave.ts";
import { finishBooked, finishFailed, finishUnsure, sessionFailure } from "./outcomes.ts";
import { findBookedAtClub } from "../../attempt/reconcile.ts";
import { knownBookingRefs, loadAttempts, loadRequestsByStatus, settleUnansweredAttempts } from "../../lifecycle/request-lifecycle.ts";
import { runRequest } from "./runner.ts";
import type { ReleaseRuntime } from "./runtime.ts";

const NO_ANSWER_BEFORE_STOP = reason("bookings.reason.restart_no_answer");

export async function recoverProcessing(rt: ReleaseRuntime): Promise<void> {
  const { db } = rt.deps.database;
  const rows = await loadRequestsByStatus(db, "processing");
  if (rows.length === 0) return;
  await rt.loadRetryWindow();
  const attempts = await loadAttempts(
    db,
    rows.map((r) => r.id),
  );
  const resumable: RunContext[] = [];
  for (const request of rows) {
    const mine = attempts.filter((a) => a.requestId === request.id);
    rt.attempted.set(request.id, new Set(mine.map((a) => a.time)));
    let session: MemberClubSession;
    try {
      session = await rt.deps.sessions.forMember(request.userId);
    } catch (error) {
      await finishFailed(rt, request, sessionFailure(error));
      continue;
    }
    // Resumed after a stop: the member's status is read again before anything is posted.
    const ctx: RunContext = { request, session, excluded: new Set(), isMemberStale: true };
    if (mine.length > 0 && (await settleAfterRestart(rt, ctx)) === "booked") continue;
    resumable.push(ctx);
  }
  await rt.park(Promise.all(resumable.map((ctx) => rt.track(() => runRequest(rt, ctx)))));
}

async function settleAfterRestart(rt: ReleaseRuntime, ctx: RunContext): Promise<"booked" | "resume"> {
  const { db } = rt.deps.database;
  const { request } = ctx;
  const since = rt.now();
  for (;;) {
    const times = [...(rt.attempted.get(request.id) ?? [])];
    const found = await findBookedAtClub(ctx.session, { playDate: request.playDate, courseId: request.courseId, times }, (refs) => knownBookingRefs(db, request.userId, refs));
    if (found === "unreadable") {
      rt.deps.logger.warn("release: could not read the member's club bookings", { requestId: request.id });
      if (rt.now() - since >= rt.settings.unavailableWindowMs) {
        // Never Failed while the club may hold the booking: it needs attention (decision 117).
        await finishUnsure(rt, request, Math.round(rt.settings.unavailableWindowMs / rt.settings.retryMinuteMs));
        return "booked";
      }
      await rt.notePhase(request, ctx, "checking_with_club");
      await rt.sleepFor(rt.settings.unavailableBackoffMs.at(-1) ?? 1000);
      if (!rt.isRunning) return "booked";
      continue;
    }
    if (found) {
      const unanswered = (await loadAttempts(db, [request.id])).filter((a) => a.state === "sent" && a.time === found.time).at(-1);
      await finishBooked(rt, request, unanswered?.id ?? null, found.time, found.ref, null);
      await settleUnansweredAttempts(db, request.id, "unknown", NO_ANSWER_BEFORE_STOP);
      return "booked";
    }
    await settleUnansweredAttempts(db, request.id, "unknown", NO_ANSWER_BEFORE_STOP);
    return "resume";
  }
}
