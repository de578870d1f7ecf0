/**
 * A member's booking requests and confirmed bookings: submitting (checked with the same domain
 * rules the web app uses), listing with the attempt record, cancelling, and editing a confirmed
 * booking at the club. A member only ever sees and touches their own.
 */
import type { DomainEventOf } from "../../domain/events.ts";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { isRequestReasonKey, type RequestReason } from "../../domain/request-reasons.ts";
import { isWatchReasonKey } from "../../domain/watches.ts";
import { cancelOwnRequest, insertRequest as insertRequestRow, resubmitRequest, statusOf } from "../../lifecycle/request-lifecycle.ts";
import { removeBooking } from "../../lifecycle/booking-records.ts";
import type { AppDeps } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { preparedQuery } from "../../db/prepared.ts";
import { bookingRequests, bookings, requestAttempts, teeTimeSlots, users, type RequestSelection, type StoredPlayer } from "../../db/schema.ts";
import { ClubError } from "../../club/errors.ts";
import { bookingSubmissionSchema, type BookingSubmission } from "../../domain/booking-submission-schema.ts";
import { validateBookingSubmission, type NormalisedSubmission } from "../../domain/booking-submission.ts";
import { manilaDate } from "../../domain/manila-time.ts";
import { releaseInstant } from "../../domain/release-time.ts";
import type { SubmissionResultDetails, SubmissionStatus } from "../../realtime/messages.ts";
import { AppError, badRequest, textError } from "../../lib/errors.ts";
import { parseWith } from "../../lib/validate.ts";
import type { SessionUser } from "../../domain/session-user.ts";
import { readRules } from "../../services/booking-config.service.ts";
import { readReasonTexts } from "../../services/options-and-texts.service.ts";
import { clubErrorToAppError } from "../../club/club-login.ts";
import type { AttemptView, BookingView, RequestStatusLabel, RequestView } from "./bookings.schemas.ts";
import { displayName, flightToStoredPlayers } from "../../services/club-players.ts";
import { checkMemberRequests, submissionGuards } from "./submission-guards.ts";
import { offeredDateRange } from "../../domain/date-kinds.ts";
import { publishAll, storeRequestPartners } from "../../services/partners.ts";

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
export const fail = (status: 400 | 404 | 409, error: { message: string; errorKey: string }, context: Record<string, string> = {}) =>
  new AppError(status, fill(error.message, context), error.errorKey);

export interface SubmissionOutcome {
  status: SubmissionStatus;
  requestId: number;
  details: SubmissionResultDetails;
  /** Why it was saved but not sent (status 'needs_attention'). */
  reason?: RequestReason;
}

/** Our reading of the club's clock: ours plus the offset the release engine last measured. */
export function clubNowOf(deps: Pick<AppDeps, "clock" | "releaseEngine">): number {
  return deps.clock.now() + (deps.releaseEngine.offset()?.offsetMs ?? 0);
}

interface MemberIdentity {
  id: number;
  name: string;
  memberId: string;
}

// ── checking a submission ────────────────────────────────────────────────

/** The domain check with the rules, holidays, courses and windows as stored now. */
export async function checkSubmission(db: Db, member: MemberIdentity, submission: BookingSubmission, now: number): Promise<NormalisedSubmission> {
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
    ...(await submissionGuards(db, now, submission.targetDate)),
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
  if (!rows[0]?.email || !rows[0].sealed) throw textError(400, "club.no_login");
}

// ── submitting ───────────────────────────────────────────────────────────

/**
 * Stores a request (or replaces the member's own pending or failed one, same id) with its release
 * instant. Before the instant it waits as Pending; from the instant on the engine takes it at once,
 * unless it asks every partner to accept and they could not: then it is held, not sent, and the
 * answer says so with the reason.
 */
