/**
 * A member's booking requests and confirmed bookings: submitting (checked with the same domain
 * rules the web app uses), listing with the attempt record, cancelling, and editing a confirmed
 * booking at the club. A member only ever sees and touches their own.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { bookingRequests, bookings, requestAttempts, teeTimeSlots, users, type RequestSelection, type StoredPlayer } from "../../db/schema.ts";
import { ClubError } from "../../club/errors.ts";
import { bookingSubmissionSchema, validateBookingSubmission, type NormalisedSubmission } from "../../domain/booking-submission.ts";
import { manilaDate } from "../../domain/manila-time.ts";
import { releaseInstant } from "../../domain/release-time.ts";
import type { SubmissionResultDetails } from "../../realtime/messages.ts";
import { AppError, badRequest } from "../../lib/errors.ts";
import { parseWith } from "../../lib/validate.ts";
import type { SessionUser } from "../auth/auth.schemas.ts";
import { readRules } from "../availability/availability.service.ts";
import { clubErrorToAppError, memberClub } from "../club/club.service.ts";
import type { AttemptView, BookingView, RequestStatusLabel, RequestView } from "./bookings.schemas.ts";
import { displayName, flightToStoredPlayers, toClubPlayers } from "./club-players.ts";
import { checkMemberRequests, submissionGuards } from "./submission-guards.ts";
import { offeredDateRange } from "../../domain/date-kinds.ts";

/** Texts of the errors this feature answers with (defaults of the UI-text keys in ui-text/bookings.ts). */
export const BOOKING_ERRORS = {
  requestNotFound: { message: "That request was not found.", errorKey: "bookings.error.request_not_found" },
  bookingNotFound: { message: "That booking was not found.", errorKey: "bookings.error.booking_not_found" },
  processingCancel: { message: "This request is being processed right now and cannot be cancelled.", errorKey: "bookings.error.processing_cancel" },
  processingEdit: { message: "This request is being processed right now and can no longer be changed.", errorKey: "bookings.error.processing_edit" },
  alreadyBooked: { message: "This request has already been booked; cancel or edit the booking instead.", errorKey: "bookings.error.already_booked" },
  unknownSlot: { message: "The tee time {time} is not offered on that date.", errorKey: "bookings.error.unknown_slot" },
  notOpenYet: { message: "The new date is not open for booking yet. Submit a new request for it instead.", errorKey: "bookings.error.not_open_yet" },
  noTimeFree: { message: "None of the selected times is available; your booking is unchanged.", errorKey: "bookings.error.no_time_free" },
} as const;

const fill = (template: string, context: Record<string, string>) => template.replace(/\{(\w+)\}/g, (whole, name: string) => context[name] ?? whole);
const fail = (status: 400 | 404 | 409, error: { message: string; errorKey: string }, context: Record<string, string> = {}) =>
  new AppError(status, fill(error.message, context), error.errorKey);

export interface SubmissionOutcome {
  status: "pending" | "submitted";
  requestId: number;
  details: SubmissionResultDetails;
}

/** Our reading of the club's clock: ours plus the offset the release engine last measured. */
function clubNowOf(deps: AppDeps): number {
  return deps.clock.now() + (deps.releaseEngine.offset()?.offsetMs ?? 0);
}

interface MemberIdentity {
  id: number;
  name: string;
  memberId: string;
}

// ── checking a submission ────────────────────────────────────────────────

/** The domain check with the rules, holidays, courses and windows as stored now. */
export async function checkSubmission(db: Db, member: MemberIdentity, payload: unknown, now: number): Promise<NormalisedSubmission> {
  const submission = parseWith(bookingSubmissionSchema, payload);
  const rules = await readRules(db);
  const todayIso = manilaDate(now);
  const outcome = validateBookingSubmission(submission, {
    courses: rules.courseSchedule,
    rules: rules.bookingRules.rules,
    holidays: rules.bookingRules.holidays,
    windows: rules.allowedWindows,
    self: { memberId: member.memberId, name: member.name },
    todayIso,
    ...offeredDateRange(now, rules.appSettings),
    ...(await submissionGuards(db, now)),
  });
  if (!outcome.ok) throw badRequest(outcome.problem.message, outcome.problem.errorKey);
  return { ...outcome.value, selectionOrder: await checkLiveSlots(db, outcome.value) };
}

