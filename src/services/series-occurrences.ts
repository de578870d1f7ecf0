/**
 * Turning a standing request's dates into dated requests (decision 180), shared by the series job
 * and the member's series calls: each date is checked with the same domain rules, limits and
 * release instant as a request made on the Book page; one that cannot be queued needs attention
 * with the reason. Occurrences queued at one moment for one release and course are stored in the
 * rotation's order (decision 181), which is the order the engine sends them in.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppDatabase, Db } from "../db/client.ts";
import { bookingRequests, users, type RequestSelection } from "../db/schema.ts";
import { checkOpenRequests, validateBookingSubmission, type BookingSubmission, type NormalisedSubmission, type SubmissionPlayer } from "../domain/booking-submission.ts";
import { courseNameOf, isCourseActiveOn } from "../domain/booking-rules.ts";
import { offeredDateRange } from "../domain/date-kinds.ts";
import { generateEstimatedSlots } from "../domain/estimated-slots.ts";
import { manilaDate } from "../domain/manila-time.ts";
import type { DomainEvent } from "../domain/events.ts";
import { releaseInstant } from "../domain/release-time.ts";
import { DEFAULT_UI_TEXT, isUiTextKey } from "../domain/ui-text/index.ts";
import { occurrenceDates, playsOn, rotationOrder, timesInRange } from "../domain/series.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { insertRequest, reviseRequest, withdrawRequest } from "../lifecycle/request-lifecycle.ts";
import {
  activeSeries,
  claimOccurrence,
  closeOccurrence,
  markLed,
  markNeedsAttention,
  markQueued,
  occurrencesOf,
  unqueueOccurrence,
  type OccurrenceRow,
  type SeriesRow,
} from "../lifecycle/series-lifecycle.ts";
import type { Notifier } from "../realtime/notifier.ts";
import { readRules } from "./booking-config.service.ts";
import { flightToStoredPlayers } from "./club-players.ts";
import { readSettings } from "./settings.service.ts";
import { publishAll, storeRequestPartners } from "./partners.ts";
import { openRequestsOf, submissionGuards } from "./submission-context.ts";

export interface SeriesQueueDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  notifier: Notifier;
  /** Tells the release engine a request was stored or changed. */
  wakeEngine(): void;
}

/** Why a date cannot be queued: a UI-text key and its placeholders. */
export interface OccurrenceReason {
  key: string;
  context: Record<string, string>;
}

type Rules = Awaited<ReturnType<typeof readRules>>;
type Member = { id: number; name: string; memberId: string };

export type OccurrencePlan = { ok: true; sub: NormalisedSubmission; selection: RequestSelection[]; releaseAt: number } | { ok: false; why: OccurrenceReason };

const MAX_TIMES = 40;

function reasonOf(problem: { errorKey: string; context?: Record<string, string | number> }): OccurrenceReason {
  return { key: problem.errorKey, context: Object.fromEntries(Object.entries(problem.context ?? {}).map(([k, v]) => [k, String(v)])) };
}

async function memberOf(db: Db, userId: number): Promise<Member> {
  const row = (await db.select({ id: users.id, name: users.name, memberId: users.memberId }).from(users).where(eq(users.id, userId)).limit(1))[0];
  return row ?? { id: userId, name: "", memberId: "" };
}

/** The times a series (or one changed date) asks for on a course: its list, or its range over the date's sheet or grid. */
function timesFor(
  series: SeriesRow,
  occurrenceTimes: string[] | null,
  date: string,
  course: { id: string; name: string },
  rules: Rules,
  liveTimes: Readonly<Record<string, readonly string[]>>,
): string[] {
  if (occurrenceTimes && occurrenceTimes.length > 0) return occurrenceTimes;
  if (series.times && series.times.length > 0) return series.times;
  const live = liveTimes[course.id] ?? [];
  const grid = live.length > 0 ? live : generateEstimatedSlots(date, course.name, rules.allowedWindows).map((s) => s.time);
  return timesInRange(series.fromTime ?? "", series.toTime ?? "", grid).slice(0, MAX_TIMES);
}

/**
 * Checks one date of a series as a request made now would be: the course (the series' own, or
 * with any course the first of the schedule open that day whose rules allow the flight), the
 * times, the players against the rule of that date (holidays included). Not the open-request
 * count, which depends on what is queued before it.
 */
