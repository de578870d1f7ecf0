/**
 * One request from the instant on: its times in priority order through the claim board, each
 * posted for through the one booking attempt (src/attempt/attempt.ts) until it is booked, gone or
 * the request fails. What each club answer means is the policy's (src/attempt/policy.ts); this file
 * gives the attempt what a release adds: the engine's pauses and the date's turns, the shared
 * sheets and predicted slot ids, the member's status before each post, and the request's story.
 */
import type { RequestPhase } from "../../db/schema.ts";
import type { MemberClubSession } from "../../club/client.ts";
import type { ClubTeeSheet } from "../../club/records.ts";
import { reason } from "../../domain/request-reasons.ts";
import { toClubPlayers } from "../../services/club-players.ts";
import { asClubError, attemptSlot, type AttemptCaller, type PostedAhead, type SlotLookup } from "../../attempt/attempt.ts";
import type { ClubAnswer, Decision } from "../../attempt/policy.ts";
import type { AttemptSentAt, PreparedAttempt, RunContext } from "./first-wave.ts";
import { finishBooked, finishFailed, finishUnsure } from "./outcomes.ts";
import { knownSlotId } from "./prepare.ts";
import { disabledMembers, knownBookingRefs, recordAttemptAnswer, recordAttemptSent, recordAttemptTimes, recordLateness } from "../../lifecycle/request-lifecycle.ts";
import type { ReleaseRuntime } from "./runtime.ts";

/** A member read this recently is not read again before a post (their status: decision 082). */
const MEMBER_FRESH_MS = 1000;

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
      const posted = prepared?.time === time ? postedAhead(rt, ctx, prepared) : undefined;
      prepared = undefined;
      const outcome = await attemptSlot(releaseCaller(rt, ctx), time, posted);
      switch (outcome.kind) {
        case "booked":
          return void (await finishBooked(rt, request, outcome.attemptId, outcome.time, outcome.ref, outcome.durationMs));
        case "unsettled":
          // Stopped: left processing for the next start. Unreadable for the whole window: needs attention.
          if (outcome.cause === "unreadable") await finishUnsure(rt, request, Math.round(rt.settings.unavailableWindowMs / rt.settings.retryMinuteMs));
          return;
        case "failed":
          rt.board.release(request.id, request.playDate, request.courseId, time, "free");
          return void (await finishFailed(rt, request, outcome.reason));
        case "skip":
          ctx.excluded.add(time);
          rt.board.release(request.id, request.playDate, request.courseId, time, "free");
          break;
        case "taken":
          rt.board.release(request.id, request.playDate, request.courseId, time, "gone");
          break;
      }
    }
  } catch (error) {
    // Left processing on purpose: a restart reconciles it with the club.
    rt.deps.logger.error("release: request stopped unexpectedly", { requestId: request.id, error });
  } finally {
    rt.board.releaseAll(request.id);
    rt.attempted.delete(request.id);
  }
}

/** A release's requests to the club draw on the allowance it opened for them (decision 196). */
const RELEASE_PACE = { pace: "release" } as const;

/** The member's session, its every request drawn on the release's allowance. */
function releasePaced(session: MemberClubSession): AttemptCaller["session"] {
  return { book: (input) => session.book(input, RELEASE_PACE), renew: () => session.renew(RELEASE_PACE), fetchMyBookings: () => session.fetchMyBookings(RELEASE_PACE) };
}

