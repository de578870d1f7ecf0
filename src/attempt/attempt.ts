/**
 * One booking attempt: how anything posts a booking to the club (the release runner, the edit of a
 * confirmed booking, the slot watch, and whatever books next). For one tee time it
 *
 *   1. writes the attempt ahead ('sent'), so a crash mid-post is found and reconciled on restart;
 *   2. posts;
 *   3. decides with the pure policy (policy.ts: `decideAfterAnswer`) what the answer means;
 *   4. carries the decision out: the same time again after a pause or at the date's next turn, a
 *      fresh sign-in, the real slot id from the sheet, or, after a post whose outcome is unknown,
 *      a read of the member's club bookings before anything else is posted (reconcile.ts);
 *   5. returns one outcome: booked, taken, skip, failed or unsettled.
 *
 * What differs between callers is given, not branched on: how long trouble is tried for (the
 * policy's settings: a release's window, none for an edit the member waits for, none for a watch
 * whose next pass is its retry), where attempts are written (each kind its own table), how a slot
 * id is found, how a pause waits, and whether an unknown outcome is read now or by a later pass.
 * The first wave at the release instant is posted before any of this runs (src/jobs/release/
 * first-wave.ts): its answer is handed in as `posted`, and nothing here stands between two posts.
 */
import type { BookInput, MemberClubSession } from "../club/client.ts";
import { ClubError } from "../club/errors.ts";
import { reason, type RequestReason } from "../domain/request-reasons.ts";
import { decideAfterAnswer, freshRetryState, showsDateOpen, type ClubAnswer, type Decision, type RetrySettings, type RetryState } from "./policy.ts";
import { findBookedAtClub } from "./reconcile.ts";

export type AttemptOutcome =
  /** Booked: by the post's answer, or found at the club by a reconcile (then `attemptId` is that post's when it is still open, else null). */
  | { kind: "booked"; ref: string; time: string; attemptId: number | null; durationMs: number | null }
  /** The slot went to someone else: nobody tries it again. */
  | { kind: "taken" }
  /** Not for this caller (refused for it alone, or not on the sheet for it): others may still try it. */
  | { kind: "skip" }
  /** Nothing was booked and nothing more will be tried for this time: the reason, and the club's last error heard. */
  | { kind: "failed"; reason: RequestReason; error: ClubError | null }
  /**
   * What became of a post is not known yet: the club could not be read for the whole window
   * (`unreadable`), the caller reads it on a later pass (`later`), or the caller stopped (`stopped`).
   * Never a failure: the club may hold the booking.
   */
  | { kind: "unsettled"; cause: "unreadable" | "later" | "stopped" };

/** The club's slot id for a time, or why there is none to post for. */
export type SlotLookup =
  | { kind: "ready"; slotId: string; isPredicted: boolean }
  | { kind: "taken" }
  | { kind: "skip" }
  /** Reading the sheet answered instead (trouble, or the date not open yet): the policy decides. */
  | { kind: "answer"; answer: ClubAnswer };

/** A post already made for this attempt (a release's first wave): its attempt is written, its answer is coming. */
export interface PostedAhead {
  attemptId: number;
  slotId: string;
  isPredicted: boolean;
  answer: Promise<{ ref: string }>;
  /** Once its answer is in: write when it really left (the wave's thread knows). */
  afterAnswer?(): Promise<void>;
}

/** Where a kind of attempt is written: each kind its own table, in src/lifecycle. */
export interface AttemptRecord {
  /** Written before the post leaves ('sent'); its id. */
  sent(post: { time: string; slotId: string }): Promise<number>;
  /** The club answered a post that booked nothing. */
  answered(attemptId: number, answer: HeardAnswer): Promise<void>;
  /**
   * The post's outcome is unknown. Absent: the attempt stays 'sent', so whoever settles it later (a
   * reconcile of this run, a later pass, a restart) finds it. A release writes what it heard: its
   * request stays processing, which is what a restart reconciles.
   */
  unknown?(attemptId: number, answer: HeardAnswer): Promise<void>;
}

/** What the club answered to a post that did not book, as an attempt keeps it. */
export interface HeardAnswer {
  error: ClubError;
  reason: RequestReason;
  durationMs: number;
}