export async function planOccurrence(
  db: Db,
  series: SeriesRow,
  occurrenceTimes: string[] | null,
  date: string,
  now: number,
  rules?: Rules,
  member?: Member,
): Promise<OccurrencePlan> {
  const r = rules ?? (await readRules(db));
  const self = member ?? (await memberOf(db, series.userId));
  const guards = await submissionGuards(db, now, date);
  const context = {
    courses: r.courseSchedule,
    rules: r.bookingRules.rules,
    holidays: r.bookingRules.holidays,
    windows: r.allowedWindows,
    self: { memberId: self.memberId, name: self.name },
    todayIso: manilaDate(now),
    ...offeredDateRange(now, r.appSettings),
    ...guards,
  };
  const candidates =
    series.courseId === null ? r.courseSchedule.filter((c) => isCourseActiveOn(c, date)) : r.courseSchedule.filter((c) => c.id.toLowerCase() === series.courseId?.toLowerCase());
  if (candidates.length === 0) {
    return { ok: false, why: series.courseId === null ? { key: "booking.course_closed", context: {} } : { key: "booking.unknown_course", context: { course: series.courseId } } };
  }
  let first: OccurrenceReason | null = null;
  for (const course of candidates) {
    const times = timesFor(series, occurrenceTimes, date, course, r, guards.liveTimes ?? {});
    if (times.length === 0) {
      first ??= { key: "series.error.no_time_in_range", context: {} };
      continue;
    }
    const submission: BookingSubmission = {
      course: course.id,
      targetDate: date,
      selectionOrder: times.map((time) => ({ time, slotId: null })),
      memberCartType: series.memberCartType,
      playerDetails: { players: series.players as SubmissionPlayer[] },
    };
    const outcome = validateBookingSubmission(submission, context);
    if (outcome.ok) {
      // Slot ids are left to the engine, which reads the sheet for a time the club names otherwise.
      const selection = outcome.value.selectionOrder.map((s) => ({ time: s.time, slotId: s.slotId }));
      return { ok: true, sub: outcome.value, selection, releaseAt: releaseInstant(date, r.appSettings) };
    }
    first ??= reasonOf(outcome.problem);
  }
  return { ok: false, why: first ?? { key: "booking.course_closed", context: {} } };
}

/** The open-request checks (a twin, the member's allowance) against what the member has queued now. */
async function openRequestProblem(db: Db, userId: number, sub: NormalisedSubmission, now: number): Promise<OccurrenceReason | null> {
  const { max_open_requests } = await readSettings(db);
  const problem = checkOpenRequests(await openRequestsOf(db, userId, now), { playDate: sub.targetDate, courseId: sub.courseId, firstTime: sub.times[0] ?? "" }, max_open_requests);
  return problem ? reasonOf(problem) : null;
}

/** A date's request as the series asks for it, "send only if every partner has accepted" included. */
function requestFields(series: SeriesRow, sub: NormalisedSubmission, selection: RequestSelection[], member: Member, releaseAt: number) {
  return {
    courseId: sub.courseId,
    playDate: sub.targetDate,
    selection,
    players: flightToStoredPlayers(sub.flight, member.name),
    memberCartType: sub.memberCartType,
    partnersMustAccept: series.partnersMustAccept,
    releaseAt,
  };
}

interface Candidate {
  series: SeriesRow;
  date: string;
  existing: OccurrenceRow | null;
  plan: OccurrencePlan;
  member: Member;
}

/**
 * One pass: every date of every active series (or of `onlySeriesId`, just made or changed) that
 * can be queued now and has no request yet gets one (or needs attention, with the reason).
 * Returns how many were queued and flagged.
 */
