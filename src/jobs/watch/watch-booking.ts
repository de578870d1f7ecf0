/**
 * One watch's booking post, with the engine's rules: the same decision after each club answer
 * (src/lifecycle/club-answer.ts), the attempt written 'sent' before the post leaves, and after a
 * post without a readable answer nothing more for the member until the club has been read
 * (src/lifecycle/reconcile.ts). Upgrades cancel the old booking only once the new one stands.
 */
import type { AppDatabase } from "../../db/client.ts";
import type { MemberClubSession } from "../../club/client.ts";
import { ClubError } from "../../club/errors.ts";
import type { MemberSessions } from "../../club/member-sessions.ts";
import type { FreeSlot } from "../../domain/watches.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import { removeBookingByRef } from "../../lifecycle/booking-records.ts";
import { decideAfterAnswer, freshRetryState, type ClubAnswer, type RetrySettings } from "../../lifecycle/club-answer.ts";
import { findBookedAtClub } from "../../lifecycle/reconcile.ts";
import { courseNameOf } from "../../lifecycle/request-lifecycle.ts";
import {
  claimedBookingRefs,
  endWatch,
  findWatch,
  markWatchBooked,
  recordWatchAttemptAnswer,
  recordWatchAttemptSent,
  settleUnansweredWatchAttempts,
  unansweredAttemptsOf,
  type WatchRow,
} from "../../lifecycle/watch-lifecycle.ts";
import type { Notifier } from "../../realtime/notifier.ts";
import { toClubPlayers } from "../../services/club-players.ts";

export interface WatchBookingDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  sessions: MemberSessions;
  notifier: Notifier;
}

/**
 * A watch never waits inside a post: trouble of any kind is answered by the next pass (the slot
 * may be gone by then, or another may have come free), so every window here is zero.
 */
export const WATCH_RETRY: RetrySettings = { notYetOpenSchedule: [], notYetOpenWindowMs: 0, unavailableBackoffMs: [0], unavailableWindowMs: 0 };

export type PostOutcome =
  | { kind: "booked"; ref: string }
  /** The slot is gone or not for this watch; the watch keeps watching. */
  | { kind: "not_booked"; gone: boolean }
  /** The post may have booked: the member waits for a reconcile. */
  | { kind: "unsettled" }
  /** The watch ended (its login was refused). */
  | { kind: "ended" };

/** After a watch booked: the upgrade's old booking goes, and the member is told. */
async function afterBooked(d: WatchBookingDeps, session: MemberClubSession | null, watch: WatchRow, courseName: string, time: string, ref: string): Promise<void> {
  if (watch.upgradeRef) {
    try {
      const s = session ?? (await d.sessions.forMember(watch.userId));
      await s.cancelBooking(watch.upgradeRef);
      await removeBookingByRef(d.database.db, watch.userId, watch.upgradeRef);
    } catch (error) {
      if (error instanceof ClubError && error.kind === "not_found") await removeBookingByRef(d.database.db, watch.userId, watch.upgradeRef);
      // The new booking stands; the old one stays listed until cancelled (or the sync sees it gone).
      else d.logger.warn("watch: the booking it upgraded could not be cancelled", { watchId: watch.id, error });
    }
  }
  d.logger.info("watch booked a freed slot", { watchId: watch.id, userId: watch.userId, date: watch.playDate, time, ref });
  d.notifier.publish({ type: "watch_booked", userId: watch.userId, watchId: watch.id, course: courseName, date: watch.playDate, time });
  d.notifier.publish({ type: "data_changed", userId: watch.userId });
}