export interface AttemptCaller {
  session: Pick<MemberClubSession, "book" | "renew" | "fetchMyBookings">;
  /** The date, course and players of the booking; the time is the attempt's. */
  booking: Omit<BookInput, "time" | "slotId">;
  record: AttemptRecord;
  settings: RetrySettings;
  now(): number;
  /** Waits `ms`; false when the caller stopped meanwhile. */
  pause(ms: number): Promise<boolean>;
  /** The slot id to post for (`mustRead`: the club refused the last one, read the sheet afresh). */
  slotFor(time: string, mustRead: boolean): Promise<SlotLookup>;
  /** After a post whose outcome is unknown: read the club in this run (`now`), or leave it to a later pass (`later`). */
  settlesUnknown: "now" | "later";
  /** Every time this caller posted for (any of them may hold a booking it does not know of). */
  postedTimes(): readonly string[];
  /** Of these club references, the ones Teebox already holds (a reconcile never claims one twice). */
  takenRefs(refs: string[]): Promise<Set<string>>;
  /** Posts at most this many times in one call (a watch: once; its next pass is its retry). */
  maxPosts?: number;
  hooks?: AttemptHooks;
}

/** What a release adds around its posts; other callers leave them out. */
export interface AttemptHooks {
  /** Whether the caller has stopped (checked before each post). */
  isStopped?(): boolean;
  /** Before each post but a posted-ahead one: a reason to post nothing more (the member was disabled). */
  beforePost?(): Promise<RequestReason | null>;
  /** An answer showed the date open, before any bookkeeping (a release lets the date's waiting requests post at once). */
  onDateOpen?(): void;
  /** After each decision (a release stores the phase its member's page shows). */
  afterDecision?(answer: ClubAnswer, decision: Decision): Promise<void>;
  /** Waits for this caller's next turn at a date not open yet (a release: the date's turns); default `pause`. */
  waitTurn?(afterMs: number): Promise<boolean>;
  /** The club refused the slot id: forget how ids were predicted. */
  onSlotIdRefused?(): void;
  /** The member's club bookings could not be read (read again after a pause, within the window). */
  onUnreadable?(): void;
  /** A read of the club settled an unknown post without finding a booking. */
  afterSettled?(): Promise<void>;
}

const STOPPED: AttemptOutcome = { kind: "unsettled", cause: "stopped" };

