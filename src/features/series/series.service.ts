/**
 * A member's standing requests (decision 180): made and changed with the checks of a booking
 * request (the players, options and course against the rules stored now), at most
 * SERIES_LIMITS.maxActivePerMember active at once; ended, skipped or changed one date at a time.
 * A problem that depends on the date (a closed course that weekday, a holiday's rule) is not a
 * refusal: that date needs attention when it comes to be queued.
 */
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { bookingRequests, users } from "../../db/schema.ts";
import { validateBookingSubmission, type SubmissionPlayer } from "../../domain/booking-submission.ts";
import { manilaDate } from "../../domain/manila-time.ts";
import { checkSeriesCalendar, isValidTimeRange, nextOccurrenceDates, playsOn, SERIES_LIMITS, type SeriesCalendar } from "../../domain/series.ts";
import type { SessionUser } from "../../domain/session-user.ts";
import type { UiTextKey } from "../../domain/ui-text/index.ts";
import { AppError, textError } from "../../lib/errors.ts";
import {
  claimOccurrence,
  countActiveSeries,
  endSeries,
  findOccurrence,
  findSeries,
  insertSeries,
  occurrencesOf,
  setOccurrenceTimes,
  updateSeries,
  type SeriesFields,
  type SeriesRow,
} from "../../lifecycle/series-lifecycle.ts";
import { recordAudit } from "../../services/audit.service.ts";
import { readRules } from "../../services/booking-config.service.ts";
import { planOccurrence, queueDueOccurrences, reviseOccurrences, withdrawOccurrence, type SeriesQueueDeps } from "../../services/series-occurrences.ts";
import { submissionGuards } from "../../services/submission-context.ts";
import type { SeriesInput } from "./series-input.ts";
import type { SeriesView } from "./series.schemas.ts";
import { listSeries } from "./series-view.ts";

export type SeriesDeps = Pick<AppDeps, "database" | "clock" | "logger" | "notifier" | "sessions" | "releaseEngine">;

/** Problems of the template that depend on the date: not refusals, that date needs attention when it comes. */
const DATE_DEPENDENT = new Set([
  "booking.date_past",
  "booking.date_not_bookable",
  "booking.course_closed",
  "booking.time_outside_window",
  "booking.time_not_on_sheet",
  "booking.time_not_on_grid",
  "booking.time_past",
  "booking.max_players",
  "booking.max_guests",
  "booking.min_players",
]);

/** A course named by id or name (the check has found it exists), as the schedule spells its id. */
function courseIdOf(schedule: readonly { id: string; name: string }[], wanted: string): string {
  const key = wanted.trim().toLowerCase();
  return schedule.find((c) => c.id.toLowerCase() === key || c.name.toLowerCase() === key)?.id ?? wanted.trim();
}

const queueDeps = (deps: SeriesDeps): SeriesQueueDeps => ({ ...deps, wakeEngine: () => deps.releaseEngine.wake() });

const refuse = (status: 400 | 404 | 409, key: UiTextKey, context: Record<string, string> = {}) => textError(status, key, context);

