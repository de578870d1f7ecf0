/**
 * The edit of a confirmed booking as a caller of the one booking attempt (decisions 015, 084, 175):
 * the new slot is booked first, each post written ahead in edit_attempts, and the old booking is
 * cancelled only once the new one stands, so the member is never left with nothing. The member
 * waits for the answer, so club trouble ends the edit at once (no retry window); only the outcome
 * of an unanswered post is read first, after a short pause. A post whose outcome the edit could not
 * learn (the club unreadable, a crash mid-post) stays 'sent': the member's next edit, and the slot
 * watch's next pass, read their club bookings and complete or settle it (`openPosts`).
 *
 * Built once by the container (src/container.ts): it keeps the ids of the posts in flight, so a
 * read for posts left open never settles one whose edit is still waiting for its answer.
 */
import type { MemberClubSession } from "../club/client.ts";
import type { ClubTeeSheet } from "../club/records.ts";
import type { AppDatabase } from "../db/client.ts";
import type { StoredPlayer } from "../db/schema.ts";
import { ClubError } from "../club/errors.ts";
import type { DomainEventOf } from "../domain/events.ts";
import { reason, type RequestReason } from "../domain/request-reasons.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { removeBookingByRef, type BookingRow } from "../lifecycle/booking-records.ts";
import { recordEditAttemptAnswer, recordEditAttemptSent, recordEditBooked, membersWithSentEditAttempts, sentEditAttemptsOf } from "../lifecycle/edit-attempts.ts";
import { claimedBookingRefs } from "../lifecycle/watch-lifecycle.ts";
import type { Notifier } from "../realtime/notifier.ts";
import { toClubPlayers } from "../services/club-players.ts";
import { asClubError, attemptSlot, type AttemptCaller, type SlotLookup } from "./attempt.ts";
import type { RetrySettings } from "./policy.ts";
import type { OpenPostKind } from "./reconcile.ts";

/**
 * The member waits for the answer, so club trouble ends the edit at once (no retry window); an
 * unanswered post's outcome is read after one second, which lets a slow post land.
 */
export const EDIT_RETRY: RetrySettings = { notYetOpenSchedule: [], notYetOpenWindowMs: 0, unavailableBackoffMs: [1000], unavailableWindowMs: 0 };

export interface EditAttemptsDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  notifier: Notifier;
}

/** The new slot the member asked for: the date and course, the times in priority order (with the slot ids the member saw, if any), the flight. */
export interface EditTarget {
  userId: number;
  /** The booking the edit replaces. */
  replaces: Pick<BookingRow, "bookingRef">;
  playDate: string;
  courseId: string;
  selection: readonly { time: string; slotId: string | null }[];
  players: StoredPlayer[];
}

export type EditOutcome =
  /** Booked, the old booking cancelled: the event tells the member's screens. */
  | { kind: "booked"; booking: BookingRow; event: DomainEventOf<"booking_edited"> }
  /** None of the times could be booked (taken, or refused for this flight). */
  | { kind: "no_time" }
  | { kind: "failed"; reason: RequestReason; error: ClubError | null }
  /** A post may have booked and the club could not be read: the old booking is left as it is. */
  | { kind: "unsettled" };

export interface EditAttempts {
  /** Books the first of the times the club still has, then cancels the old booking. */
  book(session: MemberClubSession, target: EditTarget): Promise<EditOutcome>;
  /** Posts of edits whose outcome nobody heard, for a read of the member's club bookings to settle. */
  readonly openPosts: OpenPostKind;
}

