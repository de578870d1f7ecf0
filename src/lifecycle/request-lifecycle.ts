/**
 * The one owner of a booking request's life and of the bookings it makes. Every change of a
 * request's status is written here, conditional on the status it expects (TRANSITIONS), so the
 * engine, a member's cancel, an admin's change and a restart can never both win.
 *
 *   pending ──► processing ──► confirmed | failed      (the release engine)
 *   pending ◄─► held ──► failed                        (the member disabled; enabled again before the release)
 *   pending | held | failed ──► cancelled | pending     (the member cancels or edits)
 *   processing ──► needs_attention ──► confirmed | cancelled | pending   (Teebox could not tell whether a post
 *                                       booked; the bookings sync confirms it once the club lists the booking)
 *   pending ──► needs_attention ──► pending | failed      (the readiness check; failed at the release if still so)
 *   needs_attention ──► cancelled | pending                (the member cancels or edits it)
 *   pending | held | needs_attention ──► cancelled | pending  (its standing request ends or changes)
 *
 * While processing, a request may be in a phase (decision 116, column `phase`): 'waiting_for_club'
 * while the club does not answer, 'checking_with_club' while a post's outcome is unknown and the
 * member's club bookings are read to settle it. Observers of the status keep seeing processing;
 * the member's page shows the phase as its status text. A post's outcome is never written as a
 * failure while unknown: once the club cannot be read for the whole retry window the request needs
 * attention (decision 117), and nothing more is posted for it.
 *
 * Each transition returns the event it implies (src/domain/events.ts), or null when it moved
 * nothing: its caller hands that to the notifier as it is, so what a change tells members is
 * decided here, beside the change.
 */
