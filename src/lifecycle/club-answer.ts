/**
 * What the release engine does after each answer of the club, as one pure function over the
 * answer and the retry state of the time being tried: no club, no clock, no database. Every
 * kind of club failure is decided here and nowhere else, so a new kind is one line of the switch.
 */
import type { ClubErrorKind } from "../club/errors.ts";
import { reason, type RequestReason } from "../domain/request-reasons.ts";

/** One step of the 'not yet open' cadence: a pause of `everyMs` until the date has been answered so for `untilMs`. */
export interface NotYetOpenStep {
  untilMs: number;
  everyMs: number;
}

/**
 * How often a date the club still calls 'not yet open' after the instant is asked again (decision
 * 147): quick in the first seconds (a clock a little off, a club a little late: the slots go to
 * whoever asks first), then slower and slower over the club's retry window. The pace is per date:
 * its requests take turns (src/jobs/release/opening-turns.ts). Over the default 10-minute window
 * that is at most 447 asks per date (`notYetOpenAsks`), each member's login further held to its budget.
 */
export const NOT_YET_OPEN_SCHEDULE: readonly NotYetOpenStep[] = [
  { untilMs: 3_000, everyMs: 10 },
  { untilMs: 30_000, everyMs: 500 },
  { untilMs: 120_000, everyMs: 2_000 },
  { untilMs: Number.POSITIVE_INFINITY, everyMs: 10_000 },
];

/**
 * However many requests share a date, none asks more often than this: in the quick first 3 s that
 * is 60 asks, what one member's login may send at once (decision 145), so a date with few requests
 * is asked more slowly rather than its members' budgets spent in the first second.
 */
export const NOT_YET_OPEN_PER_REQUEST_MS = 50;

/** The pause between two turns of a date whose `requests` take turns: the schedule's, or slower so each request keeps to its own floor. */
export function notYetOpenTurnMs(pauseMs: number, requests: number, perRequestMs = NOT_YET_OPEN_PER_REQUEST_MS): number {
  return Math.max(pauseMs, Math.ceil(perRequestMs / Math.max(1, requests)));
}

/** The pause before asking again, once the date has been answered 'not yet open' for `elapsedMs`; the last step repeats. */
export function notYetOpenPauseMs(elapsedMs: number, schedule: readonly NotYetOpenStep[]): number {
  const step = schedule.find((s) => elapsedMs < s.untilMs) ?? schedule.at(-1);
  return step?.everyMs ?? 0;
}

/** How many times the schedule asks again within `windowMs` (the README's bound). */
export function notYetOpenAsks(windowMs: number, schedule: readonly NotYetOpenStep[]): number {
  let asks = 0;
  for (let at = 0; ; ) {
    const pause = notYetOpenPauseMs(at, schedule);
    if (pause <= 0 || at + pause > windowMs) return asks;
    at += pause;
    asks++;
  }
}

export interface RetrySettings {
  /** 'Not yet open': asked again at this cadence (`notYetOpenPauseMs`), for at most `notYetOpenWindowMs`. */
  notYetOpenSchedule: readonly NotYetOpenStep[];
  /** null: as long as club trouble is tried for (`unavailableWindowMs`, the club_retry_minutes setting). */
  notYetOpenWindowMs: number | null;
  /** Club trouble: retries after these pauses (the last repeats), for at most `unavailableWindowMs`. */
  unavailableBackoffMs: readonly number[];
  unavailableWindowMs: number;
}

/** The retry state of one time of one request; starts as `freshRetryState()`. */
export interface RetryState {
  notYetOpenSince: number | null;
  troubleSince: number | null;
  backoffStep: number;
  /** The session was renewed after an expiry on a post; a second expiry is club trouble. */
  hasRenewed: boolean;
  /** The slot id was predicted from a pattern and has not been corrected from the sheet yet. */
  isPredicted: boolean;
  isIdCorrected: boolean;
}