/**
 * When the date is live (the scraper has its sheet), every chosen time must be on that sheet and
 * a given slot id must be its id; a missing id is filled from the sheet.
 */
async function checkLiveSlots(db: Db, sub: NormalisedSubmission): Promise<RequestSelection[]> {
  const sheet = await db
    .select({ time: teeTimeSlots.time, slotId: teeTimeSlots.slotId })
    .from(teeTimeSlots)
    .where(and(eq(teeTimeSlots.date, sub.targetDate), eq(teeTimeSlots.courseId, sub.courseId)));
  if (sheet.length === 0) return sub.selectionOrder.map((s) => ({ time: s.time, slotId: s.slotId }));
  return sub.selectionOrder.map((s) => {
    const row = sheet.find((r) => r.time === s.time);
    const isKnown = row && (s.slotId === null || row.slotId === null || row.slotId === s.slotId);
    if (!row || !isKnown) throw fail(400, BOOKING_ERRORS.unknownSlot, { time: s.time });
    return { time: s.time, slotId: s.slotId ?? row.slotId };
  });
}

async function requireClubLogin(db: Db, userId: number): Promise<void> {
  const rows = await db.select({ email: users.clubEmail, sealed: users.clubPasswordSealed }).from(users).where(eq(users.id, userId)).limit(1);
  if (!rows[0]?.email || !rows[0].sealed) throw new AppError(400, "Connect your club account in your profile first.", "club.no_login");
}

// ── submitting ───────────────────────────────────────────────────────────

/**
 * Stores a request (or replaces the member's own pending or failed one, same id) with its release
 * instant. Before the instant it waits as Pending; from the instant on the engine takes it at once.
 */
export async function submitBookingRequest(deps: AppDeps, user: SessionUser, payload: unknown): Promise<SubmissionOutcome> {
  const { database, clock } = deps;
  const now = clock.now();
  const sub = await checkSubmission(database.db, user, payload, now);
  await checkMemberRequests(database.db, user.id, sub, now);
  await requireClubLogin(database.db, user.id);
  const rules = await readRules(database.db);
  const releaseAt = releaseInstant(sub.targetDate, rules.appSettings);
  const fields = {
    courseId: sub.courseId,
    playDate: sub.targetDate,
    selection: sub.selectionOrder,
    players: flightToStoredPlayers(sub.flight, user.name),
    memberCartType: sub.memberCartType,
    status: "pending" as const,
    releaseAt,
    failureReason: null,
    bookingRef: null,
    latenessMs: null,
    submittedAt: now,
    updatedAt: now,
  };
  const requestId = sub.editTarget === undefined ? await insertRequest(deps, user.id, fields) : await replaceRequest(deps, user.id, sub.editTarget, fields);
  const isDue = releaseAt <= clubNowOf(deps);
  deps.logger.info("booking request stored", { requestId, userId: user.id, date: sub.targetDate, course: sub.courseId, releaseAt, isDue });
  deps.releaseEngine.wake();
  deps.hub.toUser(user.id, { type: "status", status: "updated" });
  return {
    status: isDue ? "submitted" : "pending",
    requestId,
    details: { play_date: sub.targetDate, course: sub.courseId, time: sub.times[0], releaseAt: isDue ? null : releaseAt },
  };
}

type RequestFields = Omit<typeof bookingRequests.$inferInsert, "id" | "userId">;

async function insertRequest(deps: AppDeps, userId: number, fields: RequestFields): Promise<number> {
  const rows = await deps.database.db.insert(bookingRequests).values({ userId, ...fields }).returning({ id: bookingRequests.id });
  return rows[0].id;
}

/** Editing a pending (or failed) request replaces it in one transaction, keeping its id. */
async function replaceRequest(deps: AppDeps, userId: number, id: number, fields: RequestFields): Promise<number> {
  return deps.database.transaction(async (tx) => {
    const rows = await tx
      .select({ status: bookingRequests.status })
      .from(bookingRequests)
      .where(and(eq(bookingRequests.id, id), eq(bookingRequests.userId, userId)));
    const status = rows[0]?.status;
    if (!status || status === "cancelled") throw fail(404, BOOKING_ERRORS.requestNotFound);
    if (status === "processing") throw fail(409, BOOKING_ERRORS.processingEdit);
    if (status === "confirmed") throw fail(409, BOOKING_ERRORS.alreadyBooked);
    await tx.delete(requestAttempts).where(eq(requestAttempts.requestId, id));
    await tx.update(bookingRequests).set(fields).where(eq(bookingRequests.id, id));
    return id;
  });
}