/** The checked fields of a series, or a 400 naming the first problem. */
async function checkedFields(db: Db, user: SessionUser, input: SeriesInput, now: number, keptStart?: string): Promise<SeriesFields> {
  const calendar: SeriesCalendar = {
    weekdays: [...new Set(input.weekdays)].sort(),
    startDate: input.startDate.trim(),
    endDate: input.endDate?.trim() || null,
    skipDates: [...new Set(input.skipDates.map((d) => d.trim()))].sort(),
  };
  // A change may keep a first date that has gone by since the series was made.
  const today = manilaDate(now);
  const problem = checkSeriesCalendar(calendar, keptStart !== undefined && calendar.startDate === keptStart && keptStart < today ? keptStart : today);
  if (problem) throw refuse(400, problem.key, problem.context);
  const times = input.times.map((t) => t.trim());
  const fromTime = input.fromTime?.trim() ?? "";
  const toTime = input.toTime?.trim() ?? "";
  if (times.length === 0 && fromTime === "" && toTime === "") throw refuse(400, "series.error.no_times");
  if (times.length === 0 && !isValidTimeRange(fromTime, toTime)) throw refuse(400, "series.error.bad_range");

  // The template checked as a request on its first date: what does not depend on the date must hold.
  const rules = await readRules(db);
  const member = (await db.select({ memberId: users.memberId, name: users.name }).from(users).where(eq(users.id, user.id)).limit(1))[0];
  const firstDate = nextOccurrenceDates(calendar, calendar.startDate, 1)[0] ?? calendar.startDate;
  const { options } = await submissionGuards(db, now, firstDate);
  const course = input.anyCourse ? (rules.courseSchedule[0]?.id ?? input.course) : input.course;
  const outcome = validateBookingSubmission(
    {
      course,
      targetDate: firstDate,
      selectionOrder: (times.length > 0 ? times : [fromTime]).map((time) => ({ time, slotId: null })),
      memberCartType: input.memberCartType,
      playerDetails: input.playerDetails,
    },
    {
      courses: rules.courseSchedule,
      rules: rules.bookingRules.rules,
      holidays: rules.bookingRules.holidays,
      windows: rules.allowedWindows,
      self: { memberId: member?.memberId ?? user.memberId, name: member?.name ?? user.name },
      todayIso: manilaDate(now),
      options,
    },
  );
  if (!outcome.ok && !DATE_DEPENDENT.has(outcome.problem.errorKey)) throw new AppError(400, outcome.problem.message, outcome.problem.errorKey);
  const courseId = input.anyCourse ? null : outcome.ok ? outcome.value.courseId : courseIdOf(rules.courseSchedule, input.course);
  return {
    courseId,
    times: times.length > 0 ? times : null,
    fromTime: times.length > 0 ? null : fromTime,
    toTime: times.length > 0 ? null : toTime,
    players: input.playerDetails.players as SubmissionPlayer[],
    memberCartType: input.memberCartType.trim(),
    // A change without it keeps the series' own setting, as an edit of a request does.
    ...(input.partnersMustAccept === undefined ? {} : { partnersMustAccept: input.partnersMustAccept }),
    weekdays: [...calendar.weekdays],
    startDate: calendar.startDate,
    endDate: calendar.endDate,
    skipDates: [...calendar.skipDates],
    updatedAt: now,
  };
}

async function viewOf(db: Db, userId: number, id: number, now: number): Promise<SeriesView> {
  const view = (await listSeries(db, userId, now)).find((s) => s.id === id);
  if (!view) throw refuse(404, "series.error.not_found");
  return view;
}

async function ownActiveSeries(db: Db, userId: number, id: number): Promise<SeriesRow> {
  const series = await findSeries(db, id);
  if (!series || series.userId !== userId) throw refuse(404, "series.error.not_found");
  if (series.status !== "active") throw refuse(409, "series.error.ended");
  return series;
}

const requestStatusOf = (db: Db) => async (id: number) =>
  (await db.select({ status: bookingRequests.status }).from(bookingRequests).where(eq(bookingRequests.id, id)).limit(1))[0]?.status ?? null;

/**
 * POST /v1/my/series. Its dates that can be queued now are queued at once (its own pass: only
 * dates queued at one moment for one release take turns, decision 181).
 */
export async function createSeries(deps: SeriesDeps, user: SessionUser, input: SeriesInput): Promise<SeriesView> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const fields = await checkedFields(db, user, input, now);
  if (!(await deps.sessions.hasLogin(user.id))) throw textError(400, "club.no_login");
  if ((await countActiveSeries(db, user.id)) >= SERIES_LIMITS.maxActivePerMember) throw refuse(400, "series.error.too_many", { max: String(SERIES_LIMITS.maxActivePerMember) });
  const row = await insertSeries(db, { ...fields, userId: user.id, createdAt: now });
  await recordAudit(db, {
    at: now,
    actorUserId: user.id,
    action: "series.create",
    target: `series ${row.id}`,
    outcome: "created",
    detail: `${fields.weekdays.join(",")} from ${fields.startDate}`,
  });
  deps.logger.info("standing request made", { seriesId: row.id, userId: user.id, weekdays: fields.weekdays, start: fields.startDate });
  await queueDueOccurrences(queueDeps(deps), row.id);
  deps.notifier.publish({ type: "series_changed", userId: user.id, seriesId: row.id });
  return viewOf(db, user.id, row.id, deps.clock.now());
}