export async function submitBookingRequest(deps: AppDeps, user: SessionUser, payload: unknown): Promise<SubmissionOutcome> {
  const { database, clock } = deps;
  const now = clock.now();
  const submission = parseWith(bookingSubmissionSchema, payload);
  const sub = await checkSubmission(database.db, user, submission, now);
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
    ...mustAcceptOf(submission),
  };
  const clubNow = clubNowOf(deps);
  const isDue = releaseAt <= clubNow;
  // The request and its partners' invitations in one transaction: the engine never sees a request
  // whose partners are not stored yet (one due at once has them stored unasked, so they are told
  // if it is booked; one that needs every answer is held before it could be sent).
  const { submitted, heldFor, events } = await database.transaction(async (tx) => {
    const stored = sub.editTarget === undefined ? await insertRequestRow(tx, { userId: user.id, ...fields }) : await replaceRequest(tx, user.id, sub.editTarget, fields);
    const [request] = await tx.select().from(bookingRequests).where(eq(bookingRequests.id, stored.requestId));
    return { submitted: stored, ...(await storeRequestPartners(tx, request, clubNow, clock.now())) };
  });
  const { requestId } = submitted;
  deps.logger.info("booking request stored", { requestId, userId: user.id, date: sub.targetDate, course: sub.courseId, releaseAt, isDue });
  publishAll(deps.notifier, events);
  deps.releaseEngine.wake();
  deps.notifier.publish(submitted);
  const details = { play_date: sub.targetDate, course: sub.courseId, time: sub.times[0], releaseAt: isDue ? null : releaseAt };
  if (heldFor) return { status: "needs_attention", requestId, details, reason: heldFor };
  return { status: isDue ? "submitted" : "pending", requestId, details };
}

/**
 * "Send only if every partner has accepted" as the submission gives it. A new request without it
 * has it off (the column's default); an edit without it keeps the request's own setting, so a
 * client that does not know the option cannot turn it off by editing something else.
 */
function mustAcceptOf(submission: BookingSubmission): { partnersMustAccept?: boolean } {
  return submission.partnersMustAccept === undefined ? {} : { partnersMustAccept: submission.partnersMustAccept };
}

type RequestFields = Omit<typeof bookingRequests.$inferInsert, "id" | "userId">;

/** Editing a pending, held or failed request replaces it, keeping its id. */
async function replaceRequest(tx: Db, userId: number, id: number, fields: RequestFields): Promise<DomainEventOf<"request_submitted">> {
  const resubmitted = await resubmitRequest(tx, userId, id, fields, fields.updatedAt);
  if (resubmitted) return resubmitted;
  const status = await statusOf(tx, userId, id);
  if (status === "processing") throw fail(409, BOOKING_ERRORS.processingEdit);
  if (status === "confirmed") throw fail(409, BOOKING_ERRORS.alreadyBooked);
  throw fail(404, BOOKING_ERRORS.requestNotFound);
}

// ── listing ──────────────────────────────────────────────────────────────

const STATUS_LABELS: Record<string, RequestStatusLabel> = { pending: "Pending", held: "On hold", needs_attention: "Needs attention", processing: "Processing", failed: "Failed" };
const LISTED_STATUSES = ["pending", "held", "needs_attention", "processing", "failed"] as const;

/** The reason's text as an admin worded it (or its default), filled from its context; else the text stored with it. */
export async function renderReasons(db: Db, keys: string[]): Promise<(key: string | null, context: Record<string, string> | null, stored: string | null) => string | null> {
  const render = await readReasonTexts(db, keys, (key) => isRequestReasonKey(key) || isWatchReasonKey(key));
  return (key, context, stored) => render(key, context) ?? stored;
}

function playersView(players: StoredPlayer[]) {
  return players.map((p) => ({ name: displayName(p), type: p.type, memberId: p.memberId, cart: p.cart, fee: p.fee }));
}

/** A member's listed requests, and their attempts: read on every reload of the app, prepared once (decision 205). */
const listedRequestsOf = () => and(eq(bookingRequests.userId, sql.placeholder("userId")), inArray(bookingRequests.status, [...LISTED_STATUSES]));
const listedRequests = preparedQuery((db) => db.select().from(bookingRequests).where(listedRequestsOf()).orderBy(asc(bookingRequests.playDate), asc(bookingRequests.id)).prepare());
const attemptsOfListedRequests = preparedQuery((db) =>
  db
    .select()
    .from(requestAttempts)
    .where(inArray(requestAttempts.requestId, db.select({ id: bookingRequests.id }).from(bookingRequests).where(listedRequestsOf())))
    .orderBy(asc(requestAttempts.id))
    .prepare(),
);

