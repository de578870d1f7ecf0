/**
 * A member's standing requests as the Bookings page lists them: each with its next dates, the
 * state of each (from its request once queued), why one needs attention, and where a queued date
 * stands in its release's line (decision 181).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { SubmissionPlayer } from "../../domain/booking-submission.ts";
import { bookingRequests, type RequestStatus } from "../../db/schema.ts";
import { manilaDate } from "../../domain/manila-time.ts";
import { releaseInstant } from "../../domain/release-time.ts";
import { nextOccurrenceDates, queueOpensAt, SERIES_LIMITS } from "../../domain/series.ts";
import { occurrencesOf, seriesOfMember, type OccurrenceRow, type SeriesRow } from "../../lifecycle/series-lifecycle.ts";
import { readRules } from "../../services/booking-config.service.ts";
import { readReasonTexts } from "../../services/options-and-texts.service.ts";
import { displayName } from "../../services/club-players.ts";
import type { OccurrenceView, OccurrenceViewState, SeriesView } from "./series.schemas.ts";

type RequestRow = typeof bookingRequests.$inferSelect;
type Settings = Awaited<ReturnType<typeof readRules>>["appSettings"];

const REQUEST_STATES: Record<RequestStatus, OccurrenceViewState> = {
  pending: "pending",
  held: "held",
  needs_attention: "needs_attention",
  processing: "processing",
  confirmed: "booked",
  failed: "failed",
  cancelled: "cancelled",
};

/** Statuses of requests still waiting for their release: those that stand in its line. */
const IN_LINE: RequestStatus[] = ["pending", "held", "needs_attention"];

/** Each queued request's place among the requests released at its instant on its course (the engine's order). */
async function linePlaces(db: Db, requests: RequestRow[]): Promise<Map<number, { place: number; of: number }>> {
  const places = new Map<number, { place: number; of: number }>();
  const waiting = requests.filter((r) => IN_LINE.includes(r.status));
  for (const key of new Set(waiting.map((r) => `${r.releaseAt}|${r.courseId}`))) {
    const [releaseAt, courseId] = key.split("|");
    const line = await db
      .select({ id: bookingRequests.id })
      .from(bookingRequests)
      .where(and(eq(bookingRequests.releaseAt, Number(releaseAt)), eq(bookingRequests.courseId, courseId), inArray(bookingRequests.status, IN_LINE)))
      .orderBy(asc(bookingRequests.submittedAt), asc(bookingRequests.id));
    for (const [i, r] of line.entries()) places.set(r.id, { place: i + 1, of: line.length });
  }
  return places;
}

function occurrenceView(
  series: SeriesRow,
  date: string,
  row: OccurrenceRow | undefined,
  request: RequestRow | undefined,
  settings: Settings,
  line: { place: number; of: number } | undefined,
  render: (key: string | null, context: Record<string, string> | null) => string | null,
): OccurrenceView {
  const ownTimes = row?.times ?? null;
  const seriesTimes = series.times ?? [];
  const base = {
    date,
    requestId: request?.id ?? null,
    course: request?.courseId ?? series.courseId,
    times: request ? request.selection.map((s) => s.time) : (ownTimes ?? seriesTimes),
    isChangedAlone: ownTimes !== null,
    releaseAt: releaseInstant(date, settings),
    queuesAt: null as number | null,
    reason: null as string | null,
    reasonKey: null as string | null,
    line: null as { place: number; of: number } | null,
  };
  if (!row || row.state === "waiting") return { ...base, state: "scheduled", queuesAt: queueOpensAt(date, settings) };
  if (row.state === "needs_attention") return { ...base, state: "needs_attention", reason: render(row.reasonKey, row.reasonContext), reasonKey: row.reasonKey };
  if (row.state === "skipped" || row.state === "cancelled" || !request) return { ...base, state: row.state === "queued" ? "cancelled" : row.state };
  return {
    ...base,
    state: REQUEST_STATES[request.status],
    releaseAt: request.releaseAt,
    reason: render(request.reasonKey, request.reasonContext) ?? request.failureReason,
    reasonKey: request.reasonKey,
    line: line ?? null,
  };
}

/** The member's series, active first, each with its next dates from today on. */
export async function listSeries(db: Db, userId: number, now: number): Promise<SeriesView[]> {
  const all = await seriesOfMember(db, userId);
  const today = manilaDate(now);
  const rows = await occurrencesOf(
    db,
    all.map((s) => s.id),
    today,
  );
  const requestIds = rows.flatMap((r) => (r.requestId === null ? [] : [r.requestId]));
  const requests = requestIds.length === 0 ? [] : await db.select().from(bookingRequests).where(inArray(bookingRequests.id, requestIds));
  const places = await linePlaces(db, requests);
  const { appSettings } = await readRules(db);
  const render = await readReasonTexts(db, [...rows.flatMap((r) => (r.reasonKey ? [r.reasonKey] : [])), ...requests.flatMap((r) => (r.reasonKey ? [r.reasonKey] : []))]);
  const ordered = [...all.filter((s) => s.status === "active"), ...all.filter((s) => s.status === "ended")];
  return ordered.map((series) => {
    const own = rows.filter((r) => r.seriesId === series.id);
    const planned = series.status === "active" ? nextOccurrenceDates(series, today, SERIES_LIMITS.listedAhead) : [];
    const dates = [...new Set([...own.map((r) => r.playDate), ...planned])].sort().slice(0, SERIES_LIMITS.listedAhead);
    return {
      id: series.id,
      status: series.status,
      course: series.courseId,
      times: series.times,
      fromTime: series.fromTime,
      toTime: series.toTime,
      weekdays: series.weekdays,
      startDate: series.startDate,
      endDate: series.endDate,
      skipDates: series.skipDates,
      playerNames: (series.players as { firstName?: string; lastName?: string; searchLastName?: string }[]).map((p) =>
        displayName({ firstName: p.firstName ?? "", lastName: p.lastName ?? p.searchLastName ?? "" }),
      ),
      players: series.players as SubmissionPlayer[],
      memberCartType: series.memberCartType,
      partnersMustAccept: series.partnersMustAccept,
      createdAt: series.createdAt,
      next: dates.map((date) => {
        const row = own.find((r) => r.playDate === date);
        const request = row?.requestId == null ? undefined : requests.find((r) => r.id === row.requestId);
        return occurrenceView(series, date, row, request, appSettings, request ? places.get(request.id) : undefined, render);
      }),
    };
  });
}