export function createEditAttempts(d: EditAttemptsDeps): EditAttempts {
  const { db } = d.database;
  /** Attempts whose edit is still waiting for them; emptied as each edit ends. */
  const inFlight = new Set<number>();

  /** The new booking stands: the old one is cancelled at the club, then here (the sync would see it gone otherwise). */
  async function replaceOld(session: MemberClubSession, userId: number, oldRef: string): Promise<void> {
    try {
      await session.cancelBooking(oldRef);
      await removeBookingByRef(db, userId, oldRef);
    } catch (error) {
      // The new booking stands; the old one stays listed until it is cancelled (or the sync sees it gone).
      if (error instanceof ClubError && error.kind === "not_found") await removeBookingByRef(db, userId, oldRef);
      else d.logger.warn("edit: the old booking could not be cancelled", { bookingRef: oldRef, error });
    }
  }

  async function book(session: MemberClubSession, target: EditTarget): Promise<EditOutcome> {
    /** Each post of this edit, by time: a reconcile that finds one booked completes that one. */
    const posted = new Map<string, number>();
    let sheet: Promise<ClubTeeSheet> | null = null;
    const slotFor =
      (selected: string | null) =>
      async (time: string, mustRead: boolean): Promise<SlotLookup> => {
        if (selected && !mustRead) return { kind: "ready", slotId: selected, isPredicted: false };
        if (mustRead || !sheet) sheet = session.fetchTeeSheet(target.playDate, target.courseId);
        let read: ClubTeeSheet;
        try {
          read = await sheet;
        } catch (caught) {
          return { kind: "answer", answer: { to: "sheet", kind: "error", error: asClubError(caught) } };
        }
        const slot = read.slots.find((s) => s.time === time && s.status === "AVAILABLE");
        return slot ? { kind: "ready", slotId: slot.slotId, isPredicted: false } : { kind: "skip" };
      };
    const caller = (selected: string | null): AttemptCaller => ({
      session,
      booking: { date: target.playDate, course: target.courseId, players: toClubPlayers(target.players) },
      settings: EDIT_RETRY,
      now: () => d.clock.now(),
      pause: async (ms) => {
        await d.clock.sleepUntil(d.clock.now() + ms);
        return true;
      },
      slotFor: slotFor(selected),
      settlesUnknown: "now",
      postedTimes: () => [...posted.keys()],
      takenRefs: (refs) => claimedBookingRefs(db, target.userId, refs),
      record: {
        async sent({ time, slotId }) {
          const id = await recordEditAttemptSent(db, {
            userId: target.userId,
            replacesRef: target.replaces.bookingRef,
            courseId: target.courseId,
            playDate: target.playDate,
            time,
            slotId,
            players: target.players,
            sentAt: d.clock.now(),
          });
          inFlight.add(id);
          posted.set(time, id);
          return id;
        },
        answered: (attemptId, heard) => recordEditAttemptAnswer(db, attemptId, { outcome: heard.error.kind, reason: heard.reason, durationMs: heard.durationMs }),
      },
    });
    try {
      for (const { time, slotId } of target.selection) {
        const outcome = await attemptSlot(caller(slotId), time);
        if (outcome.kind === "taken" || outcome.kind === "skip") continue;
        if (outcome.kind === "failed") return outcome;
        if (outcome.kind === "unsettled") return { kind: "unsettled" };
        const attemptId = outcome.attemptId ?? posted.get(outcome.time);
        const booked =
          attemptId === undefined
            ? null
            : await recordEditBooked(d.database, { attemptId, ref: outcome.ref, time: outcome.time, durationMs: outcome.durationMs, now: d.clock.now() });
        if (!booked) throw new Error(`edit: the booked post of ${outcome.time} has no attempt`);
        await replaceOld(session, target.userId, target.replaces.bookingRef);
        return { kind: "booked", ...booked };
      }
      return { kind: "no_time" };
    } finally {
      // Posts still 'sent' now are left to a read of the member's club bookings (openPosts).
      for (const id of posted.values()) inFlight.delete(id);
    }
  }

  const openPosts: OpenPostKind = {
    members: () => membersWithSentEditAttempts(db),
    takenRefs: (userId, refs) => claimedBookingRefs(db, userId, refs),
    async openPosts(userId) {
      const rows = (await sentEditAttemptsOf(db, userId)).filter((row) => !inFlight.has(row.id));
      return rows.map((row) => ({
        playDate: row.playDate,
        courseId: row.courseId,
        time: row.time,
        async booked(found, session) {
          // The edit went through at the club while nobody heard: complete it as the member asked.
          const booked = await recordEditBooked(d.database, { attemptId: row.id, ref: found.ref, time: found.time, durationMs: null, now: d.clock.now() });
          await replaceOld(session, userId, row.replacesRef);
          d.logger.info("edit: a post left unanswered had booked; the edit is completed", { userId, ref: found.ref, replaced: row.replacesRef });
          d.notifier.publish(booked?.event ?? null);
        },
        notBooked: () => recordEditAttemptAnswer(db, row.id, { outcome: "not_booked", reason: reason("bookings.reason.restart_no_answer"), durationMs: null }),
      }));
    },
  };

  return { book, openPosts };
}
