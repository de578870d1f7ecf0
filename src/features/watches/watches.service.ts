/**
 * A member's slot watches: made with the same checks as a booking request (the domain's
 * submission rules over the rules stored now, the form options, a club login), at most
 * `max_active_watches` at once; listed with what was tried; cancelled by their member only.
 */
import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { bookings, users } from "../../db/schema.ts";
import { validateBookingSubmission } from "../../domain/booking-submission.ts";
import { offeredDateRange } from "../../domain/date-kinds.ts";
import { manilaDate } from "../../domain/manila-time.ts";
import { isRequestReasonKey, renderReason } from "../../domain/request-reasons.ts";
import { DEFAULT_UI_TEXT } from "../../domain/ui-text/index.ts";
import { isValidRange, isWatchReasonKey } from "../../domain/watches.ts";
import type { SessionUser } from "../../domain/session-user.ts";
import { AppError, badRequest, textError } from "../../lib/errors.ts";
import { attemptsOfWatches, cancelOwnWatch, countActiveWatches, findWatch, insertWatch, watchesOf, type WatchRow } from "../../lifecycle/watch-lifecycle.ts";
import { readRules } from "../../services/booking-config.service.ts";
import { readReasonTexts } from "../../services/options-and-texts.service.ts";
import { readSettings } from "../../services/settings.service.ts";
import { submissionGuards } from "../../services/submission-context.ts";
import { flightToStoredPlayers } from "../../services/club-players.ts";
import type { CreateWatchInput } from "./watches-input.ts";
import type { WatchView } from "./watches.schemas.ts";
import { publishAll, storeWatchPartners } from "../../services/partners.ts";

/** What the watch calls use of the app. */
export type WatchesDeps = Pick<AppDeps, "database" | "clock" | "logger" | "sessions" | "slotWatch" | "notifier">;

const error = (status: 400 | 404 | 409, key: keyof typeof DEFAULT_UI_TEXT, context: Record<string, string> = {}) =>
  new AppError(status, renderReason(DEFAULT_UI_TEXT[key], context), key);

/** The texts of a watch's reasons, and its attempts' (request reasons), as an admin worded them (or their defaults). */
const textsFor = (db: Db, keys: string[]) => readReasonTexts(db, keys, (key) => isWatchReasonKey(key) || isRequestReasonKey(key));

export async function listWatches(db: Db, userId: number): Promise<WatchView[]> {
  const rows = await watchesOf(db, userId);
  const attempts = await attemptsOfWatches(
    db,
    rows.map((r) => r.id),
  );
  const render = await textsFor(db, [...rows.flatMap((r) => (r.reasonKey ? [r.reasonKey] : [])), ...attempts.flatMap((a) => (a.answerKey ? [a.answerKey] : []))]);
  return rows.map((row) =>
    toView(
      row,
      attempts.filter((a) => a.watchId === row.id),
      render,
    ),
  );
}

function toView(
  row: WatchRow,
  attempts: Awaited<ReturnType<typeof attemptsOfWatches>>,
  render: (key: string | null, context: Record<string, string> | null) => string | null,
): WatchView {
  return {
    id: row.id,
    date: row.playDate,
    course: row.courseId,
    fromTime: row.fromTime,
    toTime: row.toTime,
    mode: row.mode,
    upgradeBookingId: row.upgradeRef,
    status: row.status,
    reason: render(row.reasonKey, row.reasonContext),
    reasonKey: row.reasonKey,
    foundCourse: row.foundCourseId,
    foundTime: row.foundTime,
    bookingId: row.bookingRef,
    createdAt: row.createdAt,
    tried: attempts.map((a) => ({ course: a.courseId, time: a.time, at: a.sentAt, outcome: a.state === "sent" ? null : a.outcome, answer: render(a.answerKey, a.answerContext) })),
  };
}

