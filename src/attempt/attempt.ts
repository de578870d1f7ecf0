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
export function attemptSlot(caller: AttemptCaller, time: string, posted?: PostedAhead): Promise<AttemptOutcome> {
  return new AttemptRun(caller, time, posted).run();
}

/** A post in flight: its attempt, its answer to come, and what to write once the answer is in. */
interface InFlight {
  attemptId: number;
  answer: Promise<{ ref: string }>;
  afterAnswer?: () => Promise<void>;
}

/** One call of `attemptSlot`: its retry bookkeeping, and its steps (each returns an outcome, or null to go round again). */
class AttemptRun {
  private state: RetryState = freshRetryState();
  private mustReadSheet = false;
  private posts = 0;
  private lastError: ClubError | null = null;
  /** A post went unanswered: nothing more is posted until the club has been read. */
  private unknown: { failIfAbsent: RequestReason | null } | null = null;
  private unreadableSince: number | null = null;
  /** Posts of this run left 'sent' (their outcome unknown), by time, with what was heard: a read of the club settles them. */
  private readonly open = new Map<string, { attemptId: number; heard: HeardAnswer }>();
  private readonly hooks: AttemptHooks;

  constructor(
    private readonly caller: AttemptCaller,
    private readonly time: string,
    private posted: PostedAhead | undefined,
  ) {
    this.hooks = caller.hooks ?? {};
  }

  async run(): Promise<AttemptOutcome> {
    for (;;) {
      if (this.hooks.isStopped?.()) return STOPPED;
      const outcome = this.unknown ? await this.settleUnknown() : await this.postOnce();
      if (outcome) return outcome;
    }
  }

  private postsLeft(): boolean {
    return this.posts < (this.caller.maxPosts ?? Number.POSITIVE_INFINITY);
  }

  private async pause(ms: number): Promise<AttemptOutcome | null> {
    return (await this.caller.pause(ms)) ? null : STOPPED;
  }

  private decide(answer: ClubAnswer): Decision {
    const next = decideAfterAnswer({ answer, state: this.state, now: this.caller.now(), playDate: this.caller.booking.date, settings: this.caller.settings });
    this.state = next.state;
    return next.decision;
  }

  /** The post of this round: the one made ahead, or a fresh one for the slot the caller finds (or what reading the sheet answered). */
  private async startPost(): Promise<InFlight | AttemptOutcome | null> {
    if (this.posted) {
      const { attemptId, answer, afterAnswer, isPredicted } = this.posted;
      this.state = { ...this.state, isPredicted };
      this.posted = undefined;
      return { attemptId, answer, afterAnswer };
    }
    const refused = await this.hooks.beforePost?.();
    if (refused) return { kind: "failed", reason: refused, error: null };
    const slot = await this.caller.slotFor(this.time, this.mustReadSheet);
    if (slot.kind === "taken" || slot.kind === "skip") return slot;
    if (slot.kind === "answer") {
      if (slot.answer.kind === "error" && slot.answer.error instanceof ClubError) this.lastError = slot.answer.error;
      return this.carryOut(slot.answer, this.decide(slot.answer));
    }
    this.state = { ...this.state, isPredicted: slot.isPredicted };
    const attemptId = await this.caller.record.sent({ time: this.time, slotId: slot.slotId });
    return { attemptId, answer: this.caller.session.book({ ...this.caller.booking, time: this.time, slotId: slot.slotId }) };
  }

