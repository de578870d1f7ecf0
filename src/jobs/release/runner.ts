/**
 * One request from the instant on: its times in priority order through the claim board, each
 * tried until it is booked, gone or the request fails. What to do after each club answer is
 * decided by `decideAfterAnswer` (decide.ts); this file only carries it out.
 */
import { ClubError } from "../../club/errors.ts";
import type { RequestPhase } from "../../db/schema.ts";
import type { ClubTeeSheet } from "../../club/records.ts";
import { reason, type RequestReason } from "../../domain/request-reasons.ts";
import { toClubPlayers } from "../../services/club-players.ts";
import { decideAfterAnswer, freshRetryState, showsDateOpen, type ClubAnswer, type Decision, type RetryState } from "../../lifecycle/club-answer.ts";
import type { AttemptSentAt, PreparedAttempt, RunContext } from "./first-wave.ts";
import { finishBooked, finishFailed, finishUnsure } from "./outcomes.ts";
import { knownSlotId } from "./prepare.ts";
import { findBookedAtClub } from "../../lifecycle/reconcile.ts";
import { disabledMembers, knownBookingRefs, recordAttemptAnswer, recordAttemptSent, recordAttemptTimes, recordLateness } from "../../lifecycle/request-lifecycle.ts";
import { describeError, type ReleaseRuntime } from "./runtime.ts";

/** A member read this recently is not read again before a post (their status: decision 082). */
const MEMBER_FRESH_MS = 1000;

type SlotResult =
  | { kind: "booked" }
  /** Taken by someone else: nobody tries it again. */
  | { kind: "gone" }
  /** Not for this request (not on the club's sheet, or refused for it alone): the others may still try it. */
  | { kind: "skip" }
  | { kind: "failed"; reason: RequestReason }
  /** A post's outcome stayed unknown for the whole retry window: never failed, needs attention. */
  | { kind: "unsure" }
  | { kind: "stopped" };

export async function runRequest(rt: ReleaseRuntime, ctx: RunContext, firstAttempt?: PreparedAttempt): Promise<void> {
  const { request } = ctx;
  const times = request.selection.map((s) => s.time);
  let prepared = firstAttempt;
  try {
    for (;;) {
      if (!rt.isRunning) return;
      let time: string;
      if (prepared?.launched) {
        // Its post has left: its answer is settled whatever the board says (the claim is this request's).
        time = prepared.time;
      } else {
        const choice = rt.board.choose(request.id, request.playDate, request.courseId, times, ctx.excluded);
        if (choice.kind === "exhausted") return void (await finishFailed(rt, request, reason("bookings.reason.no_time_available")));
        if (choice.kind === "wait") {
          ctx.isMemberStale = true;
          // A stop wakes the board too (ReleaseRuntime), and the loop then returns.
          await rt.park(rt.board.changed(request.playDate, request.courseId, times));
          continue;
        }
        time = choice.time;
      }
      const result = await trySlot(rt, ctx, time, prepared?.time === time ? prepared : undefined);
      prepared = undefined;
      if (result.kind === "booked" || result.kind === "stopped") return;
      if (result.kind === "unsure") return void (await finishUnsure(rt, request, Math.round(rt.settings.unavailableWindowMs / rt.settings.retryMinuteMs)));
      if (result.kind === "failed") {
        rt.board.release(request.id, request.playDate, request.courseId, time, "free");
        return void (await finishFailed(rt, request, result.reason));
      }
      if (result.kind === "skip") ctx.excluded.add(time);
      rt.board.release(request.id, request.playDate, request.courseId, time, result.kind === "gone" ? "gone" : "free");
    }
  } catch (error) {
    // Left processing on purpose: a restart reconciles it with the club.
    rt.deps.logger.error("release: request stopped unexpectedly", { requestId: request.id, error });
  } finally {
    rt.board.releaseAll(request.id);
    rt.attempted.delete(request.id);
  }
}