export const freshRetryState = (isPredicted = false): RetryState => ({
  notYetOpenSince: null,
  troubleSince: null,
  backoffStep: 0,
  hasRenewed: false,
  isPredicted,
  isIdCorrected: false,
});

/** What the club said: to a booking post, or to the read of the tee sheet before one. */
export type ClubAnswer =
  | { to: "post"; kind: "booked"; ref: string }
  | { to: "post" | "sheet"; kind: "error"; error: { kind: ClubErrorKind; message: string; isAmbiguous: boolean; retryAfterMs?: number } }
  /** The sheet was read but the date is not open yet. */
  | { to: "sheet"; kind: "not_released" };

export type Decision =
  | { kind: "book"; ref: string }
  /** Try the request's next time. `gone`: nobody tries this one again; else only this request skips it. */
  | { kind: "next_time"; gone: boolean }
  /** The same time again after a pause (the date is not open yet): the request's turn at the date's pace. */
  | { kind: "retry_same"; afterMs: number }
  /** Club trouble with nothing possibly booked: the same time again after a growing pause. */
  | { kind: "back_off"; afterMs: number }
  /**
   * A post went unanswered: after the pause, read the member's club bookings before posting
   * anything. Never a failure while the outcome is unknown; `failIfAbsent` (the trouble has lasted
   * the whole window) says: when the read shows no booking, the request fails for this reason.
   */
  | { kind: "reconcile"; afterMs: number; failIfAbsent?: RequestReason }
  /** Sign in again, then (after `afterMs`, when given) try the same time. */
  | { kind: "re_sign_in"; afterMs: number | null }
  /** The predicted slot id was refused: read the sheet for the real one and post again. */
  | { kind: "read_sheet" }
  | { kind: "fail"; reason: RequestReason };

export interface DecisionInput {
  answer: ClubAnswer;
  state: RetryState;
  now: number;
  playDate: string;
  settings: RetrySettings;
}

/**
 * Whether an answer shows the club has opened the date (it booked, or weighed the post and said no
 * for another reason): the requests still waiting for their turn may post at once.
 */
export function showsDateOpen(answer: ClubAnswer): boolean {
  if (answer.kind === "booked") return true;
  if (answer.kind !== "error" || answer.to !== "post") return false;
  return ["slot_taken", "rule_refused", "player_not_found", "no_such_time", "refused_unknown"].includes(answer.error.kind);
}

