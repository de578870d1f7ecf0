/**
 * What the release engine does after each answer of the club, as one pure function over the
 * answer and the retry state of the time being tried: no club, no clock, no database. Every
 * kind of club failure is decided here and nowhere else, so a new kind is one line of the switch.
 */
import type { ClubErrorKind } from "../club/errors.ts";
import { reason, type RequestReason } from "../domain/request-reasons.ts";

export interface RetrySettings {
  /** 'Not yet open': the same time again after this long, for at most `notYetOpenWindowMs`. */
  notYetOpenRetryMs: number;
  notYetOpenWindowMs: number;
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
  | { to: "post" | "sheet"; kind: "error"; error: { kind: ClubErrorKind; message: string; isAmbiguous: boolean } }
  /** The sheet was read but the date is not open yet. */
  | { to: "sheet"; kind: "not_released" };

export type Decision =
  | { kind: "book"; ref: string }
  /** Try the request's next time. `gone`: nobody tries this one again; else only this request skips it. */
  | { kind: "next_time"; gone: boolean }
  /** The same time again after a pause (the date is not open yet). */
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

export function decideAfterAnswer({ answer, state, now, playDate, settings }: DecisionInput): { decision: Decision; state: RetryState } {
  const notYetOpen = () => {
    const since = state.notYetOpenSince ?? now;
    if (now - since >= settings.notYetOpenWindowMs) return done({ kind: "fail", reason: reason("bookings.reason.not_opened_in_time", { date: playDate }) });
    return { decision: { kind: "retry_same", afterMs: settings.notYetOpenRetryMs } as Decision, state: { ...state, notYetOpenSince: since } };
  };
  /** A pause from the backoff list, or the failure once the trouble has lasted the whole window. */
  const trouble = (failure: RequestReason, make: (afterMs: number) => Decision, extra: Partial<RetryState> = {}) => {
    const since = state.troubleSince ?? now;
    if (now - since >= settings.unavailableWindowMs) return done({ kind: "fail", reason: failure });
    const afterMs = settings.unavailableBackoffMs[Math.min(state.backoffStep, settings.unavailableBackoffMs.length - 1)];
    return { decision: make(afterMs), state: { ...state, ...extra, troubleSince: since, backoffStep: state.backoffStep + 1 } };
  };
  const done = (decision: Decision) => ({ decision, state });
  /** After a post that may have booked: always a read of the club first, whatever the window says. */
  const unknownOutcome = (failure: RequestReason) => {
    const since = state.troubleSince ?? now;
    const afterMs = settings.unavailableBackoffMs[Math.min(state.backoffStep, settings.unavailableBackoffMs.length - 1)];
    const decision: Decision = now - since >= settings.unavailableWindowMs ? { kind: "reconcile", afterMs, failIfAbsent: failure } : { kind: "reconcile", afterMs };
    return { decision, state: { ...state, troubleSince: since, backoffStep: state.backoffStep + 1 } };
  };

  if (answer.kind === "booked") return done({ kind: "book", ref: answer.ref });
  if (answer.kind === "not_released") return notYetOpen();

  const { error } = answer;
  const timeout = reason("bookings.reason.club_timeout");
  const unreadable = reason("bookings.reason.page_not_understood");
  const refused = reason("bookings.reason.club_refused", { message: error.message });

  if (answer.to === "sheet") {
    // Reading the sheet books nothing: trouble here never needs a reconcile.
    switch (error.kind) {
      case "bad_credentials":
        return done({ kind: "fail", reason: reason("bookings.reason.bad_credentials") });
      case "session_expired":
        return trouble(timeout, (afterMs) => ({ kind: "re_sign_in", afterMs }));
      case "page_not_understood":
        return trouble(unreadable, (afterMs) => ({ kind: "back_off", afterMs }));
      default:
        return trouble(timeout, (afterMs) => ({ kind: "back_off", afterMs }));
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
      return trouble(refused, (afterMs) => ({ kind: "back_off", afterMs }), { hasRenewed: false });
    case "unavailable":
      // Without a readable answer the club may have booked it: read the club before posting again.
      return error.isAmbiguous ? unknownOutcome(timeout) : trouble(timeout, (afterMs) => ({ kind: "back_off", afterMs }));
    case "page_not_understood":
      return unknownOutcome(unreadable);
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