/** POST /v1/my/watches: checked as a request is, at the first and the last time of the range. */
export async function createWatch(deps: WatchesDeps, user: SessionUser, input: CreateWatchInput): Promise<WatchView> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const fromTime = input.fromTime.trim();
  const toTime = input.toTime.trim();
  if (!isValidRange(fromTime, toTime)) throw error(400, "watches.error.bad_range");

  const rules = await readRules(db);
  const member = (await db.select({ memberId: users.memberId, name: users.name }).from(users).where(eq(users.id, user.id)).limit(1))[0];
  const context = {
    courses: rules.courseSchedule,
    rules: rules.bookingRules.rules,
    holidays: rules.bookingRules.holidays,
    windows: rules.allowedWindows,
    self: { memberId: member?.memberId ?? user.memberId, name: member?.name ?? user.name },
    todayIso: manilaDate(now),
    ...offeredDateRange(now, rules.appSettings),
    // A watch's range ends need not be tee times themselves: the sheet's times are not checked here.
    ...withoutLiveTimes(await submissionGuards(db, now, manilaDate(now))),
  };
  // The range's last time must still be ahead; its first may have passed today.
  const checked = [toTime, fromTime].map((time, i) =>
    validateBookingSubmission({ ...input, selectionOrder: [{ time, slotId: null }] }, i === 0 ? context : { ...context, nowTime: undefined }),
  );
  for (const outcome of checked) if (!outcome.ok) throw badRequest(outcome.problem.message, outcome.problem.errorKey);
  const sub = checked[0].ok ? checked[0].value : null;
  if (!sub) throw textError(400, "validation.invalid", { field: "toTime" });

  if (!(await deps.sessions.hasLogin(user.id))) throw textError(400, "club.no_login");
  const settings = await readSettings(db);
  if ((await countActiveWatches(db, user.id)) >= settings.max_active_watches) throw error(400, "watches.error.too_many", { max: String(settings.max_active_watches) });
  const courseId = input.anyCourse ? null : sub.courseId;
  const mine = await watchesOf(db, user.id);
  if (mine.some((w) => w.status === "watching" && w.playDate === sub.targetDate && w.courseId === courseId && w.fromTime === fromTime && w.toTime === toTime))
    throw error(409, "watches.error.duplicate");

  let upgradeRef: string | null = null;
  if (input.upgradeBookingId) {
    if (input.mode !== "book") throw error(400, "watches.error.upgrade_notify");
    const held = await db
      .select()
      .from(bookings)
      .where(and(eq(bookings.userId, user.id), eq(bookings.bookingRef, input.upgradeBookingId)))
      .limit(1);
    if (!held[0] || held[0].playDate !== sub.targetDate) throw error(400, "watches.error.upgrade_booking");
    upgradeRef = held[0].bookingRef;
  }
  const { flight } = sub;
  // The watch and its partners' invitations in one transaction: the watch job never books a flight whose partners are not stored.
  const {
    watch: row,
    event,
    told,
  } = await deps.database.transaction(async (tx) => {
    const made = await insertWatch(tx, {
      userId: user.id,
      playDate: sub.targetDate,
      courseId,
      fromTime,
      toTime,
      players: flightToStoredPlayers(flight, member?.name ?? user.name),
      memberCartType: sub.memberCartType,
      mode: input.mode,
      upgradeRef,
      createdAt: now,
      updatedAt: now,
    });
    return { ...made, told: await storeWatchPartners(tx, made.watch, deps.clock.now()) };
  });
  deps.logger.info("slot watch made", { watchId: row.id, userId: user.id, date: row.playDate, course: courseId, from: fromTime, to: toTime, mode: row.mode });
  publishAll(deps.notifier, told);
  deps.slotWatch.wake();
  deps.notifier.publish(event);
  return toView(row, [], () => null);
}

export async function cancelWatch(deps: WatchesDeps, userId: number, id: number): Promise<void> {
  const { db } = deps.database;
  const ended = await cancelOwnWatch(db, userId, id, deps.clock.now());
  if (ended) {
    deps.notifier.publish(ended);
    return;
  }
  const row = await findWatch(db, id);
  if (!row || row.userId !== userId) throw error(404, "watches.error.not_found");
  throw error(409, "watches.error.not_active");
}

function withoutLiveTimes<T extends { liveTimes?: unknown }>(guards: T): Omit<T, "liveTimes"> {
  const { liveTimes: _ignored, ...rest } = guards;
  return rest;
}