/** One time of a request, until it is booked, gone, or the request fails. */
async function trySlot(rt: ReleaseRuntime, ctx: RunContext, time: string, firstAttempt?: PreparedAttempt): Promise<SlotResult> {
  const { request } = ctx;
  const { db } = rt.deps.database;
  let state: RetryState = freshRetryState();
  let mustReadSheet = false;
  const dateKey = openingKey(request);

  /** Carries out a decision; null means: go round again for the same time. */
  const carryOut = async (answer: ClubAnswer): Promise<SlotResult | null> => {
    const next = decideAfterAnswer({ answer, state, now: rt.now(), playDate: request.playDate, settings: rt.settings });
    state = next.state;
    const decision: Decision = next.decision;
    await rt.notePhase(request, ctx, phaseAfter(answer, decision));
    switch (decision.kind) {
      case "book":
        return { kind: "booked" };
      case "next_time":
        return { kind: decision.gone ? "gone" : "skip" };
      case "fail":
        return { kind: "failed", reason: decision.reason };
      case "read_sheet":
        // The club did not know the id we predicted: read its sheet and try the real one.
        mustReadSheet = true;
        rt.templates.set(request.courseId, null);
        return null;
      case "re_sign_in": {
        const refused = await renewSession(ctx);
        if (refused) return refused;
        return decision.afterMs === null ? null : pause(decision.afterMs);
      }
      case "reconcile":
        ctx.hasUnsettledPost = true;
        ctx.failIfAbsent = decision.failIfAbsent ?? null;
        return pause(decision.afterMs);
      case "retry_same": {
        // Not open yet: this request's turn among the date's (decision 147), or the date seen open.
        await rt.park(Promise.race([rt.openings.wait(dateKey, decision.afterMs), rt.stopped()]));
        // A member read within the last second is not read again: at the opening every waiting
        // request posts at once, and a read each would hold their posts back.
        if (rt.now() - (ctx.memberReadAt ?? Number.NEGATIVE_INFINITY) >= MEMBER_FRESH_MS) ctx.isMemberStale = true;
        return rt.isRunning ? null : { kind: "stopped" };
      }
      case "back_off":
        return pause(decision.afterMs);
    }
  };
  const pause = async (ms: number): Promise<SlotResult | null> => {
    ctx.isMemberStale = true;
    await rt.sleepFor(ms);
    return rt.isRunning ? null : { kind: "stopped" };
  };

  for (;;) {
    if (!rt.isRunning) return { kind: "stopped" };
    if (ctx.hasUnsettledPost) {
      const settled = await settleUnansweredPost(rt, ctx);
      if (settled) return settled;
      continue;
    }
    let slotId: string;
    let attemptId: number;
    // A first attempt's times are known once its post has left: asked for when its answer is in.
    let sentAt: (() => AttemptSentAt) | null = null;
    let launched: PreparedAttempt["launched"] = null;
    if (firstAttempt) {
      attemptId = firstAttempt.attemptId;
      slotId = firstAttempt.slotId;
      state = { ...state, isPredicted: firstAttempt.isPredicted };
      launched = firstAttempt.launched;
      const calledAt = { firedAtLocal: rt.now(), firedAtClub: rt.clubNow() };
      sentAt = launched ? launched.sentAt : () => calledAt;
      firstAttempt = undefined;
    } else {
      // A member disabled since the release is not retried for: the request fails, nothing more is posted.
      if (ctx.isMemberStale) {
        ctx.isMemberStale = false;
        ctx.memberReadAt = rt.now();
        if ((await disabledMembers(db, [request.userId])).size > 0) return { kind: "failed", reason: reason("bookings.reason.member_disabled", { date: request.playDate }) };
      }
      const resolved = await resolveSlot(rt, ctx, time, mustReadSheet);
      if (resolved.kind === "gone" || resolved.kind === "skip") return resolved;
      if (resolved.kind === "answer") {
        const outcome = await carryOut(resolved.answer);
        if (outcome) return outcome;
        continue;
      }
      slotId = resolved.slotId;
      state = { ...state, isPredicted: resolved.isPredicted };
      const firedAtLocal = rt.now();
      const firedAtClub = rt.clubNow();
      attemptId = await recordAttemptSent(db, { requestId: request.id, time, slotId, firedAtClub, firedAtLocal });
      rt.noteAttempted(request.id, time);
      if (request.latenessMs === null) {
        request.latenessMs = firedAtClub - request.releaseAt;
        await recordLateness(db, request.id, request.latenessMs);
      }
    }
    const started = performance.now();
    const settleSentAt = async () => {
      if (!sentAt) return;
      const actual = sentAt();
      sentAt = null;
      await recordAttemptTimes(db, attemptId, actual);
      if (request.latenessMs === null) {
        request.latenessMs = actual.firedAtClub - request.releaseAt;
        await recordLateness(db, request.id, request.latenessMs);
      }
    };
    let answer: ClubAnswer;
    try {
      const { ref } = await (launched?.answer ?? ctx.session.book({ date: request.playDate, course: request.courseId, slotId, time, players: toClubPlayers(request.players) }));
      answer = { to: "post", kind: "booked", ref };
      // The date is open: the requests waiting for their turn post now, before this one's bookkeeping.
      rt.openings.opened(dateKey);
      await settleSentAt();
    } catch (caught) {
      const error = asClubError(caught);
      if (showsDateOpen({ to: "post", kind: "error", error })) rt.openings.opened(dateKey);
      await settleSentAt();
      await recordAttemptAnswer(db, attemptId, { outcome: error.kind, answer: error.message, reason: attemptReason(error), durationMs: Math.round(performance.now() - started) });
      answer = { to: "post", kind: "error", error };
    }
    if (answer.kind === "booked") {
      await finishBooked(rt, request, attemptId, time, answer.ref, Math.round(performance.now() - started));
      return { kind: "booked" };
    }
    const outcome = await carryOut(answer);
    if (outcome) return outcome;
  }
}