export async function queueDueOccurrences(deps: SeriesQueueDeps, onlySeriesId?: number): Promise<{ queued: number; flagged: number }> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const rules = await readRules(db);
  const { minDate, maxDate } = offeredDateRange(now, rules.appSettings);
  const series = (await activeSeries(db)).filter((s) => onlySeriesId === undefined || s.id === onlySeriesId);
  const rows = await occurrencesOf(
    db,
    series.map((s) => s.id),
    minDate,
  );
  const members = new Map<number, Member>();
  const candidates: Candidate[] = [];
  for (const s of series) {
    for (const date of occurrenceDates(s, minDate, maxDate)) {
      const existing = rows.find((o) => o.seriesId === s.id && o.playDate === date) ?? null;
      if (existing && existing.state !== "waiting" && existing.state !== "needs_attention") continue;
      if (!members.has(s.userId)) members.set(s.userId, await memberOf(db, s.userId));
      const member = members.get(s.userId) as Member;
      candidates.push({ series: s, date, existing, member, plan: await planOccurrence(db, s, existing?.times ?? null, date, now, rules, member) });
    }
  }
  let queued = 0;
  let flagged = 0;
  /** Series whose dates this pass queued or flagged, with their member. */
  const touched = new Map<number, number>();
  /** What the partners of the dates queued are to be told, once all are stored. */
  const toTell: DomainEvent[] = [];
  for (const group of groupsInRotation(candidates)) {
    let led = false;
    for (const c of group) {
      const queuedOne = await queueOne(deps, c, now, rules.courseSchedule);
      touched.set(c.series.id, c.series.userId);
      if (queuedOne === null) {
        flagged++;
        continue;
      }
      const { requestId } = queuedOne;
      queued++;
      toTell.push(...queuedOne.events);
      // The first queued of its group leads only if nothing was waiting ahead of it for that release.
      if (!led && c.plan.ok && (await isFirstInLine(db, requestId, c.plan.releaseAt, c.plan.sub.courseId))) await markLed(db, c.series.id, c.plan.releaseAt);
      led = true;
    }
  }
  publishAll(deps.notifier, toTell);
  if (queued > 0) deps.wakeEngine();
  for (const [seriesId, userId] of touched) deps.notifier.publish({ type: "series_changed", userId, seriesId });
  if (queued + flagged > 0) deps.logger.info("standing requests queued", { queued, flagged });
  return { queued, flagged };
}

/**
 * The candidates in the order they are stored: those that cannot be queued first (their own
 * group), then per release instant and course, the rotation (decision 181).
 */
function groupsInRotation(candidates: Candidate[]): Candidate[][] {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = c.plan.ok ? `${c.plan.releaseAt}|${c.plan.sub.courseId}` : "flagged";
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === "flagged" ? -1 : b === "flagged" ? 1 : a < b ? -1 : 1))
    .map(([, group]) => rotationOrder(group.map((c) => ({ ...c, seriesId: c.series.id, ledAt: c.series.ledAt }))));
}

/** The member's bell (and email, if they allow it): a date of their series cannot be queued, and why. */
function tellNeedsAttention(deps: SeriesQueueDeps, series: SeriesRow, date: string, why: OccurrenceReason, schedule: Rules["courseSchedule"]): void {
  const key = isUiTextKey(why.key) ? why.key : "booking.incomplete";
  const course = series.courseId === null ? DEFAULT_UI_TEXT["series.any_course"] : courseNameOf(series.courseId, schedule);
  deps.notifier.publish({ type: "series_needs_attention", userId: series.userId, seriesId: series.id, course, date, reason: { key, context: why.context } });
}

/** Whether the request is the first the engine will send for its release and course. */
async function isFirstInLine(db: Db, requestId: number, releaseAt: number, courseId: string): Promise<boolean> {
  const [first] = await db
    .select({ id: bookingRequests.id })
    .from(bookingRequests)
    .where(and(eq(bookingRequests.releaseAt, releaseAt), eq(bookingRequests.courseId, courseId), inArray(bookingRequests.status, ["pending", "held", "needs_attention"])))
    .orderBy(asc(bookingRequests.submittedAt), asc(bookingRequests.id))
    .limit(1);
  return first?.id === requestId;
}

/**
 * A date's request names its partners as any request does: each date is its own game, answered on
 * its own (decision 200). Stored in the transaction that writes the request, so the engine never
 * sees it without them (a date queued at or after its release has them stored unasked); the
 * messages to send once it has committed.
 */
async function storePartnersOfRequest(tx: Db, requestId: number, now: number): Promise<DomainEvent[]> {
  const [request] = await tx.select().from(bookingRequests).where(eq(bookingRequests.id, requestId));
  return request ? (await storeRequestPartners(tx, request, now, now)).events : [];
}

/** A withdrawn date's partners see their invitation go (the member's own page follows the series' change). */
function tellPartners(deps: SeriesQueueDeps, withdrawn: { userId: number; partners?: number[] } | null): void {
  for (const userId of withdrawn?.partners ?? []) if (userId !== withdrawn?.userId) deps.notifier.publish({ type: "invitations_changed", userId });
}

