/**
 * The release engine's reads and writes of requests, attempts and bookings. Every change of a
 * request's status is conditional on the status it expects, so the engine, a member's cancel and
 * a restart can never both win.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AppDatabase, Db } from "../../db/client.ts";
import { DEFAULT_UI_TEXT } from "../../domain/ui-text/index.ts";
import { renderReason, type RequestReason } from "../../domain/request-reasons.ts";
import { bookingRequests, bookings, courses, requestAttempts, type RequestStatus } from "../../db/schema.ts";

export type RequestRow = typeof bookingRequests.$inferSelect;
export type AttemptRow = typeof requestAttempts.$inferSelect;

export async function loadRequestsByStatus(db: Db, status: RequestStatus): Promise<RequestRow[]> {
  return db.select().from(bookingRequests).where(eq(bookingRequests.status, status)).orderBy(asc(bookingRequests.releaseAt), asc(bookingRequests.submittedAt), asc(bookingRequests.id));
}

export async function loadPendingAt(db: Db, releaseAt: number): Promise<RequestRow[]> {
  return db
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.status, "pending"), eq(bookingRequests.releaseAt, releaseAt)))
    .orderBy(asc(bookingRequests.submittedAt), asc(bookingRequests.id));
}

/** pending → processing; false when the request is no longer pending (cancelled, edited away). */
export async function markProcessing(db: Db, id: number, now: number): Promise<boolean> {
  const rows = await db
    .update(bookingRequests)
    .set({ status: "processing", updatedAt: now })
    .where(and(eq(bookingRequests.id, id), eq(bookingRequests.status, "pending")))
    .returning({ id: bookingRequests.id });
  return rows.length === 1;
}

export async function recordLateness(db: Db, id: number, latenessMs: number): Promise<void> {
  await db
    .update(bookingRequests)
    .set({ latenessMs })
    .where(and(eq(bookingRequests.id, id), sql`${bookingRequests.latenessMs} IS NULL`));
}

/** Written before the booking post leaves, so a crash mid-post is known on restart. */
export async function recordAttemptSent(
  db: Db,
  attempt: { requestId: number; time: string; slotId: string | null; firedAtClub: number; firedAtLocal: number },
): Promise<number> {
  const rows = await db.insert(requestAttempts).values({ ...attempt, state: "sent" }).returning({ id: requestAttempts.id });
  return rows[0].id;
}

/** The moment a planned attempt actually left (it was written with the planned instant). */
export async function recordAttemptTimes(db: Db, attemptId: number, times: { firedAtClub: number; firedAtLocal: number }): Promise<void> {
  await db.update(requestAttempts).set(times).where(eq(requestAttempts.id, attemptId));
}

export async function recordAttemptAnswer(db: Db, attemptId: number, answer: { outcome: string; answer: string | null; durationMs: number | null }): Promise<void> {
  await db.update(requestAttempts).set({ state: "answered", ...answer }).where(eq(requestAttempts.id, attemptId));
}

export async function loadAttempts(db: Db, requestIds: number[]): Promise<AttemptRow[]> {
  if (requestIds.length === 0) return [];
  return db.select().from(requestAttempts).where(inArray(requestAttempts.requestId, requestIds)).orderBy(asc(requestAttempts.id));
}

/** Settles the attempts a crash left without an answer. */
export async function settleUnansweredAttempts(db: Db, requestId: number, outcome: string, answer: string): Promise<void> {
  await db
    .update(requestAttempts)
    .set({ state: "answered", outcome, answer })
    .where(and(eq(requestAttempts.requestId, requestId), eq(requestAttempts.state, "sent")));
}

/**
 * The request is booked: its status, its attempt and the booking row change together. A booking
 * the sync job already copied from the club (same reference) is linked to the request instead.
 */
export async function confirmRequest(
  database: AppDatabase,
  input: { request: RequestRow; attemptId: number | null; time: string; ref: string; durationMs: number | null; now: number },
): Promise<boolean> {
  return database.transaction(async (tx) => {
    if (input.attemptId !== null) {
      await tx
        .update(requestAttempts)
        .set({ state: "answered", outcome: "confirmed", answer: `Booked, reference ${input.ref}.`, durationMs: input.durationMs })
        .where(eq(requestAttempts.id, input.attemptId));
    }
    const updated = await tx
      .update(bookingRequests)
      .set({ status: "confirmed", bookingRef: input.ref, failureReason: null, updatedAt: input.now })
      .where(and(eq(bookingRequests.id, input.request.id), inArray(bookingRequests.status, ["processing", "pending"])))
      .returning({ id: bookingRequests.id });
    if (updated.length === 0) return false;
    await tx
      .insert(bookings)
      .values({
        userId: input.request.userId,
        bookingRef: input.ref,
        courseId: input.request.courseId,
        playDate: input.request.playDate,
        time: input.time,
        players: input.request.players,
        requestId: input.request.id,
        createdAt: input.now,
      })
      .onConflictDoUpdate({ target: bookings.bookingRef, set: { requestId: input.request.id, players: input.request.players } });
    return true;
  });
}

export async function failRequest(db: Db, id: number, why: RequestReason, now: number): Promise<boolean> {
  const rows = await db
    .update(bookingRequests)
    .set({ status: "failed", failureReason: renderReason(DEFAULT_UI_TEXT[why.key], why.context), updatedAt: now })
    .where(and(eq(bookingRequests.id, id), inArray(bookingRequests.status, ["processing", "pending"])))
    .returning({ id: bookingRequests.id });
  return rows.length === 1;
}

/** Booking references Teebox already holds, so a reconciliation never claims one twice. */
export async function knownBookingRefs(db: Db, refs: string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db.select({ ref: bookings.bookingRef, requestId: bookings.requestId }).from(bookings).where(inArray(bookings.bookingRef, refs));
  return new Set(rows.filter((r) => r.requestId !== null).map((r) => r.ref));
}

export async function courseNameOf(db: Db, courseId: string): Promise<string> {
  const rows = await db.select({ name: courses.name }).from(courses).where(eq(courses.id, courseId)).limit(1);
  return rows[0]?.name ?? courseId;
}