/** One time, posted for until it is booked, gone, not for this caller, failed, or unsettled. */
export async function attemptSlot(caller: AttemptCaller, time: string, posted?: PostedAhead): Promise<AttemptOutcome> {
  const { settings, hooks = {} } = caller;
  let state: RetryState = freshRetryState();
  let mustReadSheet = false;
  let posts = 0;
  let lastError: ClubError | null = null;
  /** A post went unanswered: nothing more is posted until the club has been read. */
  let unknown: { failIfAbsent: RequestReason | null } | null = null;
  let unreadableSince: number | null = null;
  /** Posts of this run left 'sent' (their outcome unknown), by time, with what was heard: a read of the club settles them. */
  const open = new Map<string, { attemptId: number; heard: HeardAnswer }>();
  const postsLeft = () => posts < (caller.maxPosts ?? Number.POSITIVE_INFINITY);
  const pause = async (ms: number) => ((await caller.pause(ms)) ? null : STOPPED);
  const decide = (answer: ClubAnswer): Decision => {
    const next = decideAfterAnswer({ answer, state, now: caller.now(), playDate: caller.booking.date, settings });
    state = next.state;
    return next.decision;
  };

  /** Carries out the policy's decision; null means: go round again for the same time. */
  const carryOut = async (answer: ClubAnswer, decision: Decision): Promise<AttemptOutcome | null> => {
    await hooks.afterDecision?.(answer, decision);
    switch (decision.kind) {
      case "book":
        // A booked answer is returned where it is heard; the policy books nothing else.
        return null;
      case "next_time":
        return { kind: decision.gone ? "taken" : "skip" };
      case "fail":
        return { kind: "failed", reason: decision.reason, error: lastError };
      case "read_sheet":
        // The club did not know the id: read its sheet and try the real one.
        mustReadSheet = true;
        hooks.onSlotIdRefused?.();
        return postsLeft() ? null : { kind: "skip" };
      case "re_sign_in": {
        const refused = await renew(caller.session);
        if (refused) return refused;
        if (!postsLeft()) return { kind: "skip" };
        return decision.afterMs === null ? null : pause(decision.afterMs);
      }
      case "reconcile":
        if (caller.settlesUnknown === "later") return { kind: "unsettled", cause: "later" };
        unknown = { failIfAbsent: decision.failIfAbsent ?? null };
        return pause(decision.afterMs);
      case "retry_same":
        if (!postsLeft()) return { kind: "skip" };
        return (await (hooks.waitTurn ?? caller.pause)(decision.afterMs)) ? null : STOPPED;
      case "back_off":
        if (!postsLeft()) return { kind: "skip" };
        return pause(decision.afterMs);
    }
  };

  /** After a post without an answer: is the booking at the club? Until the club is read, nothing else is posted. */
  const settleUnknown = async (): Promise<AttemptOutcome | null> => {
    const found = await findBookedAtClub(caller.session, { playDate: caller.booking.date, courseId: caller.booking.course, times: caller.postedTimes() }, caller.takenRefs);
    if (found === "unreadable") {
      hooks.onUnreadable?.();
      unreadableSince ??= caller.now();
      // Never failed while the club may hold the booking: after the whole window, unsettled (decision 117).
      if (caller.now() - unreadableSince >= settings.unavailableWindowMs) return { kind: "unsettled", cause: "unreadable" };
      return pause(settings.unavailableBackoffMs.at(-1) ?? 1000);
    }
    const failIfAbsent = unknown?.failIfAbsent ?? null;
    unknown = null;
    unreadableSince = null;
    if (found) return { kind: "booked", ref: found.ref, time: found.time, attemptId: open.get(found.time)?.attemptId ?? null, durationMs: null };
    // Read, and not booked: the posts left open booked nothing, and are written with what was heard.
    for (const [at, post] of open) {
      await caller.record.answered(post.attemptId, post.heard);
      open.delete(at);
    }
    await hooks.afterSettled?.();
    // The trouble outlasted the window: nothing more is tried.
    return failIfAbsent ? { kind: "failed", reason: failIfAbsent, error: lastError } : null;
  };

  for (;;) {
    if (hooks.isStopped?.()) return STOPPED;
    if (unknown) {
      const settled = await settleUnknown();
      if (settled) return settled;
      continue;
    }
    let attemptId: number;
    let answering: Promise<{ ref: string }>;
    let afterAnswer: (() => Promise<void>) | undefined;
    if (posted) {
      ({ attemptId, answer: answering, afterAnswer } = posted);
      state = { ...state, isPredicted: posted.isPredicted };
      posted = undefined;
    } else {
      const refused = await hooks.beforePost?.();
      if (refused) return { kind: "failed", reason: refused, error: null };
      const slot = await caller.slotFor(time, mustReadSheet);
      if (slot.kind === "taken" || slot.kind === "skip") return slot;
      if (slot.kind === "answer") {
        if (slot.answer.kind === "error" && slot.answer.error instanceof ClubError) lastError = slot.answer.error;
        const outcome = await carryOut(slot.answer, decide(slot.answer));
        if (outcome) return outcome;
        continue;
      }
      state = { ...state, isPredicted: slot.isPredicted };
      attemptId = await caller.record.sent({ time, slotId: slot.slotId });
      answering = caller.session.book({ ...caller.booking, time, slotId: slot.slotId });
    }
    posts++;
    const started = performance.now();
    let result: { ref: string } | ClubError;
    try {
      result = await answering;
    } catch (caught) {
      result = asClubError(caught);
    }
    const answer: ClubAnswer = result instanceof ClubError ? { to: "post", kind: "error", error: result } : { to: "post", kind: "booked", ref: result.ref };
    // The date is open: whoever waits for it posts now, before this post's bookkeeping.
    if (showsDateOpen(answer)) hooks.onDateOpen?.();
    await afterAnswer?.();
    const durationMs = Math.round(performance.now() - started);
    if (!(result instanceof ClubError)) return { kind: "booked", ref: result.ref, time, attemptId, durationMs };
    const error = result;
    lastError = error;
    const heard: HeardAnswer = { error, reason: attemptReason(error), durationMs };
    const decision = decide(answer);
    // A post that may have booked is written as unknown, or left 'sent' for the read that settles it.
    if (decision.kind !== "reconcile") await caller.record.answered(attemptId, heard);
    else if (caller.record.unknown) await caller.record.unknown(attemptId, heard);
    else open.set(time, { attemptId, heard });
    const outcome = await carryOut(answer, decision);
    if (outcome) return outcome;
  }
}

/** Signs in again; a refused login ends the attempt (the member's club password is wrong). */
async function renew(session: AttemptCaller["session"]): Promise<AttemptOutcome | null> {
  try {
    await session.renew();
    return null;
  } catch (caught) {
    const error = asClubError(caught);
    // Any other trouble shows on the next post, which the policy weighs.
    return error.kind === "bad_credentials" ? { kind: "failed", reason: reason("bookings.reason.bad_credentials"), error } : null;
  }
}

/** An attempt's answer as a reason key: our words for trouble, the club's own words for a refusal. */
export function attemptReason(error: ClubError): RequestReason {
  if (error.kind === "page_not_understood") return reason("bookings.reason.page_not_understood");
  if (error.kind === "slow_down") return reason("bookings.reason.club_slowed_down");
  if (error.kind === "unavailable") return error.status === undefined ? reason("bookings.reason.club_timeout") : reason("bookings.reason.other", { message: error.message });
  return reason("bookings.reason.club_refused", { message: error.message });
}

export function asClubError(error: unknown): ClubError {
  if (error instanceof ClubError) return error;
  return new ClubError("unavailable", error instanceof Error ? error.message : String(error), { cause: error });
}