// ── listing ──────────────────────────────────────────────────────────────

const STATUS_LABELS: Record<string, RequestStatusLabel> = { pending: "Pending", processing: "Processing", failed: "Failed" };

function playersView(players: StoredPlayer[]) {
  return players.map((p) => ({ name: displayName(p), type: p.type, memberId: p.memberId, cart: p.cart, fee: p.fee }));
}

/** Pending, processing and failed requests with what happened to each (cancelled and booked ones are not listed). */
export async function listRequests(db: Db, userId: number): Promise<RequestView[]> {
  const rows = await db
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.userId, userId), inArray(bookingRequests.status, ["pending", "processing", "failed"])))
    .orderBy(asc(bookingRequests.playDate), asc(bookingRequests.id));
  const attempts = rows.length === 0 ? [] : await db.select().from(requestAttempts).where(inArray(requestAttempts.requestId, rows.map((r) => r.id))).orderBy(asc(requestAttempts.id));
  return rows.map((row) => ({
    id: row.id,
    course: row.courseId,
    play_date: row.playDate,
    times: row.selection.map((s) => s.time),
    status: STATUS_LABELS[row.status],
    release_at: row.releaseAt,
    players: playersView(row.players),
    failureReason: row.failureReason,
    submittedAt: row.submittedAt,
    latenessMs: row.latenessMs,
    selectionOrder: row.selection,
    memberCartType: row.memberCartType,
    attempts: attempts
      .filter((a) => a.requestId === row.id)
      .map(
        (a): AttemptView => ({
          time: a.time,
          firedAtClub: a.firedAtClub,
          offsetFromReleaseMs: a.firedAtClub - row.releaseAt,
          outcome: a.outcome,
          answer: a.answer,
          durationMs: a.durationMs,
        }),
      ),
  }));
}

function toBookingView(row: typeof bookings.$inferSelect): BookingView {
  return {
    bookingId: row.bookingRef,
    course: row.courseId,
    date: row.playDate,
    time: row.time,
    createdAt: row.createdAt,
    playersInfo: row.players.map((p) => ({ name: displayName(p), type: p.type, id: p.memberId, cart: p.cart, fee: p.fee })),
  };
}

export async function listBookings(db: Db, userId: number): Promise<BookingView[]> {
  const rows = await db.select().from(bookings).where(eq(bookings.userId, userId)).orderBy(asc(bookings.playDate), asc(bookings.time), asc(bookings.id));
  return rows.map(toBookingView);
}

// ── cancelling ───────────────────────────────────────────────────────────

/** CANCEL_REQUEST: a pending or failed request is cancelled; one being processed is not. */
export async function cancelRequest(deps: AppDeps, userId: number, id: number): Promise<void> {
  const { db } = deps.database;
  const cancelled = await db
    .update(bookingRequests)
    .set({ status: "cancelled", updatedAt: deps.clock.now() })
    .where(and(eq(bookingRequests.id, id), eq(bookingRequests.userId, userId), inArray(bookingRequests.status, ["pending", "failed"])))
    .returning({ id: bookingRequests.id });
  if (cancelled.length === 0) {
    const rows = await db.select({ status: bookingRequests.status }).from(bookingRequests).where(and(eq(bookingRequests.id, id), eq(bookingRequests.userId, userId)));
    const status = rows[0]?.status;
    if (status === "processing") throw fail(409, BOOKING_ERRORS.processingCancel);
    if (status === "confirmed") throw fail(409, BOOKING_ERRORS.alreadyBooked);
    throw fail(404, BOOKING_ERRORS.requestNotFound);
  }
  deps.releaseEngine.wake();
  deps.logger.info("booking request cancelled", { requestId: id, userId });
}

async function findOwnBooking(db: Db, userId: number, bookingId: string) {
  const rows = await db.select().from(bookings).where(and(eq(bookings.bookingRef, bookingId), eq(bookings.userId, userId))).limit(1);
  if (!rows[0]) throw fail(404, BOOKING_ERRORS.bookingNotFound);
  return rows[0];
}

