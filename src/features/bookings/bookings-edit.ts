/**
 * POST /v1/bookings/{id}/edit. A change of players only is an edit at the club. A change of date,
 * course or time books the new slot first and cancels the old one only once the new one is
 * confirmed, so the member is never left with nothing.
 *
 * The booking loop classifies the club's answers with the release engine's classifier and keeps
 * its rule: after a post without a readable answer nothing more is posted for the member until
 * their club bookings have been read (src/lifecycle/reconcile.ts).
 */
import type { AppDeps } from "../../deps.ts";
import type { StoredPlayer } from "../../db/schema.ts";
import type { MemberClubSession } from "../../club/client.ts";
import { clubErrorToAppError } from "../../club/club-login.ts";
import { ClubError } from "../../club/errors.ts";
import type { BookingSubmission } from "../../domain/booking-submission-schema.ts";
import type { NormalisedSubmission } from "../../domain/booking-submission.ts";
import { releaseInstant } from "../../domain/release-time.ts";
import { AppError } from "../../lib/errors.ts";
import { changeBookingPlayers, recordBooking, removeBooking } from "../../lifecycle/booking-records.ts";
import { decideAfterAnswer, freshRetryState, type ClubAnswer, type RetrySettings } from "../../lifecycle/club-answer.ts";
import { knownBookingRefs } from "../../lifecycle/request-lifecycle.ts";
import { findBookedAtClub } from "../../lifecycle/reconcile.ts";
import type { SessionUser } from "../../domain/session-user.ts";
import { readRules } from "../../services/booking-config.service.ts";
import type { BookingView } from "./bookings.schemas.ts";
import { BOOKING_ERRORS, checkSubmission, clubNowOf, fail, findOwnBooking, toBookingView } from "./bookings.service.ts";
import { flightToStoredPlayers, toClubPlayers } from "../../services/club-players.ts";

/**
 * The member waits for the answer, so club trouble ends the edit at once (no retry window, as
 * before); only the outcome of an unanswered post is read first, after a short pause.
 */
export const EDIT_RETRY: RetrySettings = { notYetOpenSchedule: [], notYetOpenWindowMs: 0, unavailableBackoffMs: [1000], unavailableWindowMs: 0 };

const UNSETTLED = new AppError(
  504,
  "The club's booking site stopped answering, so Teebox could not tell whether the new booking went through. Your old booking is unchanged; please check your bookings.",
  "bookings.error.edit_unsettled",
);

/** What an edit uses of the app. */
export type EditBookingDeps = Pick<AppDeps, "database" | "clock" | "logger" | "sessions" | "notifier" | "releaseEngine">;

export async function editBooking(deps: EditBookingDeps, user: SessionUser, bookingId: string, submission: BookingSubmission): Promise<BookingView> {
  const { database, clock } = deps;
  const booking = await findOwnBooking(database.db, user.id, bookingId);
  const sub = await checkSubmission(database.db, user, submission, clock.now());
  const players = flightToStoredPlayers(sub.flight, user.name);
  const session = await deps.sessions.forMember(user.id);
  const isSameSlot = sub.courseId === booking.courseId && sub.targetDate === booking.playDate && sub.times[0] === booking.time;

  if (isSameSlot) {
    try {
      await session.editBooking(booking.bookingRef, toClubPlayers(players));
    } catch (error) {
      throw clubErrorToAppError(error);
    }
    const changed = toBookingView(await changeBookingPlayers(database.db, booking.id, players));
    deps.notifier.publish({ type: "data_changed", userId: user.id });
    return changed;
  }

  const rules = await readRules(database.db);
  if (releaseInstant(sub.targetDate, rules.appSettings) > clubNowOf(deps)) throw fail(400, BOOKING_ERRORS.notOpenYet);
  const booked = await bookFirstFree(deps, session, sub, players);
  const row = await recordBooking(database.db, { userId: user.id, bookingRef: booked.ref, courseId: sub.courseId, playDate: sub.targetDate, time: booked.time, players, requestId: null, createdAt: clock.now() });
  try {
    await session.cancelBooking(booking.bookingRef);
    await removeBooking(database.db, booking.id);
  } catch (error) {
    // The new booking stands; the old one stays listed until it is cancelled (or the sync sees it gone).
    if (error instanceof ClubError && error.kind === "not_found") await removeBooking(database.db, booking.id);
    else deps.logger.warn("edit: the old booking could not be cancelled", { bookingId, error });
  }
  deps.notifier.publish({ type: "data_changed", userId: user.id });
  return toBookingView(row);
}

/** Books the first selected time the club still has, in priority order. */
async function bookFirstFree(deps: EditBookingDeps, session: MemberClubSession, sub: NormalisedSubmission, players: StoredPlayer[]): Promise<{ ref: string; time: string }> {
  const { clock } = deps;
  const posted: string[] = [];
  let sheet: Awaited<ReturnType<typeof session.fetchTeeSheet>> | null = null;
  /** Reads the club after an unanswered post; the booking if it went through. */
  const reconcile = async (): Promise<{ ref: string; time: string } | null> => {
    const found = await findBookedAtClub(session, { playDate: sub.targetDate, courseId: sub.courseId, times: posted }, (refs) => knownBookingRefs(deps.database.db, session.userId, refs));
    if (found === "unreadable") throw UNSETTLED;
    return found;
  };

  for (const selection of sub.selectionOrder) {
    let slotId = selection.slotId;
    if (!slotId) {
      try {
        sheet ??= await session.fetchTeeSheet(sub.targetDate, sub.courseId);
      } catch (error) {
        throw clubErrorToAppError(error);
      }
      slotId = sheet.slots.find((s) => s.time === selection.time && s.status === "AVAILABLE")?.slotId ?? null;
      if (!slotId) continue;
    }
    let state = freshRetryState();
    for (;;) {
      let answer: ClubAnswer;
      let refusal: ClubError | null = null;
      try {
        posted.push(selection.time);
        const { ref } = await session.book({ date: sub.targetDate, course: sub.courseId, slotId, time: selection.time, players: toClubPlayers(players) });
        answer = { to: "post", kind: "booked", ref };
      } catch (error) {
        if (!(error instanceof ClubError)) throw error;
        refusal = error;
        answer = { to: "post", kind: "error", error };
      }
      const { decision, state: next } = decideAfterAnswer({ answer, state, now: clock.now(), playDate: sub.targetDate, settings: EDIT_RETRY });
      state = next;
      if (decision.kind === "book") return { ref: decision.ref, time: selection.time };
      if (decision.kind === "next_time" || decision.kind === "read_sheet") break;
      if (decision.kind === "re_sign_in") {
        try {
          await session.renew();
        } catch (error) {
          throw clubErrorToAppError(error);
        }
        continue;
      }
      // The engine's rule says when a post may have acted (a timeout, an unreadable page, a bot wall).
      if (decision.kind === "reconcile") {
        // Nothing more is posted until the club has been read: the unanswered post may have booked
        // it. The pause lets a slow post land before its outcome is read.
        await clock.sleepUntil(clock.now() + EDIT_RETRY.unavailableBackoffMs[0]);
        const found = await reconcile();
        if (found) return found;
      }
      if (decision.kind === "fail" || decision.kind === "reconcile" || decision.kind === "back_off") {
        throw refusal ? clubErrorToAppError(refusal) : UNSETTLED;
      }
      // Not open yet: the date's release instant was checked above, so the club's clock disagrees.
      throw fail(400, BOOKING_ERRORS.notOpenYet);
    }
  }
  throw fail(409, BOOKING_ERRORS.noTimeFree);
}
