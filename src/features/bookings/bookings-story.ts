/**
 * The story of a request: every post the release engine made for it (which time, when it left
 * relative to the release instant on the club's clock, the club's answer), the club clock's offset
 * measured for that release, and what the club's sheet showed of each tried time afterwards. It
 * stays readable after the request became a booking, from either side. A member reads only their own.
 */
import { and, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookingRequests, bookings, teeTimeSlots } from "../../db/schema.ts";
import { loadAttempts, type RequestRow } from "../../lifecycle/request-lifecycle.ts";
import { attemptsOfWatches, findWatchOfBooking, type WatchRow } from "../../lifecycle/watch-lifecycle.ts";
import type { RequestStory } from "./bookings-responses.schemas.ts";
import { BOOKING_ERRORS, fail, renderReasons } from "./bookings.service.ts";

export async function requestStory(db: Db, userId: number, requestId: number): Promise<RequestStory> {
  const rows = await db
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.id, requestId), eq(bookingRequests.userId, userId)))
    .limit(1);
  if (!rows[0]) throw fail(404, BOOKING_ERRORS.requestNotFound);
  return storyOf(db, rows[0]);
}

export async function bookingStory(db: Db, userId: number, bookingId: string): Promise<RequestStory> {
  const rows = await db
    .select({ requestId: bookings.requestId })
    .from(bookings)
    .where(and(eq(bookings.bookingRef, bookingId), eq(bookings.userId, userId)))
    .limit(1);
  if (!rows[0]) throw fail(404, BOOKING_ERRORS.bookingNotFound);
  const { requestId } = rows[0];
  if (requestId === null) {
    // Not made at a release: a slot watch may have made it when the slot came free.
    const watch = await findWatchOfBooking(db, userId, bookingId);
    return { request: null, clock: null, attempts: [], watch: watch ? await watchStoryOf(db, watch) : null };
  }
  const requests = await db
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.id, requestId), eq(bookingRequests.userId, userId)))
    .limit(1);
  return requests[0] ? storyOf(db, requests[0]) : { request: null, clock: null, attempts: [], watch: null };
}

/** The watch that booked, and every post it made (the member's posts for other slots too). */
async function watchStoryOf(db: Db, watch: WatchRow): Promise<NonNullable<RequestStory["watch"]>> {
  const attempts = await attemptsOfWatches(db, [watch.id]);
  const answerText = await renderReasons(
    db,
    attempts.flatMap((a) => (a.answerKey ? [a.answerKey] : [])),
  );
  return {
    id: watch.id,
    playDate: watch.playDate,
    course: watch.courseId,
    fromTime: watch.fromTime,
    toTime: watch.toTime,
    createdAt: watch.createdAt,
    attempts: attempts.map((a) => ({
      course: a.courseId,
      time: a.time,
      sentAt: a.sentAt,
      outcome: a.state === "sent" ? null : a.outcome,
      answerKey: a.answerKey,
      answerContext: a.answerContext,
      answer: answerText(a.answerKey, a.answerContext, null),
    })),
  };
}

async function storyOf(db: Db, row: RequestRow): Promise<RequestStory> {
  const attempts = await loadAttempts(db, [row.id]);
  const reasonText = await renderReasons(db, [...(row.reasonKey ? [row.reasonKey] : []), ...attempts.flatMap((a) => (a.answerKey ? [a.answerKey] : []))]);
  const tried = [...new Set(attempts.map((a) => a.time))];
  // Only a sheet read at or after the release instant says anything about how the release went.
  const sheet =
    tried.length === 0
      ? []
      : await db
          .select({ time: teeTimeSlots.time, status: teeTimeSlots.status, scrapedAt: teeTimeSlots.scrapedAt })
          .from(teeTimeSlots)
          .where(
            and(
              eq(teeTimeSlots.date, row.playDate),
              eq(teeTimeSlots.courseId, row.courseId),
              inArray(teeTimeSlots.time, tried),
              gte(teeTimeSlots.scrapedAt, row.releaseAt - (row.clockOffsetMs ?? 0)),
            ),
          );
  const after = new Map(sheet.map((s) => [s.time, { status: s.status, readAt: s.scrapedAt }]));
  return {
    request: {
      id: row.id,
      course: row.courseId,
      playDate: row.playDate,
      status: row.status,
      releaseAt: row.releaseAt,
      times: row.selection.map((s) => s.time),
      bookingRef: row.bookingRef,
      reasonKey: row.reasonKey,
      reasonContext: row.reasonContext,
      reason: reasonText(row.reasonKey, row.reasonContext, row.failureReason),
    },
    clock: row.clockOffsetMs === null ? null : { offsetMs: row.clockOffsetMs, uncertaintyMs: row.clockUncertaintyMs },
    attempts: attempts.map((a) => ({
      time: a.time,
      leftAtMs: a.firedAtClub - row.releaseAt,
      outcome: a.outcome,
      answerKey: a.answerKey,
      answerContext: a.answerContext,
      answer: reasonText(a.answerKey, a.answerContext, a.answer),
      durationMs: a.durationMs,
      sheetAfter: after.get(a.time) ?? null,
    })),
  };
}