async function renewSession(ctx: RunContext): Promise<Extract<SlotResult, { kind: "failed" }> | null> {
  try {
    await ctx.session.renew();
    return null;
  } catch (caught) {
    if (asClubError(caught).kind === "bad_credentials") return { kind: "failed", reason: reason("bookings.reason.bad_credentials") };
    return null;
  }
}

/**
 * After a post without an answer: is the booking at the club? Until the club can be read, nothing
 * else is posted for this request, so it can never end up with two bookings.
 */
async function settleUnansweredPost(rt: ReleaseRuntime, ctx: RunContext): Promise<SlotResult | null> {
  const { request } = ctx;
  const times = [...(rt.attempted.get(request.id) ?? [])];
  const found = await findBookedAtClub(ctx.session, { playDate: request.playDate, courseId: request.courseId, times }, (refs) => knownBookingRefs(rt.deps.database.db, request.userId, refs));
  if (found === "unreadable") {
    rt.deps.logger.warn("release: could not read the member's club bookings", { requestId: request.id });
    ctx.unreadableSince ??= rt.now();
    // The outcome is unknown, so never Failed: after the whole window nothing more is posted and
    // the request needs attention (decision 117); until then the club is read again shortly.
    if (rt.now() - ctx.unreadableSince >= rt.settings.unavailableWindowMs) return { kind: "unsure" };
    ctx.isMemberStale = true;
    await rt.sleepFor(rt.settings.unavailableBackoffMs.at(-1) ?? 1000);
    return rt.isRunning ? null : { kind: "stopped" };
  }
  ctx.unreadableSince = null;
  ctx.hasUnsettledPost = false;
  const failure = ctx.failIfAbsent ?? null;
  ctx.failIfAbsent = null;
  if (found) {
    await finishBooked(rt, request, null, found.time, found.ref, null);
    return { kind: "booked" };
  }
  // Read, and not booked: the engine may go on (or fail, when the trouble outlasted the window).
  await rt.notePhase(request, ctx, null);
  return failure ? { kind: "failed", reason: failure } : null;
}