/** Pending, held, processing and failed requests with what happened to each (cancelled and booked ones are not listed). */
export async function listRequests(db: Db, userId: number): Promise<RequestView[]> {
  const rows = await listedRequests(db).all({ userId });
  const attempts = rows.length === 0 ? [] : await attemptsOfListedRequests(db).all({ userId });
  const reasonText = await renderReasons(db, [...rows.flatMap((r) => (r.reasonKey ? [r.reasonKey] : [])), ...attempts.flatMap((a) => (a.answerKey ? [a.answerKey] : []))]);
  return rows.map((row) => ({
    id: row.id,
    course: row.courseId,
    play_date: row.playDate,
    times: row.selection.map((s) => s.time),
    status: STATUS_LABELS[row.status],
    phase: row.status === "processing" ? row.phase : null,
    release_at: row.releaseAt,
    players: playersView(row.players),
    failureReason: reasonText(row.reasonKey, row.reasonContext, row.failureReason),
    reasonKey: row.reasonKey,
    reasonContext: row.reasonContext,
    submittedAt: row.submittedAt,
    latenessMs: row.latenessMs,
    selectionOrder: row.selection,
    memberCartType: row.memberCartType,
    partnersMustAccept: row.partnersMustAccept,
    attempts: attempts
      .filter((a) => a.requestId === row.id)
      .map(
        (a): AttemptView => ({
          time: a.time,
          firedAtClub: a.firedAtClub,
          offsetFromReleaseMs: a.firedAtClub - row.releaseAt,
          outcome: a.outcome,
          answer: reasonText(a.answerKey, a.answerContext, a.answer),
          answerKey: a.answerKey,
          answerContext: a.answerContext,
          durationMs: a.durationMs,
        }),
      ),
  }));
}

export function toBookingView(row: typeof bookings.$inferSelect): BookingView {
  return {
    bookingId: row.bookingRef,
    course: row.courseId,
    date: row.playDate,
    time: row.time,
    createdAt: row.createdAt,
    playersInfo: row.players.map((p) => ({ name: displayName(p), type: p.type, id: p.memberId, cart: p.cart, fee: p.fee })),
  };
}

/** A member's bookings, read on every reload of the app: prepared once (decision 205). */
const bookingsOf = preparedQuery((db) =>
  db
    .select()
    .from(bookings)
    .where(eq(bookings.userId, sql.placeholder("userId")))
    .orderBy(asc(bookings.playDate), asc(bookings.time), asc(bookings.id))
    .prepare(),
);

export async function listBookings(db: Db, userId: number): Promise<BookingView[]> {
  const rows = await bookingsOf(db).all({ userId });
  return rows.map(toBookingView);
}

// ── cancelling ───────────────────────────────────────────────────────────

/** CANCEL_REQUEST: a pending, held or failed request is cancelled; one being processed is not. */
export async function cancelRequest(deps: AppDeps, userId: number, id: number): Promise<DomainEventOf<"request_cancelled">> {
  const { db } = deps.database;
  const cancelled = await cancelOwnRequest(db, userId, id, deps.clock.now());
  if (!cancelled) {
    const status = await statusOf(db, userId, id);
    if (status === "processing") throw fail(409, BOOKING_ERRORS.processingCancel);
    if (status === "confirmed") throw fail(409, BOOKING_ERRORS.alreadyBooked);
    throw fail(404, BOOKING_ERRORS.requestNotFound);
  }
  deps.releaseEngine.wake();
  deps.logger.info("booking request cancelled", { requestId: id, userId });
  return cancelled;
}

export async function findOwnBooking(db: Db, userId: number, bookingId: string) {
  const rows = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.bookingRef, bookingId), eq(bookings.userId, userId)))
    .limit(1);
  if (!rows[0]) throw fail(404, BOOKING_ERRORS.bookingNotFound);
  return rows[0];
}

/** CANCEL_CONFIRMED_BOOKING: cancelled at the club first, then removed here. */
export async function cancelBooking(deps: AppDeps, userId: number, bookingId: string): Promise<DomainEventOf<"booking_cancelled"> | null> {
  const booking = await findOwnBooking(deps.database.db, userId, bookingId);
  const session = await deps.sessions.forMember(userId);
  try {
    await session.cancelBooking(booking.bookingRef);
  } catch (error) {
    // Already gone at the club (cancelled on its site): removing it here is what the member wants.
    if (!(error instanceof ClubError && error.kind === "not_found")) throw clubErrorToAppError(error);
  }
  const cancelled = await removeBooking(deps.database.db, booking.id);
  deps.logger.info("booking cancelled", { userId, bookingId });
  return cancelled;
}