import { and, asc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import type { AppDatabase, Db } from "../db/client.ts";
import { preparedQuery, settable } from "../db/prepared.ts";
import { DEFAULT_UI_TEXT } from "../domain/ui-text/index.ts";
import { renderReason, type RequestReason } from "../domain/request-reasons.ts";
import type { DomainEventOf } from "../domain/events.ts";
import { bookingRequests, bookings, requestAttempts, users, type RequestPhase, type RequestStatus } from "../db/schema.ts";
import { BOOKING_KEY, courseNameOf } from "./booking-records.ts";
import { partnersToTellOf, cancelInvitationsOf } from "./invitation-lifecycle.ts";

export type RequestRow = typeof bookingRequests.$inferSelect;

/** Every allowed change of status, from → to. A write outside this table is a bug. */
export const TRANSITIONS = {
  arm: { from: ["pending"], to: "processing" },
  hold: { from: ["pending"], to: "held" },
  unhold: { from: ["held"], to: "pending" },
  confirm: { from: ["processing", "pending", "needs_attention"], to: "confirmed" },
  fail: { from: ["processing", "pending", "held", "needs_attention"], to: "failed" },
  unsure: { from: ["processing"], to: "needs_attention" },
  cancel: { from: ["pending", "failed", "held", "needs_attention"], to: "cancelled" },
  resubmit: { from: ["pending", "failed", "held", "needs_attention"], to: "pending" },
  flag: { from: ["pending"], to: "needs_attention" },
  clear: { from: ["needs_attention"], to: "pending" },
  withdraw: { from: ["pending", "held", "needs_attention"], to: "cancelled" },
  revise: { from: ["pending", "held", "needs_attention"], to: "pending" },
} as const satisfies Record<string, { from: readonly RequestStatus[]; to: RequestStatus }>;

const reasonColumns = (why: RequestReason | null) =>
  why === null
    ? { failureReason: null, reasonKey: null, reasonContext: null }
    : { failureReason: renderReason(DEFAULT_UI_TEXT[why.key], why.context), reasonKey: why.key, reasonContext: why.context };

const bookedAnswer = (ref: string) => {
  const context = { ref };
  return { answer: renderReason(DEFAULT_UI_TEXT["bookings.reason.booked"], context), answerKey: "bookings.reason.booked", answerContext: context };
};

/** What a transition tells of the request it moved: enough for the event it implies. */
const MOVED = {
  id: bookingRequests.id,
  userId: bookingRequests.userId,
  courseId: bookingRequests.courseId,
  playDate: bookingRequests.playDate,
  submittedAt: bookingRequests.submittedAt,
};
type Moved = { id: number; userId: number; courseId: string; playDate: string; submittedAt: number };

/** Moves a request along one transition; null when it was not in a state the transition leaves. */
async function transition(
  db: Db,
  id: number,
  name: keyof typeof TRANSITIONS,
  set: Partial<typeof bookingRequests.$inferInsert>,
  now: number,
  userId?: number,
): Promise<Moved | null> {
  const { from, to } = TRANSITIONS[name];
  const conditions = [eq(bookingRequests.id, id), inArray(bookingRequests.status, [...from])];
  if (userId !== undefined) conditions.push(eq(bookingRequests.userId, userId));
  const rows = await db
    .update(bookingRequests)
    .set({ ...set, status: to, phase: null, updatedAt: now })
    .where(and(...conditions))
    .returning(MOVED);
  return rows[0] ?? null;
}

/** The member sees the request changed; nothing else to tell. */
const requestChanged = (moved: Moved | null): DomainEventOf<"request_changed"> | null => (moved ? { type: "request_changed", userId: moved.userId, requestId: moved.id } : null);

async function needsAttention(db: Db, moved: Moved | null, why: RequestReason): Promise<DomainEventOf<"needs_attention"> | null> {
  if (!moved) return null;
  return {
    type: "needs_attention",
    userId: moved.userId,
    requestId: moved.id,
    submittedAt: moved.submittedAt,
    course: await courseNameOf(db, moved.courseId),
    date: moved.playDate,
    reason: why,
  };
}

/** pending → held: the member is disabled; nothing is sent to the club for it. */
export const holdRequest = async (db: Db, id: number, now: number) =>
  requestChanged(await transition(db, id, "hold", reasonColumns({ key: "bookings.reason.member_held", context: {} }), now));
/** held → pending: the member was enabled again before the release. */
export const unholdRequest = async (db: Db, id: number, now: number) => requestChanged(await transition(db, id, "unhold", reasonColumns(null), now));
/** pending → needs_attention: the readiness check found a problem (the reason says which). */
export const flagRequest = async (db: Db, id: number, why: RequestReason, now: number) => needsAttention(db, await transition(db, id, "flag", reasonColumns(why), now), why);
/** needs_attention → pending: a later check found the problem gone. */
export const clearAttention = async (db: Db, id: number, now: number) => requestChanged(await transition(db, id, "clear", reasonColumns(null), now));
/** A member cancels their own pending, held or failed request. */
export async function cancelOwnRequest(db: Db, userId: number, id: number, now: number): Promise<DomainEventOf<"request_cancelled"> | null> {
  const moved = await transition(db, id, "cancel", {}, now, userId);
  return moved ? { type: "request_cancelled", userId, requestId: id, partners: await cancelInvitationsOf(db, { kind: "request", id }, now) } : null;
}

/** An occurrence's request whose series ended or no longer plays that date; a released one is left alone. */
export async function withdrawRequest(db: Db, id: number, now: number): Promise<DomainEventOf<"request_cancelled"> | null> {
  const moved = await transition(db, id, "withdraw", {}, now);
  return moved ? { type: "request_cancelled", userId: moved.userId, requestId: moved.id, partners: await cancelInvitationsOf(db, { kind: "request", id }, now) } : null;
}

/** An occurrence's request follows its changed series; it keeps its place in line (its submittedAt). */
export async function reviseRequest(db: Db, id: number, fields: Partial<typeof bookingRequests.$inferInsert>, now: number): Promise<DomainEventOf<"request_changed"> | null> {
  const moved = await transition(db, id, "revise", { ...fields, ...reasonColumns(null), bookingRef: null, latenessMs: null }, now);
  if (!moved) return null;
  await db.delete(requestAttempts).where(eq(requestAttempts.requestId, id));
  return requestChanged(moved);
}

/** A request stored by its member. */
export async function insertRequest(db: Db, row: typeof bookingRequests.$inferInsert): Promise<DomainEventOf<"request_submitted">> {
  const rows = await db
    .insert(bookingRequests)
    .values({ ...row, status: "pending" })
    .returning({ id: bookingRequests.id });
  return { type: "request_submitted", userId: row.userId, requestId: rows[0].id };
}

/** An edit of a request (their own pending, held or failed one) starts it afresh: its attempts go, its fields and status are replaced. */
export async function resubmitRequest(
  db: Db,
  userId: number,
  id: number,
  fields: Partial<typeof bookingRequests.$inferInsert>,
  now: number,
): Promise<DomainEventOf<"request_submitted"> | null> {
  const moved = await transition(
    db,
    id,
    "resubmit",
    { ...fields, ...reasonColumns(null), bookingRef: null, latenessMs: null, clockOffsetMs: null, clockUncertaintyMs: null },
    now,
    userId,
  );
  if (!moved) return null;
  await db.delete(requestAttempts).where(eq(requestAttempts.requestId, id));
  return { type: "request_submitted", userId, requestId: id };
}

/** An admin moved the release time: a waiting request follows it. */
export async function moveReleaseInstant(db: Db, id: number, releaseAt: number, now: number): Promise<boolean> {
  const rows = await db
    .update(bookingRequests)
    .set({ releaseAt, updatedAt: now })
    .where(and(eq(bookingRequests.id, id), inArray(bookingRequests.status, ["pending", "held"])))
    .returning({ id: bookingRequests.id });
  return rows.length === 1;
}

export async function statusOf(db: Db, userId: number, id: number): Promise<RequestStatus | null> {
  const rows = await db
    .select({ status: bookingRequests.status })
    .from(bookingRequests)
    .where(and(eq(bookingRequests.id, id), eq(bookingRequests.userId, userId)));
  return rows[0]?.status ?? null;
}
export type AttemptRow = typeof requestAttempts.$inferSelect;

export async function loadRequestsByStatus(db: Db, status: RequestStatus): Promise<RequestRow[]> {
  return db
    .select()
    .from(bookingRequests)
    .where(eq(bookingRequests.status, status))
    .orderBy(asc(bookingRequests.releaseAt), asc(bookingRequests.submittedAt), asc(bookingRequests.id));
}

/**
 * How far from a release instant (either side) housekeeping keeps away: the retention pass, the
 * bookings sync's rounds and the memory keeper's collections all wait, as they do while a request
 * is processed. A quarter of an hour covers the engine's preparation (90 s ahead), its last sign-ins
 * and the retries of a club that opens late, with the club's request budget left to the release.
 */
export const RELEASE_GUARD_MS = 15 * 60_000;

/** Whether a release is under way or due within `guardMs` of now (either side): housekeeping waits. */
export async function isReleaseNear(db: Db, now: number, guardMs = RELEASE_GUARD_MS): Promise<boolean> {
  const [row] = await db
    .select({ id: bookingRequests.id })
    .from(bookingRequests)
    .where(
      or(
        eq(bookingRequests.status, "processing"),
        and(inArray(bookingRequests.status, ["pending", "held", "needs_attention"]), gte(bookingRequests.releaseAt, now - guardMs), lte(bookingRequests.releaseAt, now + guardMs)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The newest release instant at or before `now` that settled requests (confirmed or failed), if any. */
export async function lastReleaseSettled(db: Db, now: number): Promise<number | null> {
  const [row] = await db
    .select({ releaseAt: sql<number | null>`max(${bookingRequests.releaseAt})` })
    .from(bookingRequests)
    .where(and(inArray(bookingRequests.status, ["confirmed", "failed"]), lte(bookingRequests.releaseAt, now)));
  return row?.releaseAt ?? null;
}

/** The earliest release instant of a waiting request due between now and `withinMs` from now, if any. */
export async function nextReleaseWithin(db: Db, now: number, withinMs: number): Promise<number | null> {
  const [row] = await db
    .select({ releaseAt: bookingRequests.releaseAt })
    .from(bookingRequests)
    .where(and(eq(bookingRequests.status, "pending"), gte(bookingRequests.releaseAt, now), lte(bookingRequests.releaseAt, now + withinMs)))
    .orderBy(asc(bookingRequests.releaseAt))
    .limit(1);
  return row?.releaseAt ?? null;
}

export async function loadPendingAt(db: Db, releaseAt: number): Promise<RequestRow[]> {
  return db
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.status, "pending"), eq(bookingRequests.releaseAt, releaseAt)))
    .orderBy(asc(bookingRequests.submittedAt), asc(bookingRequests.id));
}

/**
 * pending → processing; false when the request is no longer pending (cancelled, edited away). The
 * club clock's offset measured for this release stays with the request for its story (null: the
 * club's clock could not be read, so ours was used). It implies nothing to tell: the member's page
 * shows the request's first phase or its outcome, moments later; a message per member at the
 * instant itself would bring every open page's reload into the release's first second.
 */
export const markProcessing = async (db: Db, id: number, now: number, clock: { offsetMs: number; uncertaintyMs: number } | null = null) =>
  (await transition(db, id, "arm", { clockOffsetMs: clock ? Math.round(clock.offsetMs) : null, clockUncertaintyMs: clock ? Math.round(clock.uncertaintyMs) : null }, now)) !== null;

/*
 * A post's bookkeeping, prepared once (decision 205): a 1,000-member release's first wave writes
 * each of these for every post within a few milliseconds, while members' reads wait.
 */
const firstLateness = preparedQuery((db) =>
  db
    .update(bookingRequests)
    .set({ latenessMs: settable<number>("latenessMs") })
    .where(and(eq(bookingRequests.id, sql.placeholder("id")), sql`${bookingRequests.latenessMs} IS NULL`))
    .prepare(),
);
const attemptTimes = preparedQuery((db) =>
  db
    .update(requestAttempts)
    .set({ firedAtClub: settable<number>("firedAtClub"), firedAtLocal: settable<number>("firedAtLocal") })
    .where(eq(requestAttempts.id, sql.placeholder("attemptId")))
    .prepare(),
);
const attemptAnswer = preparedQuery((db) =>
  db
    .update(requestAttempts)
    .set({
      state: "answered",
      outcome: settable<string>("outcome"),
      answer: settable<string>("answer"),
      answerKey: settable<string>("answerKey"),
      answerContext: settable<Record<string, string>>("answerContext"),
      durationMs: settable<number | null>("durationMs"),
    })
    .where(eq(requestAttempts.id, sql.placeholder("attemptId")))
    .prepare(),
);

export async function recordLateness(db: Db, id: number, latenessMs: number): Promise<void> {
  await firstLateness(db).run({ id, latenessMs });
}

/** Written before the booking post leaves, so a crash mid-post is known on restart. */
export async function recordAttemptSent(db: Db, attempt: { requestId: number; time: string; slotId: string | null; firedAtClub: number; firedAtLocal: number }): Promise<number> {
  const rows = await db
    .insert(requestAttempts)
    .values({ ...attempt, state: "sent" })
    .returning({ id: requestAttempts.id });
  return rows[0].id;
}

/** The moment a planned attempt actually left (it was written with the planned instant). */
export async function recordAttemptTimes(db: Db, attemptId: number, times: { firedAtClub: number; firedAtLocal: number }): Promise<void> {
  await attemptTimes(db).run({ attemptId, ...times });
}

/**
 * The club's answer to an attempt: its outcome (the club failure's kind), the words it came
 * with, and the reason key the member's page renders from the editable UI text.
 */
export async function recordAttemptAnswer(db: Db, attemptId: number, answer: { outcome: string; answer: string; reason: RequestReason; durationMs: number | null }): Promise<void> {
  await attemptAnswer(db).run({
    attemptId,
    outcome: answer.outcome,
    answer: answer.answer,
    answerKey: answer.reason.key,
    answerContext: answer.reason.context,
    durationMs: answer.durationMs,
  });
}

export async function loadAttempts(db: Db, requestIds: number[]): Promise<AttemptRow[]> {
  if (requestIds.length === 0) return [];
  return db.select().from(requestAttempts).where(inArray(requestAttempts.requestId, requestIds)).orderBy(asc(requestAttempts.id));
}

/** Settles the attempts a crash left without an answer. */
export async function settleUnansweredAttempts(db: Db, requestId: number, outcome: string, why: RequestReason): Promise<void> {
  await db
    .update(requestAttempts)
    .set({ state: "answered", outcome, answer: renderReason(DEFAULT_UI_TEXT[why.key], why.context), answerKey: why.key, answerContext: why.context })
    .where(and(eq(requestAttempts.requestId, requestId), eq(requestAttempts.state, "sent")));
}

/**
 * The request is booked: its status, its attempt and the booking row change together. A booking
 * the sync job already copied from the club (same reference) is linked to the request instead.
 */
export async function confirmRequest(
  database: AppDatabase,
  input: { request: RequestRow; attemptId: number | null; time: string; ref: string; durationMs: number | null; now: number },
): Promise<DomainEventOf<"booking_confirmed"> | null> {
  const isNew = await database.transaction(async (tx) => {
    if (input.attemptId !== null) {
      await tx
        .update(requestAttempts)
        .set({ state: "answered", outcome: "confirmed", ...bookedAnswer(input.ref), durationMs: input.durationMs })
        .where(eq(requestAttempts.id, input.attemptId));
    }
    const updated = await tx
      .update(bookingRequests)
      .set({ status: TRANSITIONS.confirm.to, phase: null, bookingRef: input.ref, ...reasonColumns(null), updatedAt: input.now })
      .where(and(eq(bookingRequests.id, input.request.id), inArray(bookingRequests.status, [...TRANSITIONS.confirm.from])))
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
      // The member's own row under that reference (one the sync copied): never another member's.
      .onConflictDoUpdate({ target: BOOKING_KEY, set: { requestId: input.request.id, players: input.request.players } });
    return true;
  });
  if (!isNew) return null;
  const { request } = input;
  return {
    type: "booking_confirmed",
    userId: request.userId,
    course: await courseNameOf(database.db, request.courseId),
    date: request.playDate,
    time: input.time,
    ref: input.ref,
    requestId: request.id,
    partners: await partnersToTellOf(database.db, { kind: "request", id: request.id }, request.userId),
  };
}

/**
 * The fail transition, prepared once (decision 205): a 1,000-member release fails most of its
 * requests within its first second, and building the update's SQL cost three times running it.
 */
const failOne = preparedQuery((db) =>
  db
    .update(bookingRequests)
    .set({
      status: TRANSITIONS.fail.to,
      phase: null,
      failureReason: settable<string>("failureReason"),
      reasonKey: settable<string>("reasonKey"),
      reasonContext: settable<Record<string, string>>("reasonContext"),
      updatedAt: settable<number>("updatedAt"),
    })
    .where(and(eq(bookingRequests.id, sql.placeholder("id")), inArray(bookingRequests.status, [...TRANSITIONS.fail.from])))
    .returning(MOVED)
    .prepare(),
);

/** → failed (from processing, pending, held or needing attention), with the reason. */
export async function failRequest(db: Db, id: number, why: RequestReason, now: number): Promise<DomainEventOf<"request_failed"> | null> {
  const [moved] = await failOne(db).all({ id, ...reasonColumns(why), updatedAt: now });
  if (!moved) return null;
  return {
    type: "request_failed",
    userId: moved.userId,
    requestId: moved.id,
    submittedAt: moved.submittedAt,
    course: await courseNameOf(db, moved.courseId),
    date: moved.playDate,
    reason: why,
  };
}

/** processing → needs_attention: a post's outcome stayed unknown for the whole retry window. */
export const markUnsure = async (db: Db, id: number, why: RequestReason, now: number) => needsAttention(db, await transition(db, id, "unsure", reasonColumns(why), now), why);

/**
 * Requests that need attention because Teebox could not tell whether the club booked them, each
 * with the times it posted for: the bookings sync confirms one once the club lists the booking.
 */
export async function unsureRequestsOf(db: Db, userId: number): Promise<{ request: RequestRow; times: string[] }[]> {
  const rows = await db
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.userId, userId), eq(bookingRequests.status, "needs_attention"), eq(bookingRequests.reasonKey, "bookings.reason.could_not_tell")));
  const attempts = await loadAttempts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((request) => ({ request, times: [...new Set(attempts.filter((a) => a.requestId === request.id).map((a) => a.time))] }));
}

