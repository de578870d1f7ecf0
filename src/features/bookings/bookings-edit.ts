/**
 * POST /v1/bookings/{id}/edit. A change of players only is an edit at the club. A change of date,
 * course or time books the new slot first and cancels the old one only once the new one is
 * confirmed, so the member is never left with nothing.
 *
 * The new slot is booked through the one booking attempt (src/attempt/edit.ts): each post written
 * ahead, the club's answers weighed by the release engine's policy, and after a post without a
 * readable answer nothing more posted for the member until their club bookings have been read.
 */
import type { AppDeps } from "../../deps.ts";
import { clubErrorToAppError } from "../../club/club-login.ts";
import type { BookingSubmission } from "../../domain/booking-submission-schema.ts";
import { releaseInstant } from "../../domain/release-time.ts";
import { AppError } from "../../lib/errors.ts";
import { changeBookingPlayers } from "../../lifecycle/booking-records.ts";
import { settleOpenPosts } from "../../attempt/reconcile.ts";
import type { SessionUser } from "../../domain/session-user.ts";
import { readRules } from "../../services/booking-config.service.ts";
import type { BookingView } from "./bookings.schemas.ts";
import { BOOKING_ERRORS, checkSubmission, clubNowOf, fail, findOwnBooking, toBookingView } from "./bookings.service.ts";
import { flightToStoredPlayers, toClubPlayers } from "../../services/club-players.ts";

const UNSETTLED = new AppError(
  504,
  "The club's booking site stopped answering, so Teebox could not tell whether the new booking went through. Your old booking is unchanged; please check your bookings.",
  "bookings.error.edit_unsettled",
);

/** What an edit uses of the app. */
export type EditBookingDeps = Pick<AppDeps, "database" | "clock" | "logger" | "sessions" | "notifier" | "releaseEngine" | "edits" | "slotWatch">;

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
    const changed = await changeBookingPlayers(database.db, booking.id, players);
    deps.notifier.publish(changed.event);
    return toBookingView(changed.booking);
  }

  const rules = await readRules(database.db);
  if (releaseInstant(sub.targetDate, rules.appSettings) > clubNowOf(deps)) throw fail(400, BOOKING_ERRORS.notOpenYet);
  // An earlier edit's post whose outcome nobody heard is settled first: nothing more is posted for
  // the member until the club has been read (decision 084).
  if (!(await settleOpenPosts(async () => session, user.id, [deps.edits.openPosts]))) throw UNSETTLED;
  const outcome = await deps.edits.book(session, { userId: user.id, replaces: booking, playDate: sub.targetDate, courseId: sub.courseId, selection: sub.selectionOrder, players });
  switch (outcome.kind) {
    case "booked":
      deps.notifier.publish(outcome.event);
      return toBookingView(outcome.booking);
    case "no_time":
      throw fail(409, BOOKING_ERRORS.noTimeFree);
    case "failed":
      throw outcome.error ? clubErrorToAppError(outcome.error) : UNSETTLED;
    case "unsettled":
      // The slot watch's next pass reads the club for it (src/attempt/edit.ts).
      deps.slotWatch.wake();
      throw UNSETTLED;
  }
}
