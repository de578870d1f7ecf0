/**
 * The one owner of an edit's booking posts (table edit_attempts, decision 175). An edit that moves
 * a confirmed booking books the new slot first: each post is written 'sent' before it leaves, so a
 * crash mid-post is found on the next start, and 'answered' once the club's answer, or a read of
 * the member's club bookings, says what became of it (src/attempt/edit.ts). Booked, the new booking
 * row is written with the attempt, in one transaction, and the edit it completes is the event returned.
 */
import { and, asc, eq } from "drizzle-orm";
import type { AppDatabase, Db } from "../db/client.ts";
import { bookings, editAttempts, type StoredPlayer } from "../db/schema.ts";
import type { DomainEventOf } from "../domain/events.ts";
import type { RequestReason } from "../domain/request-reasons.ts";
import { BOOKING_KEY, type BookingRow } from "./booking-records.ts";

export type EditAttemptRow = typeof editAttempts.$inferSelect;

/** Written before the post leaves. */
export async function recordEditAttemptSent(
  db: Db,
  attempt: { userId: number; replacesRef: string; courseId: string; playDate: string; time: string; slotId: string | null; players: StoredPlayer[]; sentAt: number },
): Promise<number> {
  const rows = await db
    .insert(editAttempts)
    .values({ ...attempt, state: "sent" })
    .returning({ id: editAttempts.id });
  return rows[0].id;
}

/** What the club answered (a post that booked nothing), or what a read of the club showed. */
export async function recordEditAttemptAnswer(db: Db, attemptId: number, answer: { outcome: string; reason: RequestReason; durationMs: number | null }): Promise<void> {
  await db
    .update(editAttempts)
    .set({ state: "answered", outcome: answer.outcome, answerKey: answer.reason.key, answerContext: answer.reason.context, durationMs: answer.durationMs })
    .where(eq(editAttempts.id, attemptId));
}

/**
 * The post booked: the attempt and the new booking row (with the edit's players) change together. A
 * row the sync already copied from the club under that reference takes the edit's players.
 */
export async function recordEditBooked(
  database: AppDatabase,
  input: { attemptId: number; ref: string; time: string; durationMs: number | null; now: number },
): Promise<{ booking: BookingRow; event: DomainEventOf<"booking_edited"> } | null> {
  return database.transaction(async (tx) => {
    const [attempt] = await tx.select().from(editAttempts).where(eq(editAttempts.id, input.attemptId));
    if (!attempt) return null;
    await tx
      .update(editAttempts)
      .set({ state: "answered", outcome: "confirmed", bookingRef: input.ref, answerKey: "bookings.reason.booked", answerContext: { ref: input.ref }, durationMs: input.durationMs })
      .where(eq(editAttempts.id, input.attemptId));
    const [row] = await tx
      .insert(bookings)
      .values({
        userId: attempt.userId,
        bookingRef: input.ref,
        courseId: attempt.courseId,
        playDate: attempt.playDate,
        time: input.time,
        players: attempt.players,
        requestId: null,
        createdAt: input.now,
      })
      .onConflictDoUpdate({ target: BOOKING_KEY, set: { players: attempt.players } })
      .returning();
    return { booking: row, event: { type: "booking_edited", userId: row.userId, ref: row.bookingRef } };
  });
}

/** The member's posts still 'sent': in flight, or left by a stop or crash before their answer came. */
export async function sentEditAttemptsOf(db: Db, userId: number): Promise<EditAttemptRow[]> {
  return db
    .select()
    .from(editAttempts)
    .where(and(eq(editAttempts.userId, userId), eq(editAttempts.state, "sent")))
    .orderBy(asc(editAttempts.id));
}

/** Members with a post still 'sent'. */
export async function membersWithSentEditAttempts(db: Db): Promise<number[]> {
  const rows = await db.selectDistinct({ userId: editAttempts.userId }).from(editAttempts).where(eq(editAttempts.state, "sent"));
  return rows.map((r) => r.userId);
}
