/**
 * How a freed slot becomes a booking. The slot watch's pass (src/jobs/slot-watch.ts) hands a watch
 * the free slot it found; here the watch posts for it through the one booking attempt
 * (src/attempt/attempt.ts): the attempt written 'sent' in watch_attempts before the post leaves,
 * the club's answer weighed by the policy (src/attempt/policy.ts) with no window (a watch never
 * waits inside a post: its next pass is its retry, so it posts once per pass). Booked, the watch,
 * its attempt and the booking row change together; an upgrade's old booking is cancelled once the
 * new one stands, and the member is told. A post whose outcome is unknown stays 'sent': the next
 * pass reads the member's club bookings before anything else is posted for them (`watchOpenPosts`,
 * with src/attempt/reconcile.ts), so a watch books at most once, across a crash too (decision 108).
 */
import type { AppDatabase } from "../../db/client.ts";
import type { MemberClubSession } from "../../club/client.ts";
import { ClubError } from "../../club/errors.ts";
import type { MemberSessions } from "../../club/member-sessions.ts";
import type { FreeSlot } from "../../domain/watches.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import { attemptSlot } from "../../attempt/attempt.ts";
import type { RetrySettings } from "../../attempt/policy.ts";
import type { OpenPostKind } from "../../attempt/reconcile.ts";
import { removeBookingByRef } from "../../lifecycle/booking-records.ts";
import { courseNameOf } from "../../lifecycle/booking-records.ts";
import type { DomainEventOf } from "../../domain/events.ts";
import {
  claimedBookingRefs,
  endWatch,
  findWatch,
  markWatchBooked,
  membersWithUnansweredAttempts,
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

/** After a watch booked: the upgrade's old booking goes, then the member is told (their bookings reload without it). */
async function afterBooked(d: WatchBookingDeps, session: MemberClubSession | null, watch: WatchRow, booked: DomainEventOf<"watch_booked">, ref: string): Promise<void> {
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
  d.logger.info("watch booked a freed slot", { watchId: watch.id, userId: watch.userId, date: watch.playDate, time: booked.time, ref });
  d.notifier.publish(booked);
}

/** Posts for one freed slot through the member's club session and records what became of it. */
export async function postForWatch(d: WatchBookingDeps, session: MemberClubSession, watch: WatchRow, slot: FreeSlot & { slotId: string }): Promise<PostOutcome> {
  const { db } = d.database;
  const courseName = await courseNameOf(db, slot.courseId);
  const outcome = await attemptSlot(
    {
      session,
      booking: { date: slot.date, course: slot.courseId, players: toClubPlayers(watch.players) },
      settings: WATCH_RETRY,
      now: () => d.clock.now(),
      pause: async () => true,
      // The pass found the slot free and its id: one post for it, and no other.
      slotFor: async () => ({ kind: "ready", slotId: slot.slotId, isPredicted: false }),
      maxPosts: 1,
      // Left 'sent': the next pass reads the member's club bookings first.
      settlesUnknown: "later",
      postedTimes: () => [slot.time],
      takenRefs: (refs) => claimedBookingRefs(db, watch.userId, refs),
      record: {
        sent: ({ time, slotId }) => recordWatchAttemptSent(db, { watchId: watch.id, userId: watch.userId, courseId: slot.courseId, time, slotId, sentAt: d.clock.now() }),
        answered: (attemptId, heard) =>
          recordWatchAttemptAnswer(db, attemptId, { outcome: heard.error.kind, key: heard.reason.key, context: heard.reason.context, durationMs: heard.durationMs }),
      },
    },
    slot.time,
  );
  switch (outcome.kind) {
    case "booked": {
      const booked = await markWatchBooked(d.database, {
        watch,
        attemptId: outcome.attemptId,
        courseId: slot.courseId,
        courseName,
        time: slot.time,
        ref: outcome.ref,
        durationMs: outcome.durationMs,
        now: d.clock.now(),
      });
      // Cancelled while the post was out: the booking is the member's all the same.
      if (booked) await afterBooked(d, session, watch, booked, outcome.ref);
      else d.logger.warn("watch: booked after it stopped watching", { watchId: watch.id, ref: outcome.ref });
      return { kind: "booked", ref: outcome.ref };
    }
    case "unsettled":
      return { kind: "unsettled" };
    case "failed":
      if (outcome.reason.key !== "bookings.reason.bad_credentials") return { kind: "not_booked", gone: false };
      d.notifier.publish(await endWatch(db, watch.id, { key: "watches.reason.bad_credentials", context: {} }, d.clock.now()));
      return { kind: "ended" };
    case "taken":
    case "skip":
      return { kind: "not_booked", gone: outcome.kind === "taken" };
  }
}

/** The watches' posts whose outcome nobody heard, settled by a read of the member's club bookings at the start of a pass. */
export function watchOpenPosts(d: WatchBookingDeps): OpenPostKind {
  const { db } = d.database;
  return {
    members: () => membersWithUnansweredAttempts(db),
    takenRefs: (userId, refs) => claimedBookingRefs(db, userId, refs),
    async openPosts(userId) {
      const posts = [];
      for (const attempt of await unansweredAttemptsOf(db, userId)) {
        const watch = await findWatch(db, attempt.watchId);
        if (!watch) continue;
        posts.push({
          playDate: watch.playDate,
          courseId: attempt.courseId,
          time: attempt.time,
          async booked(found: { ref: string; time: string }, session: MemberClubSession) {
            const courseName = await courseNameOf(db, attempt.courseId);
            const booked = await markWatchBooked(d.database, {
              watch,
              attemptId: attempt.id,
              courseId: attempt.courseId,
              courseName,
              time: found.time,
              ref: found.ref,
              durationMs: null,
              now: d.clock.now(),
            });
            if (booked) {
              await afterBooked(d, session, watch, booked, found.ref);
            } else {
              await recordWatchAttemptAnswer(db, attempt.id, {
                outcome: "confirmed",
                key: "watches.reason.booked",
                context: { course: courseName, time: found.time, ref: found.ref },
                durationMs: null,
              });
            }
          },
          notBooked: () => settleUnansweredWatchAttempts(db, [attempt.id]),
        });
      }
      return posts;
    },
  };
}