type ResolvedSlot = { kind: "ready"; slotId: string; isPredicted: boolean } | { kind: "gone" } | { kind: "skip" } | { kind: "answer"; answer: ClubAnswer };

/** The club's slot id for a time: chosen from live data, predicted, or read from the sheet. */
async function resolveSlot(rt: ReleaseRuntime, ctx: RunContext, time: string, mustRead: boolean): Promise<ResolvedSlot> {
  const { request } = ctx;
  const known = mustRead ? null : knownSlotId(rt, request, time);
  if (known) return { kind: "ready", ...known };
  let sheet: ClubTeeSheet;
  try {
    sheet = await readSheet(rt, ctx, mustRead);
  } catch (caught) {
    return { kind: "answer", answer: { to: "sheet", kind: "error", error: asClubError(caught) } };
  }
  if (!sheet.released) return { kind: "answer", answer: { to: "sheet", kind: "not_released" } };
  rt.openings.opened(openingKey(request));
  for (const slot of sheet.slots) if (slot.status !== "AVAILABLE") rt.board.markGone(request.playDate, request.courseId, slot.time);
  const slot = sheet.slots.find((s) => s.time === time);
  // The club has no such time on this date: that slot fails for everyone; the next time is tried.
  if (!slot) return { kind: "gone" };
  if (slot.status !== "AVAILABLE") return { kind: "gone" };
  return { kind: "ready", slotId: slot.slotId, isPredicted: false };
}

function readSheet(rt: ReleaseRuntime, ctx: RunContext, isFreshNeeded: boolean): Promise<ClubTeeSheet> {
  const key = `${ctx.request.playDate}|${ctx.request.courseId}`;
  const cached = rt.sheets.get(key);
  if (cached && !isFreshNeeded) return cached;
  const reading = ctx.session.fetchTeeSheet(ctx.request.playDate, ctx.request.courseId);
  rt.sheets.set(key, reading);
  // A failed or not-yet-released read must not be reused by the next caller.
  reading.then((sheet) => { if (!sheet.released) rt.sheets.delete(key); }, () => rt.sheets.delete(key));
  return reading;
}

/** The requests of one date take turns while the club has not opened it: the club opens a date, all its courses at once. */
const openingKey = (request: { playDate: string }) => request.playDate;

export function forgetSheetsOf(rt: ReleaseRuntime, rows: { playDate: string; courseId: string }[]): void {
  for (const row of rows) rt.sheets.delete(`${row.playDate}|${row.courseId}`);
}

/**
 * What the member's page says while a request is processing: the club not answering, a post's
 * outcome being checked, or nothing special (null).
 */
function phaseAfter(answer: ClubAnswer, decision: Decision): RequestPhase | null {
  if (decision.kind === "reconcile") return answer.kind === "error" && (answer.error.kind === "unavailable" || answer.error.kind === "slow_down") ? "waiting_for_club" : "checking_with_club";
  if (decision.kind === "back_off") return "waiting_for_club";
  if (decision.kind === "re_sign_in" && decision.afterMs !== null) return "waiting_for_club";
  return null;
}

/** An attempt's answer as a reason key: our words for trouble, the club's own words for a refusal. */
function attemptReason(error: ClubError): RequestReason {
  if (error.kind === "page_not_understood") return reason("bookings.reason.page_not_understood");
  if (error.kind === "slow_down") return reason("bookings.reason.club_slowed_down");
  if (error.kind === "unavailable") return error.status === undefined ? reason("bookings.reason.club_timeout") : reason("bookings.reason.other", { message: error.message });
  return reason("bookings.reason.club_refused", { message: error.message });
}

export function asClubError(error: unknown): ClubError {
  if (error instanceof ClubError) return error;
  return new ClubError("unavailable", describeError(error), { cause: error });
}