/** The phase of a processing request (null: none); null when it is no longer processing. */
export async function setPhase(db: Db, id: number, phase: RequestPhase | null): Promise<DomainEventOf<"request_changed"> | null> {
  const rows = await db
    .update(bookingRequests)
    .set({ phase })
    .where(and(eq(bookingRequests.id, id), eq(bookingRequests.status, "processing")))
    .returning({ userId: bookingRequests.userId });
  return rows[0] ? { type: "request_changed", userId: rows[0].userId, requestId: id } : null;
}

/** The member's booking references Teebox already holds for a request, so a reconciliation never claims one twice. */
export async function knownBookingRefs(db: Db, userId: number, refs: string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db
    .select({ ref: bookings.bookingRef, requestId: bookings.requestId })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), inArray(bookings.bookingRef, refs)));
  return new Set(rows.filter((r) => r.requestId !== null).map((r) => r.ref));
}

/** The members among `userIds` whose account is disabled now (their requests are held). */
export async function disabledMembers(db: Db, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, userIds), eq(users.status, "disabled")));
  return new Set(rows.map((r) => r.id));
}

/** How many held requests each member has (members with none are absent). */
export async function heldRequestCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .select({ userId: bookingRequests.userId, count: sql<number>`count(*)` })
    .from(bookingRequests)
    .where(eq(bookingRequests.status, "held"))
    .groupBy(bookingRequests.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.count)]));
}
