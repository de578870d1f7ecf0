/**
 * The one owner of a slot watch's life, beside the request lifecycle. Every change of a watch's
 * status is a conditional write named in WATCH_TRANSITIONS, so the watch job, the member's cancel
 * and the end of its date can never both win:
 *
 *   watching ──► booked    (a freed slot was booked; the booking row is written with it)
 *   watching ──► found     ("tell me only": a freed slot was seen)
 *   watching ──► ended     (the date passed, the member cancelled, the club refused the login)
 *
 * A post is recorded 'sent' before it leaves and answered after; while a member has a 'sent'
 * attempt, nothing more is posted for them until their club bookings have been read.
 *
 * Each transition returns the event it implies (src/domain/events.ts), or null when it moved
 * nothing: its caller hands that to the notifier as it is.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AppDatabase, Db } from "../db/client.ts";
import { bookings, slotWatches, watchAttempts, type WatchStatus } from "../db/schema.ts";
import type { DomainEventOf } from "../domain/events.ts";
import type { WatchReason } from "../domain/watches.ts";
import { partnersToTellOf, cancelInvitationsOf } from "./invitation-lifecycle.ts";

export type WatchRow = typeof slotWatches.$inferSelect;
export type WatchAttemptRow = typeof watchAttempts.$inferSelect;

export const WATCH_TRANSITIONS = {
  book: { from: ["watching"], to: "booked" },
  find: { from: ["watching"], to: "found" },
  end: { from: ["watching"], to: "ended" },
} as const satisfies Record<string, { from: readonly WatchStatus[]; to: WatchStatus }>;

/** Moves a watch along one transition; what it moved (null: it was not in a state the transition leaves). */
async function transition(
  db: Db,
  id: number,
  name: keyof typeof WATCH_TRANSITIONS,
  set: Partial<typeof slotWatches.$inferInsert>,
  now: number,
  userId?: number,
): Promise<{ userId: number; playDate: string } | null> {
  const { from, to } = WATCH_TRANSITIONS[name];
  const conditions = [eq(slotWatches.id, id), inArray(slotWatches.status, [...from])];
  if (userId !== undefined) conditions.push(eq(slotWatches.userId, userId));
  const rows = await db
    .update(slotWatches)
    .set({ ...set, status: to, updatedAt: now })
    .where(and(...conditions))
    .returning({ userId: slotWatches.userId, playDate: slotWatches.playDate });
  return rows[0] ?? null;
}

/** A watch that ended takes its partners' invitations with it. */
async function ended(db: Db, id: number, moved: { userId: number } | null, now: number): Promise<DomainEventOf<"watch_ended"> | null> {
  if (!moved) return null;
  return { type: "watch_ended", userId: moved.userId, watchId: id, partners: await cancelInvitationsOf(db, { kind: "watch", id }, now) };
}

const reasonColumns = (why: WatchReason) => ({ reasonKey: why.key, reasonContext: why.context });

export async function insertWatch(db: Db, row: Omit<typeof slotWatches.$inferInsert, "id" | "status">): Promise<{ watch: WatchRow; event: DomainEventOf<"watch_made"> }> {
  const [stored] = await db
    .insert(slotWatches)
    .values({ ...row, status: "watching" })
    .returning();
  return { watch: stored, event: { type: "watch_made", userId: stored.userId, watchId: stored.id } };
}

/** The member cancels their own watch; null when it is not theirs or no longer watching. */
export const cancelOwnWatch = async (db: Db, userId: number, id: number, now: number) =>
  ended(db, id, await transition(db, id, "end", reasonColumns({ key: "watches.reason.cancelled", context: {} }), now, userId), now);

export const endWatch = async (db: Db, id: number, why: WatchReason, now: number) => ended(db, id, await transition(db, id, "end", reasonColumns(why), now), now);

/** "Tell me only": what was found is kept on the watch, and it stops. */
export async function markWatchFound(db: Db, id: number, found: { courseId: string; time: string; courseName: string }, now: number): Promise<DomainEventOf<"watch_found"> | null> {
  const moved = await transition(
    db,
    id,
    "find",
    { foundCourseId: found.courseId, foundTime: found.time, ...reasonColumns({ key: "watches.reason.found", context: { course: found.courseName, time: found.time } }) },
    now,
  );
  return moved ? { type: "watch_found", userId: moved.userId, watchId: id, course: found.courseName, date: moved.playDate, time: found.time } : null;
}

/**
 * The watch booked a slot: its attempt, its status and the booking row change together. A booking
 * the sync already copied from the club (same reference) is kept as it is.
 */