/** Posts for one freed slot through the member's club session and records what became of it. */
export async function postForWatch(d: WatchBookingDeps, session: MemberClubSession, watch: WatchRow, slot: FreeSlot & { slotId: string }): Promise<PostOutcome> {
  const { db } = d.database;
  const courseName = await courseNameOf(db, slot.courseId);
  const attemptId = await recordWatchAttemptSent(db, { watchId: watch.id, userId: watch.userId, courseId: slot.courseId, time: slot.time, slotId: slot.slotId, sentAt: d.clock.now() });
  const startedAt = d.clock.now();
  let answer: ClubAnswer;
  try {
    const { ref } = await session.book({ date: slot.date, course: slot.courseId, slotId: slot.slotId, time: slot.time, players: toClubPlayers(watch.players) });
    answer = { to: "post", kind: "booked", ref };
  } catch (error) {
    if (!(error instanceof ClubError)) throw error;
    answer = { to: "post", kind: "error", error };
  }
  const durationMs = d.clock.now() - startedAt;
  const { decision } = decideAfterAnswer({ answer, state: freshRetryState(), now: d.clock.now(), playDate: slot.date, settings: WATCH_RETRY });
  if (decision.kind === "book") {
    const isMoved = await markWatchBooked(d.database, { watch, attemptId, courseId: slot.courseId, courseName, time: slot.time, ref: decision.ref, durationMs, now: d.clock.now() });
    if (!isMoved) {
      // Cancelled while the post was out: the booking is the member's all the same.
      d.logger.warn("watch: booked after it stopped watching", { watchId: watch.id, ref: decision.ref });
      return { kind: "booked", ref: decision.ref };
    }
    await afterBooked(d, session, watch, courseName, slot.time, decision.ref);
    return { kind: "booked", ref: decision.ref };
  }
  const error = answer.kind === "error" ? answer.error : null;
  // The engine's rule says when a post may have booked (a timeout, an unreadable page, a bot wall).
  if (decision.kind === "reconcile") return { kind: "unsettled" };
  const context = { message: error?.message ?? "" };
  await recordWatchAttemptAnswer(db, attemptId, { outcome: error?.kind ?? "refused", key: "bookings.reason.club_refused", context, durationMs });
  if (decision.kind === "fail" && decision.reason.key === "bookings.reason.bad_credentials") {
    await endWatch(db, watch.id, { key: "watches.reason.bad_credentials", context: {} }, d.clock.now());
    d.notifier.publish({ type: "data_changed", userId: watch.userId });
    return { kind: "ended" };
  }
  if (decision.kind === "re_sign_in") await session.renew().catch(() => undefined);
  return { kind: "not_booked", gone: decision.kind === "next_time" && decision.gone };
}

/**
 * Reads the member's club bookings for their unanswered posts. True when the member may post
 * again (nothing was left unanswered, or the club showed what became of it).
 */
export async function reconcileMember(d: WatchBookingDeps, userId: number): Promise<boolean> {
  const { db } = d.database;
  const open = await unansweredAttemptsOf(db, userId);
  if (open.length === 0) return true;
  let session: MemberClubSession;
  try {
    session = await d.sessions.forMember(userId);
  } catch {
    return false;
  }
  for (const attempt of open) {
    const watch = await findWatch(db, attempt.watchId);
    if (!watch) continue;
    const found = await findBookedAtClub(session, { playDate: watch.playDate, courseId: attempt.courseId, times: [attempt.time] }, (refs) => claimedBookingRefs(db, userId, refs));
    if (found === "unreadable") return false;
    if (found === null) {
      await settleUnansweredWatchAttempts(db, [attempt.id]);
      continue;
    }
    const courseName = await courseNameOf(db, attempt.courseId);
    if (await markWatchBooked(d.database, { watch, attemptId: attempt.id, courseId: attempt.courseId, courseName, time: found.time, ref: found.ref, durationMs: null, now: d.clock.now() })) {
      await afterBooked(d, session, watch, courseName, found.time, found.ref);
    } else {
      await recordWatchAttemptAnswer(db, attempt.id, { outcome: "confirmed", key: "watches.reason.booked", context: { course: courseName, time: found.time, ref: found.ref }, durationMs: null });
    }
  }
  return true;
}
