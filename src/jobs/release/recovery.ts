/**
 * On start: requests a stop or crash left processing are either found booked at the club (their
 * unanswered post did go through) or resumed; nothing is posted before the club has been read.
 *
 * Every request is recovered on its own, all at once (the adapter's door bounds the connections),
 * and goes on as soon as its own state at the club is known: the first resumed post waits for one
 * sign-in and bookings read, not for every member's in turn, and a member whose bookings cannot be
 * read is checked again without holding the others back (decision 203).
 */
import type { MemberClubSession } from "../../club/client.ts";
import type { AttemptRow, RequestRow } from "../../lifecycle/request-lifecycle.ts";
import { reason } from "../../domain/request-reasons.ts";
import type { RunContext } from "./first-wave.ts";
import { finishBooked, finishFailed, finishUnsure, sessionFailure } from "./outcomes.ts";
import { findBookedAtClub } from "../../attempt/reconcile.ts";
import { knownBookingRefs, loadAttempts, loadRequestsByStatus, settleUnansweredAttempts } from "../../lifecycle/request-lifecycle.ts";
import { runRequest } from "./runner.ts";
import type { ReleaseRuntime } from "./runtime.ts";

const NO_ANSWER_BEFORE_STOP = reason("bookings.reason.restart_no_answer");

/** What the first look at the club made of a request: settled (booked, failed), to resume, or to check again. */
type FirstLook = { kind: "settled" } | { kind: "resume"; ctx: RunContext } | { kind: "unreadable"; ctx: RunContext };

export async function recoverProcessing(rt: ReleaseRuntime): Promise<void> {
  const { db } = rt.deps.database;
  const rows = await loadRequestsByStatus(db, "processing");
  if (rows.length === 0) return;
  await rt.loadRetryWindow();
  const attempts = await loadAttempts(
    db,
    rows.map((r) => r.id),
  );
  const since = rt.now();
  // Started in submission order (the rows' order): an earlier request asks for its claims first.
  await rt.park(Promise.all(rows.map((request) => rt.track(() => recoverRequest(rt, request, attempts, since)))));
}

async function recoverRequest(rt: ReleaseRuntime, request: RequestRow, attempts: AttemptRow[], since: number): Promise<void> {
  const look = await firstLook(rt, request, attempts);
  if (look.kind === "resume") await runRequest(rt, look.ctx);
  else if (look.kind === "unreadable") await resumeOnceRead(rt, look.ctx, since);
}

async function firstLook(rt: ReleaseRuntime, request: RequestRow, attempts: AttemptRow[]): Promise<FirstLook> {
  const mine = attempts.filter((a) => a.requestId === request.id);
  rt.attempted.set(request.id, new Set(mine.map((a) => a.time)));
  let session: MemberClubSession;
  try {
    session = await rt.deps.sessions.forMember(request.userId);
  } catch (error) {
    await finishFailed(rt, request, sessionFailure(error));
    return { kind: "settled" };
  }
  // Resumed after a stop: the member's status is read again before anything is posted.
  const ctx: RunContext = { request, session, excluded: new Set(), isMemberStale: true };
  if (mine.length === 0) return { kind: "resume", ctx };
  const found = await readClub(rt, ctx);
  if (found === "unreadable") return { kind: "unreadable", ctx };
  return found === "booked" ? { kind: "settled" } : { kind: "resume", ctx };
}

/** Checks a member whose bookings could not be read until they can be, then resumes the request if the club holds nothing. */
async function resumeOnceRead(rt: ReleaseRuntime, ctx: RunContext, since: number): Promise<void> {
  const { request } = ctx;
  for (;;) {
    rt.deps.logger.warn("release: could not read the member's club bookings", { requestId: request.id });
    if (rt.now() - since >= rt.settings.unavailableWindowMs) {
      // Never Failed while the club may hold the booking: it needs attention (decision 117).
      await finishUnsure(rt, request, Math.round(rt.settings.unavailableWindowMs / rt.settings.retryMinuteMs));
      return;
    }
    await rt.notePhase(request, ctx, "checking_with_club");
    await rt.sleepFor(rt.settings.unavailableBackoffMs.at(-1) ?? 1000);
    if (!rt.isRunning) return;
    const found = await readClub(rt, ctx);
    if (found === "booked") return;
    if (found === "resume") return runRequest(rt, ctx);
  }
}

/** Reads the member's club bookings once: the unanswered post booked (settled here), booked nothing, or the page could not be read. */
async function readClub(rt: ReleaseRuntime, ctx: RunContext): Promise<"booked" | "resume" | "unreadable"> {
  const { db } = rt.deps.database;
  const { request } = ctx;
  const times = [...(rt.attempted.get(request.id) ?? [])];
  const found = await findBookedAtClub(ctx.session, { playDate: request.playDate, courseId: request.courseId, times }, (refs) => knownBookingRefs(db, request.userId, refs));
  if (found === "unreadable") return "unreadable";
  if (found) {
    const unanswered = (await loadAttempts(db, [request.id])).filter((a) => a.state === "sent" && a.time === found.time).at(-1);
    await finishBooked(rt, request, unanswered?.id ?? null, found.time, found.ref, null);
    await settleUnansweredAttempts(db, request.id, "unknown", NO_ANSWER_BEFORE_STOP);
    return "booked";
  }
  await settleUnansweredAttempts(db, request.id, "unknown", NO_ANSWER_BEFORE_STOP);
  return "resume";
}