export async function markWatchBooked(
  database: AppDatabase,
  input: { watch: WatchRow; attemptId: number | null; courseId: string; courseName: string; time: string; ref: string; durationMs: number | null; now: number },
): Promise<DomainEventOf<"watch_booked"> | null> {
  return database.transaction(async (tx) => {
    if (input.attemptId !== null) {
      await tx
        .update(watchAttempts)
        .set({
          state: "answered",
          outcome: "confirmed",
          answerKey: "watches.reason.booked",
          answerContext: { course: input.courseName, time: input.time, ref: input.ref },
          durationMs: input.durationMs,
        })
        .where(eq(watchAttempts.id, input.attemptId));
    }
    const moved = await transition(
      tx,
      input.watch.id,
      "book",
      {
        bookingRef: input.ref,
        foundCourseId: input.courseId,
        foundTime: input.time,
        ...reasonColumns({ key: "watches.reason.booked", context: { course: input.courseName, time: input.time, ref: input.ref } }),
      },
      input.now,
    );
    if (!moved) return null;
    await tx
      .insert(bookings)
      .values({
        userId: input.watch.userId,
        bookingRef: input.ref,
        courseId: input.courseId,
        playDate: input.watch.playDate,
        time: input.time,
        players: input.watch.players,
        requestId: null,
        createdAt: input.now,
      })
      .onConflictDoNothing();
    const partners = await partnersToTellOf(tx, { kind: "watch", id: input.watch.id }, input.watch.userId);
    return {
      type: "watch_booked",
      userId: input.watch.userId,
      watchId: input.watch.id,
      course: input.courseName,
      date: input.watch.playDate,
      time: input.time,
      ref: input.ref,
      partners,
    };
  });
}

export async function loadActiveWatches(db: Db): Promise<WatchRow[]> {
  return db.select().from(slotWatches).where(eq(slotWatches.status, "watching")).orderBy(asc(slotWatches.createdAt), asc(slotWatches.id));
}

export async function watchesOf(db: Db, userId: number): Promise<WatchRow[]> {
  return db.select().from(slotWatches).where(eq(slotWatches.userId, userId)).orderBy(asc(slotWatches.playDate), asc(slotWatches.id));
}

/** The member's watch that booked `bookingRef` (a booking Teebox made when a slot came free), if any. */
export async function findWatchOfBooking(db: Db, userId: number, bookingRef: string): Promise<WatchRow | null> {
  const rows = await db
    .select()
    .from(slotWatches)
    .where(and(eq(slotWatches.userId, userId), eq(slotWatches.bookingRef, bookingRef)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findWatch(db: Db, id: number): Promise<WatchRow | null> {
  const rows = await db.select().from(slotWatches).where(eq(slotWatches.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function countActiveWatches(db: Db, userId?: number): Promise<number> {
  const conditions = [eq(slotWatches.status, "watching")];
  if (userId !== undefined) conditions.push(eq(slotWatches.userId, userId));
  const rows = await db
    .select({ count: sql<number>`count(*)` })
    .from(slotWatches)
    .where(and(...conditions));
  return Number(rows[0]?.count ?? 0);
}

/** Written before the post leaves, so a crash mid-post is reconciled on the next start. */
export async function recordWatchAttemptSent(
  db: Db,
  attempt: { watchId: number; userId: number; courseId: string; time: string; slotId: string | null; sentAt: number },
): Promise<number> {
  const rows = await db
    .insert(watchAttempts)
    .values({ ...attempt, state: "sent" })
    .returning({ id: watchAttempts.id });
  return rows[0].id;
}

export async function recordWatchAttemptAnswer(
  db: Db,
  attemptId: number,
  answer: { outcome: string; key: string; context: Record<string, string>; durationMs: number | null },
): Promise<void> {
  await db
    .update(watchAttempts)
    .set({ state: "answered", outcome: answer.outcome, answerKey: answer.key, answerContext: answer.context, durationMs: answer.durationMs })
    .where(eq(watchAttempts.id, attemptId));
}

/** The member's posts that left without an answer (at most a few; nothing is posted while one exists). */
export async function unansweredAttemptsOf(db: Db, userId: number): Promise<WatchAttemptRow[]> {
  return db
    .select()
    .from(watchAttempts)
    .where(and(eq(watchAttempts.userId, userId), eq(watchAttempts.state, "sent")))
    .orderBy(asc(watchAttempts.id));
}

/** Members with a post still unanswered (a restart reconciles them before posting). */
export async function membersWithUnansweredAttempts(db: Db): Promise<number[]> {
  const rows = await db.selectDistinct({ userId: watchAttempts.userId }).from(watchAttempts).where(eq(watchAttempts.state, "sent"));
  return rows.map((r) => r.userId);
}

/** The club read showed no booking for the member's unanswered posts: they booked nothing. */
export async function settleUnansweredWatchAttempts(db: Db, attemptIds: number[]): Promise<void> {
  if (attemptIds.length === 0) return;
  await db
    .update(watchAttempts)
    .set({ state: "answered", outcome: "not_booked", answerKey: "bookings.reason.restart_no_answer", answerContext: {} })
    .where(and(inArray(watchAttempts.id, attemptIds), eq(watchAttempts.state, "sent")));
}

export async function attemptsOfWatches(db: Db, watchIds: number[]): Promise<WatchAttemptRow[]> {
  if (watchIds.length === 0) return [];
  return db.select().from(watchAttempts).where(inArray(watchAttempts.watchId, watchIds)).orderBy(asc(watchAttempts.id));
}

/** The member's booking references Teebox holds for a request or a watch, so a reconcile never claims one twice. */
export async function claimedBookingRefs(db: Db, userId: number, refs: string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const byRequest = await db
    .select({ ref: bookings.bookingRef, requestId: bookings.requestId })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), inArray(bookings.bookingRef, refs)));
  const byWatch = await db
    .select({ ref: slotWatches.bookingRef })
    .from(slotWatches)
    .where(and(eq(slotWatches.userId, userId), inArray(slotWatches.bookingRef, refs)));
  return new Set([...byRequest.filter((r) => r.requestId !== null).map((r) => r.ref), ...byWatch.flatMap((r) => (r.ref ? [r.ref] : []))]);
}