  /** Posts once (written ahead), and carries out what the policy decides of the answer. */
  private async postOnce(): Promise<AttemptOutcome | null> {
    const started = await this.startPost();
    if (started === null || "kind" in started) return started;
    this.posts++;
    const began = performance.now();
    let result: { ref: string } | ClubError;
    try {
      result = await started.answer;
    } catch (caught) {
      result = asClubError(caught);
    }
    const answer: ClubAnswer = result instanceof ClubError ? { to: "post", kind: "error", error: result } : { to: "post", kind: "booked", ref: result.ref };
    // The date is open: whoever waits for it posts now, before this post's bookkeeping.
    if (showsDateOpen(answer)) this.hooks.onDateOpen?.();
    await started.afterAnswer?.();
    const durationMs = Math.round(performance.now() - began);
    if (!(result instanceof ClubError)) return { kind: "booked", ref: result.ref, time: this.time, attemptId: started.attemptId, durationMs };
    this.lastError = result;
    const heard: HeardAnswer = { error: result, reason: attemptReason(result), durationMs };
    const decision = this.decide(answer);
    // A post that may have booked is written as unknown, or left 'sent' for the read that settles it.
    if (decision.kind !== "reconcile") await this.caller.record.answered(started.attemptId, heard);
    else if (this.caller.record.unknown) await this.caller.record.unknown(started.attemptId, heard);
    else this.open.set(this.time, { attemptId: started.attemptId, heard });
    return this.carryOut(answer, decision);
  }

  /** Carries out the policy's decision; null means: go round again for the same time. */
  private async carryOut(answer: ClubAnswer, decision: Decision): Promise<AttemptOutcome | null> {
    await this.hooks.afterDecision?.(answer, decision);
    switch (decision.kind) {
      case "book":
        // A booked answer is returned where it is heard; the policy books nothing else.
        return null;
      case "next_time":
        return { kind: decision.gone ? "taken" : "skip" };
      case "fail":
        return { kind: "failed", reason: decision.reason, error: this.lastError };
      case "read_sheet":
        // The club did not know the id: read its sheet and try the real one.
        this.mustReadSheet = true;
        this.hooks.onSlotIdRefused?.();
        return this.postsLeft() ? null : { kind: "skip" };
      case "re_sign_in": {
        const refused = await renew(this.caller.session);
        if (refused) return refused;
        if (!this.postsLeft()) return { kind: "skip" };
        return decision.afterMs === null ? null : this.pause(decision.afterMs);
      }
      case "reconcile":
        if (this.caller.settlesUnknown === "later") return { kind: "unsettled", cause: "later" };
        this.unknown = { failIfAbsent: decision.failIfAbsent ?? null };
        return this.pause(decision.afterMs);
      case "retry_same":
        if (!this.postsLeft()) return { kind: "skip" };
        return (await (this.hooks.waitTurn ?? this.caller.pause)(decision.afterMs)) ? null : STOPPED;
      case "back_off":
        if (!this.postsLeft()) return { kind: "skip" };
        return this.pause(decision.afterMs);
    }
  }

  /** After a post without an answer: is the booking at the club? Until the club is read, nothing else is posted. */
  private async settleUnknown(): Promise<AttemptOutcome | null> {
    const { caller, hooks } = this;
    const found = await findBookedAtClub(caller.session, { playDate: caller.booking.date, courseId: caller.booking.course, times: caller.postedTimes() }, caller.takenRefs);
    if (found === "unreadable") {
      hooks.onUnreadable?.();
      this.unreadableSince ??= caller.now();
      // Never failed while the club may hold the booking: after the whole window, unsettled (decision 117).
      if (caller.now() - this.unreadableSince >= caller.settings.unavailableWindowMs) return { kind: "unsettled", cause: "unreadable" };
      return this.pause(caller.settings.unavailableBackoffMs.at(-1) ?? 1000);
    }
    const failIfAbsent = this.unknown?.failIfAbsent ?? null;
    this.unknown = null;
    this.unreadableSince = null;
    if (found) return { kind: "booked", ref: found.ref, time: found.time, attemptId: this.open.get(found.time)?.attemptId ?? null, durationMs: null };
    // Read, and not booked: the posts left open booked nothing, and are written with what was heard.
    for (const [at, post] of this.open) {
      await caller.record.answered(post.attemptId, post.heard);
      this.open.delete(at);
    }
    await hooks.afterSettled?.();
    // The trouble outlasted the window: nothing more is tried.
    return failIfAbsent ? { kind: "failed", reason: failIfAbsent, error: this.lastError } : null;
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