/**
 * Queues one date in one transaction (claim, request, link, its partners' invitations), or marks it
 * as needing attention; the request's id and what its partners are to be told, or null.
 */
async function queueOne(deps: SeriesQueueDeps, c: Candidate, now: number, schedule: Rules["courseSchedule"]): Promise<{ requestId: number; events: DomainEvent[] } | null> {
  const why = c.plan.ok ? await openRequestProblem(deps.database.db, c.series.userId, c.plan.sub, now) : c.plan.why;
  if (!c.plan.ok || why) {
    const reason = why ?? { key: "booking.incomplete", context: {} };
    const isNews = c.existing?.state !== "needs_attention" || c.existing.reasonKey !== reason.key;
    if (c.existing) await markNeedsAttention(deps.database.db, c.existing.id, reason, now);
    else await claimOccurrence(deps.database.db, { seriesId: c.series.id, userId: c.series.userId, playDate: c.date, state: "needs_attention", reason }, now);
    deps.logger.info("standing request date needs attention", { seriesId: c.series.id, date: c.date, reason: reason.key });
    if (isNews) tellNeedsAttention(deps, c.series, c.date, reason, schedule);
    return null;
  }
  const { sub, selection, releaseAt } = c.plan;
  return deps.database.transaction(async (tx) => {
    const row = c.existing ?? (await claimOccurrence(tx, { seriesId: c.series.id, userId: c.series.userId, playDate: c.date, state: "waiting" }, now));
    // Another pass took the date first: it has its request.
    if (!row) return null;
    const { requestId } = await insertRequest(tx, {
      userId: c.series.userId,
      ...requestFields(c.series, sub, selection, c.member, releaseAt),
      status: "pending",
      failureReason: null,
      bookingRef: null,
      latenessMs: null,
      submittedAt: now,
      updatedAt: now,
    });
    if (!(await markQueued(tx, row.id, requestId, now))) throw new Error(`occurrence ${row.id} was moved while it was queued`);
    return { requestId, events: await storePartnersOfRequest(tx, requestId, deps.clock.now()) };
  });
}

/**
 * The series changed: each date not yet released follows it. A queued request is revised in place
 * (keeping its place in line), or withdrawn and the date needs attention when its new form breaks
 * a rule; a date the series no longer plays is cancelled.
 */
export async function reviseOccurrences(deps: SeriesQueueDeps, series: SeriesRow, requestStatus: (id: number) => Promise<string | null>): Promise<void> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const rows = await occurrencesOf(db, [series.id], manilaDate(now));
  const member = await memberOf(db, series.userId);
  const rules = await readRules(db);
  for (const row of rows) {
    if (row.state === "skipped" || row.state === "cancelled") continue;
    if (!playsOn(series, row.playDate)) {
      await withdrawOccurrence(deps, row, "cancelled", now);
      continue;
    }
    if (row.state !== "queued" || row.requestId === null) continue;
    const status = await requestStatus(row.requestId);
    if (status !== "pending" && status !== "held" && status !== "needs_attention") continue;
    const plan = await planOccurrence(db, series, row.times, row.playDate, now, rules, member);
    if (plan.ok) {
      const requestId = row.requestId;
      const events = await deps.database.transaction(async (tx) => {
        await reviseRequest(tx, requestId, requestFields(series, plan.sub, plan.selection, member, plan.releaseAt), now);
        return storePartnersOfRequest(tx, requestId, deps.clock.now());
      });
      publishAll(deps.notifier, events);
    } else {
      tellPartners(deps, await withdrawRequest(db, row.requestId, now));
      await unqueueOccurrence(db, row.id, plan.why, now);
      tellNeedsAttention(deps, series, row.playDate, plan.why, rules.courseSchedule);
    }
  }
  deps.wakeEngine();
}

/** Ends a date: its request is withdrawn unless released (then it stands as it went, and so does the date). */
export async function withdrawOccurrence(deps: SeriesQueueDeps, row: OccurrenceRow, state: "skipped" | "cancelled", now: number): Promise<boolean> {
  if (row.state === "queued" && row.requestId !== null) {
    const withdrawn = await withdrawRequest(deps.database.db, row.requestId, now);
    if (!withdrawn) return false;
    tellPartners(deps, withdrawn);
  }
  return closeOccurrence(deps.database.db, row.id, state, now);
}