/** What a release adds to an attempt: its engine's pauses and turns, its sheets and predicted ids, its member's status, its story. */
function releaseCaller(rt: ReleaseRuntime, ctx: RunContext): AttemptCaller {
  const { request } = ctx;
  const { db } = rt.deps.database;
  const dateKey = openingKey(request);
  const pause = async (ms: number) => {
    ctx.isMemberStale = true;
    await rt.sleepFor(ms);
    return rt.isRunning;
  };
  return {
    session: releasePaced(ctx.session),
    booking: { date: request.playDate, course: request.courseId, players: toClubPlayers(request.players) },
    settings: rt.settings,
    now: rt.now,
    pause,
    slotFor: (time, mustRead) => resolveSlot(rt, ctx, time, mustRead),
    settlesUnknown: "now",
    postedTimes: () => [...(rt.attempted.get(request.id) ?? [])],
    takenRefs: (refs) => knownBookingRefs(db, request.userId, refs),
    record: {
      async sent({ time, slotId }) {
        const firedAtLocal = rt.now();
        const firedAtClub = rt.clubNow();
        const attemptId = await recordAttemptSent(db, { requestId: request.id, time, slotId, firedAtClub, firedAtLocal });
        rt.noteAttempted(request.id, time);
        await noteLateness(rt, request, firedAtClub);
        return attemptId;
      },
      answered: (attemptId, heard) =>
        recordAttemptAnswer(db, attemptId, { outcome: heard.error.kind, answer: heard.error.message, reason: heard.reason, durationMs: heard.durationMs }),
      // The request stays processing: a restart reads the club for every time it posted.
      unknown: (attemptId, heard) =>
        recordAttemptAnswer(db, attemptId, { outcome: heard.error.kind, answer: heard.error.message, reason: heard.reason, durationMs: heard.durationMs }),
    },
    hooks: {
      isStopped: () => !rt.isRunning,
      async beforePost() {
        // A member disabled since the release is not retried for: the request fails, nothing more is posted.
        if (!ctx.isMemberStale) return null;
        ctx.isMemberStale = false;
        ctx.memberReadAt = rt.now();
        return (await disabledMembers(db, [request.userId])).size > 0 ? reason("bookings.reason.member_disabled", { date: request.playDate }) : null;
      },
      onDateOpen: () => rt.openings.opened(dateKey),
      afterDecision: (answer, decision) => rt.notePhase(request, ctx, phaseAfter(answer, decision)),
      async waitTurn(afterMs) {
        // Not open yet: this request's turn among the date's (decision 147), or the date seen open.
        await rt.park(Promise.race([rt.openings.wait(dateKey, afterMs), rt.stopped()]));
        // A member read within the last second is not read again: at the opening every waiting
        // request posts at once, and a read each would hold their posts back.
        if (rt.now() - (ctx.memberReadAt ?? Number.NEGATIVE_INFINITY) >= MEMBER_FRESH_MS) ctx.isMemberStale = true;
        return rt.isRunning;
      },
      onSlotIdRefused: () => rt.templates.set(request.courseId, null),
      onUnreadable: () => rt.deps.logger.warn("release: could not read the member's club bookings", { requestId: request.id }),
      afterSettled: () => rt.notePhase(request, ctx, null),
    },
  };
}

/** A first attempt posted at the instant: its times are known once its post has left, and written with its answer. */
function postedAhead(rt: ReleaseRuntime, ctx: RunContext, attempt: PreparedAttempt): PostedAhead {
  const { request } = ctx;
  const calledAt: AttemptSentAt = { firedAtLocal: rt.now(), firedAtClub: rt.clubNow() };
  const { launched } = attempt;
  return {
    attemptId: attempt.attemptId,
    slotId: attempt.slotId,
    isPredicted: attempt.isPredicted,
    answer:
      launched?.answer ??
      ctx.session.book({ date: request.playDate, course: request.courseId, slotId: attempt.slotId, time: attempt.time, players: toClubPlayers(request.players) }, RELEASE_PACE),
    async afterAnswer() {
      const actual = launched ? launched.sentAt() : calledAt;
      await recordAttemptTimes(rt.deps.database.db, attempt.attemptId, actual);
      await noteLateness(rt, request, actual.firedAtClub);
    },
  };
}

/** How late the request's first post left after its release instant (its first post only). */
async function noteLateness(rt: ReleaseRuntime, request: RunContext["request"], firedAtClub: number): Promise<void> {
  if (request.latenessMs !== null) return;
  request.latenessMs = firedAtClub - request.releaseAt;
  await recordLateness(rt.deps.database.db, request.id, request.latenessMs);
}

/** The club's slot id for a time: chosen from live data, predicted, or read from the sheet. */
async function resolveSlot(rt: ReleaseRuntime, ctx: RunContext, time: string, mustRead: boolean): Promise<SlotLookup> {
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
  if (slot?.status !== "AVAILABLE") return { kind: "taken" };
  return { kind: "ready", slotId: slot.slotId, isPredicted: false };
}

function readSheet(rt: ReleaseRuntime, ctx: RunContext, isFreshNeeded: boolean): Promise<ClubTeeSheet> {
  const key = `${ctx.request.playDate}|${ctx.request.courseId}`;
  const cached = rt.sheets.get(key);
  if (cached && !isFreshNeeded) return cached;
  const reading = ctx.session.fetchTeeSheet(ctx.request.playDate, ctx.request.courseId, RELEASE_PACE);
  rt.sheets.set(key, reading);
  // A failed or not-yet-released read must not be reused by the next caller.
  reading.then(
    (sheet) => {
      if (!sheet.released) rt.sheets.delete(key);
    },
    () => rt.sheets.delete(key),
  );
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
  if (decision.kind === "reconcile")
    return answer.kind === "error" && (answer.error.kind === "unavailable" || answer.error.kind === "slow_down") ? "waiting_for_club" : "checking_with_club";
  if (decision.kind === "back_off") return "waiting_for_club";
  if (decision.kind === "re_sign_in" && decision.afterMs !== null) return "waiting_for_club";
  return null;
}
