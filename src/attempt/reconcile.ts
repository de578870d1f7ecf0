/**
 * The one rule for every path that posts a booking to the club: after a post without a readable
 * answer, nothing more is posted for the member until their club bookings have been read.
 * Here is that read: is there a booking at the club that Teebox does not hold yet?
 */
import type { MemberClubSession } from "../club/client.ts";

export interface WantedBooking {
  playDate: string;
  courseId: string;
  /** Only the times posted for can hold a booking Teebox does not know of. */
  times: readonly string[];
}

export type ReconcileResult = { ref: string; time: string } | null | "unreadable";

/**
 * A booking of the member at the club for that date, course and one of the times, whose reference
 * is not already taken by another of Teebox's bookings; "unreadable" when the club cannot be read.
 */
export async function findBookedAtClub(
  session: Pick<MemberClubSession, "fetchMyBookings">,
  wanted: WantedBooking,
  takenRefs: (refs: string[]) => Promise<Set<string>>,
): Promise<ReconcileResult> {
  let clubBookings;
  try {
    clubBookings = await session.fetchMyBookings();
  } catch {
    return "unreadable";
  }
  const candidates = clubBookings.filter((b) => b.date === wanted.playDate && b.course === wanted.courseId && wanted.times.includes(b.time));
  const taken = await takenRefs(candidates.map((b) => b.ref));
  const match = candidates.find((b) => !taken.has(b.ref));
  return match ? { ref: match.ref, time: match.time } : null;
}