/** PUT /v1/my/series/{id}: the series changes, and so does every date not yet released. */
export async function changeSeries(deps: SeriesDeps, user: SessionUser, id: number, input: SeriesInput): Promise<SeriesView> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const current = await ownActiveSeries(db, user.id, id);
  const fields = await checkedFields(db, user, input, now, current.startDate);
  const row = await updateSeries(db, user.id, id, fields, now);
  if (!row) throw refuse(409, "series.error.ended");
  await reviseOccurrences(queueDeps(deps), row, requestStatusOf(db));
  await recordAudit(db, { at: now, actorUserId: user.id, action: "series.change", target: `series ${id}`, outcome: "changed" });
  await queueDueOccurrences(queueDeps(deps), id);
  deps.notifier.publish({ type: "series_changed", userId: user.id, seriesId: id });
  return viewOf(db, user.id, id, deps.clock.now());
}

/** POST /v1/my/series/{id}/end: ended, and every date not yet released is cancelled. */
export async function endSeriesOf(deps: SeriesDeps, userId: number, id: number): Promise<void> {
  const { db } = deps.database;
  const now = deps.clock.now();
  await ownActiveSeries(db, userId, id);
  if (!(await endSeries(db, userId, id, now))) throw refuse(409, "series.error.ended");
  for (const row of await occurrencesOf(db, [id], manilaDate(now))) {
    if (row.state !== "skipped" && row.state !== "cancelled") await withdrawOccurrence(queueDeps(deps), row, "cancelled", now);
  }
  await recordAudit(db, { at: now, actorUserId: userId, action: "series.end", target: `series ${id}`, outcome: "ended" });
  deps.releaseEngine.wake();
  deps.notifier.publish({ type: "series_changed", userId, seriesId: id });
}

/** The date as one of the series' own (a weekday of it, inside its dates, today or later). */
function checkPlayDate(series: SeriesRow, date: string, now: number): void {
  if (date < manilaDate(now) || !playsOn(series, date)) throw refuse(400, "series.error.not_a_date", { date: date.slice(0, 32) });
}

/** POST /v1/my/series/{id}/occurrences/{date}/skip: one date skipped (its request withdrawn unless released). */
export async function skipOccurrence(deps: SeriesDeps, userId: number, id: number, date: string): Promise<void> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const series = await ownActiveSeries(db, userId, id);
  checkPlayDate(series, date, now);
  const row = (await findOccurrence(db, id, date)) ?? (await claimOccurrence(db, { seriesId: id, userId, playDate: date, state: "skipped" }, now));
  if (row && row.state !== "skipped" && !(await withdrawOccurrence(queueDeps(deps), row, "skipped", now))) throw refuse(409, "series.error.released", { date });
  await recordAudit(db, { at: now, actorUserId: userId, action: "series.skip", target: `series ${id} ${date}`, outcome: "skipped" });
  deps.releaseEngine.wake();
  deps.notifier.publish({ type: "series_changed", userId, seriesId: id });
}

/**
 * POST /v1/my/series/{id}/occurrences/{date}/change: one date gets its own times (checked as a
 * request for that date would be); kept when the series changes later.
 */
export async function changeOccurrence(deps: SeriesDeps, userId: number, id: number, date: string, times: string[]): Promise<void> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const series = await ownActiveSeries(db, userId, id);
  checkPlayDate(series, date, now);
  const wanted = times.map((t) => t.trim());
  const plan = await planOccurrence(db, series, wanted, date, now);
  if (!plan.ok && !DATE_DEPENDENT.has(plan.why.key)) throw refuse(400, plan.why.key as UiTextKey, plan.why.context);
  const row = (await findOccurrence(db, id, date)) ?? (await claimOccurrence(db, { seriesId: id, userId, playDate: date, state: "waiting", times: wanted }, now));
  if (!row) throw refuse(409, "series.error.released", { date });
  if (row.state === "skipped" || row.state === "cancelled") throw refuse(409, "series.error.not_a_date", { date });
  if (row.state === "queued" && row.requestId !== null) {
    const status = await requestStatusOf(db)(row.requestId);
    if (status !== "pending" && status !== "held" && status !== "needs_attention") throw refuse(409, "series.error.released", { date });
  }
  await setOccurrenceTimes(db, row.id, wanted, now);
  await reviseOccurrences(queueDeps(deps), series, requestStatusOf(db));
  await recordAudit(db, { at: now, actorUserId: userId, action: "series.change_date", target: `series ${id} ${date}`, outcome: "changed", detail: wanted.join(",") });
  await queueDueOccurrences(queueDeps(deps), id);
  deps.notifier.publish({ type: "series_changed", userId, seriesId: id });
}
