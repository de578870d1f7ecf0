/**
 * The one rule for every path that posts a booking to the club: after a post without a readable
 * answer, nothing more is posted for the member until their club bookings have been read.
 * Here is that read: is there a booking at the club that Teebox does not hold yet? A run that
 * posted reads it at once (src/attempt/attempt.ts); posts left open by a crash, or by a caller that
 * reads later, are settled here by `settleOpenPosts`, once per member, before they post again.
 */
import type { MemberClubSession } from "../club/client.ts";
import type { ClubBooking } from "../club/records.ts";

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

/** A post whose outcome nobody heard (a crash, a club that stopped answering), left 'sent' by its kind, with how to settle it. */
export interface OpenPost {
  playDate: string;
  courseId: string;
  time: string;
  /** The club holds the booking the post asked for. */
  booked(found: { ref: string; time: string }, session: MemberClubSession): Promise<void>;
  /** The club holds none: the post booked nothing. */
  notBooked(): Promise<void>;
}

/**
 * A kind of attempt whose unknown outcomes are settled by a later read rather than by the run that
 * posted (a watch's, whose next pass is its retry; an edit's, whose member has had their answer).
 */
export interface OpenPostKind {
  /** The member's posts of this kind whose outcome is not known. */
  openPosts(userId: number): Promise<OpenPost[]>;
  /** Members with such posts. */
  members(): Promise<number[]>;
  /** Of these club references, the ones Teebox already holds for something else. */
  takenRefs(userId: number, refs: string[]): Promise<Set<string>>;
}

/** Members with a post of any of these kinds left open. */
export async function membersWithOpenPosts(kinds: readonly OpenPostKind[]): Promise<number[]> {
  const lists = await Promise.all(kinds.map((kind) => kind.members()));
  return [...new Set(lists.flat())];
}

/**
 * Reads the member's club bookings once and settles every post of these kinds they left open. True
 * when the member may post again (nothing was open, or the club showed what became of each); false
 * when the club could not be read (nothing more is posted for them until it can be).
 */
export async function settleOpenPosts(openSession: () => Promise<MemberClubSession>, userId: number, kinds: readonly OpenPostKind[]): Promise<boolean> {
  const open = await Promise.all(kinds.map(async (kind) => ({ kind, posts: await kind.openPosts(userId) })));
  if (open.every((k) => k.posts.length === 0)) return true;
  let session: MemberClubSession;
  let atClub: ClubBooking[];
  try {
    session = await openSession();
    atClub = await session.fetchMyBookings();
  } catch {
    return false;
  }
  for (const { kind, posts } of open) {
    for (const post of posts) {
      const found = await findBookedAtClub({ fetchMyBookings: async () => atClub }, { playDate: post.playDate, courseId: post.courseId, times: [post.time] }, (refs) =>
        kind.takenRefs(userId, refs),
      );
      if (found && found !== "unreadable") await post.booked(found, session);
      else await post.notBooked();
    }
  }
  return true;
}