export function decideAfterAnswer({ answer, state, now, playDate, settings }: DecisionInput): { decision: Decision; state: RetryState } {
  const notYetOpen = () => {
    const since = state.notYetOpenSince ?? now;
    const windowMs = settings.notYetOpenWindowMs ?? settings.unavailableWindowMs;
    if (now - since >= windowMs) return done({ kind: "fail", reason: reason("bookings.reason.not_opened_in_time", { date: playDate }) });
    const afterMs = notYetOpenPauseMs(now - since, settings.notYetOpenSchedule);
    return { decision: { kind: "retry_same", afterMs } as Decision, state: { ...state, notYetOpenSince: since } };
  };
  /** The next pause of the backoff list; never shorter than the pause the club asked for. */
  const backoff = (atLeastMs = 0) => Math.max(atLeastMs, settings.unavailableBackoffMs[Math.min(state.backoffStep, settings.unavailableBackoffMs.length - 1)]);
  /** A pause from the backoff list, or the failure once the trouble has lasted the whole window. */
  const trouble = (failure: RequestReason, make: (afterMs: number) => Decision, extra: Partial<RetryState> = {}, atLeastMs = 0) => {
    const since = state.troubleSince ?? now;
    if (now - since >= settings.unavailableWindowMs) return done({ kind: "fail", reason: failure });
    return { decision: make(backoff(atLeastMs)), state: { ...state, ...extra, troubleSince: since, backoffStep: state.backoffStep + 1 } };
  };
  const done = (decision: Decision) => ({ decision, state });
  /** After a post that may have booked: always a read of the club first, whatever the window says. */
  const unknownOutcome = (failure: RequestReason, atLeastMs = 0) => {
    const since = state.troubleSince ?? now;
    const afterMs = backoff(atLeastMs);
    const decision: Decision = now - since >= settings.unavailableWindowMs ? { kind: "reconcile", afterMs, failIfAbsent: failure } : { kind: "reconcile", afterMs };
    return { decision, state: { ...state, troubleSince: since, backoffStep: state.backoffStep + 1 } };
  };

  if (answer.kind === "booked") return done({ kind: "book", ref: answer.ref });
  if (answer.kind === "not_released") return notYetOpen();

  const { error } = answer;
  const timeout = reason("bookings.reason.club_timeout");
  const unreadable = reason("bookings.reason.page_not_understood");
  const refused = reason("bookings.reason.club_refused", { message: error.message });
  const slowedDown = reason("bookings.reason.club_slowed_down");
  const backOff = (afterMs: number): Decision => ({ kind: "back_off", afterMs });

  if (answer.to === "sheet") {
    // Reading the sheet books nothing: trouble here never needs a reconcile.
    switch (error.kind) {
      case "bad_credentials":
        return done({ kind: "fail", reason: reason("bookings.reason.bad_credentials") });
      case "session_expired":
        return trouble(timeout, (afterMs) => ({ kind: "re_sign_in", afterMs }));
      case "page_not_understood":
        return trouble(unreadable, backOff);
      case "slow_down":
        // The club asked Teebox to slow down: nothing more before its pause is over (decision 146).
        return trouble(slowedDown, backOff, {}, error.retryAfterMs);
      default:
        return trouble(timeout, backOff);
    }
  }

  switch (error.kind) {
    case "slot_taken":
    case "not_found":
      return done({ kind: "next_time", gone: true });
    case "not_yet_open":
      return notYetOpen();
    case "session_expired":
      if (!state.hasRenewed) return { decision: { kind: "re_sign_in", afterMs: null }, state: { ...state, hasRenewed: true } };
      // Expired again right after a sign-in: the club is in trouble; sign in afresh after the pause.
      return trouble(refused, backOff, { hasRenewed: false });
    case "unavailable":
      // Without a readable answer the club may have booked it: read the club before posting again.
      return error.isAmbiguous ? unknownOutcome(timeout) : trouble(timeout, backOff);
    case "page_not_understood":
      return unknownOutcome(unreadable);
    case "slow_down":
      // A bot wall or a 503 may stand behind the club's answer (decision 146): read the club after
      // the pause before posting again; a 429 did no work, so the same time after the pause.
      return error.isAmbiguous ? unknownOutcome(slowedDown, error.retryAfterMs) : trouble(slowedDown, backOff, {}, error.retryAfterMs);
    case "busy":
      // Not sent (Teebox is stopping, or a budget refused it): nothing can have been booked.
      return trouble(timeout, backOff);
    case "no_such_time":
      // The club has no such time: the id may just be wrong or stale (read the sheet once for the
      // real one); refused again, or absent from the sheet, the time is not there: the next time.
      if (!state.isIdCorrected) return { decision: { kind: "read_sheet" }, state: { ...state, isIdCorrected: true } };
      return done({ kind: "next_time", gone: true });
    case "rule_refused":
      if (state.isPredicted && !state.isIdCorrected) return { decision: { kind: "read_sheet" }, state: { ...state, isIdCorrected: true } };
      return done({ kind: "fail", reason: refused });
    case "bad_credentials":
      return done({ kind: "fail", reason: reason("bookings.reason.bad_credentials") });
    case "player_not_found":
      return done({ kind: "fail", reason: refused });
    case "refused_unknown":
      // The club's words match no family (src/club/classify.ts): this time is not for this request.
      return done({ kind: "next_time", gone: false });
    default:
      // A refusal of any other kind (one in no known family included): this time is not for this
      // request, the next may be. A new kind that means something else gets its own case above.
      return done({ kind: "next_time", gone: false });
  }
}