/** CANCEL_CONFIRMED_BOOKING: cancelled at the club first, then removed here. */
export async function cancelBooking(deps: AppDeps, userId: number, bookingId: string): Promise<void> {
  const booking = await findOwnBooking(deps.database.db, userId, bookingId);
  const session = await memberClub(deps, userId);
  try {
    await session.cancelBooking(booking.bookingRef);
  } catch (error) {
    // Already gone at the club (cancelled on its site): removing it here is what the member wants.
    if (!(error instanceof ClubError && error.kind === "not_found")) throw clubErrorToAppError(error);
  }
  await deps.database.db.delete(bookings).where(eq(bookings.id, booking.id));
  deps.logger.info("booking cancelled", { userId, bookingId });
}

// ── editing a confirmed booking ──────────────────────────────────────────

/**
 * POST /v1/bookings/{id}/edit. A change of players only is an edit at the club. A change of date,
 * course or time books the new slot first and cancels the old one only once the new one is
 * confirmed, so the member is never left with nothing.
 */
export async function editBooking(deps: AppDeps, user: SessionUser, bookingId: string, payload: unknown): Promise<BookingView> {
  const { database, clock } = deps;
  const booking = await findOwnBooking(database.db, user.id, bookingId);
  const sub = await checkSubmission(database.db, user, payload, clock.now());
  const players = flightToStoredPlayers(sub.flight, user.name);
  const session = await memberClub(deps, user.id);
  const isSameSlot = sub.courseId === booking.courseId && sub.targetDate === booking.playDate && sub.times[0] === booking.time;

  if (isSameSlot) {
    try {
      await session.editBooking(booking.bookingRef, toClubPlayers(players));
    } catch (error) {
      throw clubErrorToAppError(error);
    }
    const [row] = await database.db.update(bookings).set({ players }).where(eq(bookings.id, booking.id)).returning();
    return toBookingView(row);
  }

  const rules = await readRules(database.db);
  if (releaseInstant(sub.targetDate, rules.appSettings) > clubNowOf(deps)) throw fail(400, BOOKING_ERRORS.notOpenYet);
  const booked = await bookFirstFree(session, sub, players);
  const [row] = await database.db
    .insert(bookings)
    .values({ userId: user.id, bookingRef: booked.ref, courseId: sub.courseId, playDate: sub.targetDate, time: booked.time, players, requestId: null, createdAt: clock.now() })
    .onConflictDoUpdate({ target: bookings.bookingRef, set: { players } })
    .returning();
  try {
    await session.cancelBooking(booking.bookingRef);
    await database.db.delete(bookings).where(eq(bookings.id, booking.id));
  } catch (error) {
    // The new booking stands; the old one stays listed until it is cancelled (or the sync sees it gone).
    if (error instanceof ClubError && error.kind === "not_found") await database.db.delete(bookings).where(eq(bookings.id, booking.id));
    else deps.logger.warn("edit: the old booking could not be cancelled", { bookingId, error });
  }
  return toBookingView(row);
}

/** Books the first selected time the club still has, in priority order. */
async function bookFirstFree(session: Awaited<ReturnType<typeof memberClub>>, sub: NormalisedSubmission, players: StoredPlayer[]): Promise<{ ref: string; time: string }> {
  let sheet: Awaited<ReturnType<typeof session.fetchTeeSheet>> | null = null;
  for (const selection of sub.selectionOrder) {
    let slotId = selection.slotId;
    try {
      if (!slotId) {
        sheet ??= await session.fetchTeeSheet(sub.targetDate, sub.courseId);
        slotId = sheet.slots.find((s) => s.time === selection.time && s.status === "AVAILABLE")?.slotId ?? null;
        if (!slotId) continue;
      }
      const { ref } = await session.book({ date: sub.targetDate, course: sub.courseId, slotId, time: selection.time, players: toClubPlayers(players) });
      return { ref, time: selection.time };
    } catch (error) {
      if (error instanceof ClubError && (error.kind === "slot_taken" || error.kind === "not_found")) continue;
      throw clubErrorToAppError(error);
    }
  }
  throw fail(409, BOOKING_ERRORS.noTimeFree);
}

