/** The standing-request calls, their answers checked with the server's schemas. */
import type { BookingSubmission } from "../../../src/domain/booking-submission.ts";
import { isGuestType } from "../../../src/domain/players.ts";
import { seriesAnswerSchema, seriesListSchema, type SeriesView } from "../../../src/features/series/series.schemas.ts";
import { api, ApiError, getJson } from "../../lib/api.ts";
import type { BodyAt } from "../../lib/api-contracts.ts";
import { apiPaths } from "../../lib/api-paths.ts";

/** What a standing request is made from: a booking form (its date becomes the first date, its times the ordered times). */
export type RepeatBase = Omit<BookingSubmission, "selectionOrder" | "editTarget" | "targetDate"> & { date: string; times: string[] };

export interface RepeatChoices {
  weekdays: number[];
  startDate: string;
  endDate: string;
  skipDates: string;
  anyCourse: boolean;
  useRange: boolean;
  fromTime: string;
  toTime: string;
  /** Each date is sent only if every partner has accepted by the readiness check (decision 200). */
  partnersMustAccept: boolean;
}

const DAY_KEYS = ["series.day.1", "series.day.2", "series.day.3", "series.day.4", "series.day.5", "series.day.6", "series.day.7"] as const;
/** The UI-text key of a weekday's short name (1 = Monday … 7 = Sunday). */
export const dayKey = (day: number) => DAY_KEYS[Math.min(7, Math.max(1, Math.trunc(day))) - 1];

export function repeatBaseOf(submission: BookingSubmission): RepeatBase {
  const { selectionOrder, editTarget: _edit, targetDate, ...rest } = submission;
  return { ...rest, date: targetDate, times: selectionOrder.map((s) => s.time) };
}

/** "2026-12-24, 2026-12-31" (or "06:00, 06:08") → the items, blanks dropped (the server checks each). */
export const parseList = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);

export const listSeries = (signal?: AbortSignal): Promise<SeriesView[]> => getJson(apiPaths.my.series, seriesListSchema, signal);

/** The choices a series was made with, to change it. */
export function choicesOf(series: SeriesView): RepeatChoices {
  return {
    weekdays: [...series.weekdays],
    startDate: series.startDate,
    endDate: series.endDate ?? "",
    skipDates: series.skipDates.join(", "),
    anyCourse: series.course === null,
    useRange: series.times === null,
    fromTime: series.fromTime ?? series.times?.[0] ?? "06:00",
    toTime: series.toTime ?? series.times?.[series.times.length - 1] ?? "09:00",
    partnersMustAccept: series.partnersMustAccept,
  };
}

/** Whether the base's flight names another member by membership number: only then may partners be asked to accept. */
export function namesPartners(base: Pick<RepeatBase, "playerDetails">): boolean {
  return base.playerDetails.players.some((p) => !isGuestType(p.type) && (p.searchIdNumber ?? "").trim() !== "");
}

/** A series as the base of its own change: its course, times, players, cart and whether every partner must accept. */
export function baseOfSeries(series: SeriesView, fallbackCourse: string): RepeatBase {
  return {
    course: series.course ?? fallbackCourse,
    memberCartType: series.memberCartType,
    partnersMustAccept: series.partnersMustAccept,
    playerDetails: { players: series.players },
    date: series.startDate,
    times: series.times ?? [],
  };
}

function bodyOf(base: RepeatBase, choices: RepeatChoices): BodyAt<typeof apiPaths.my.series, "POST"> {
  const { date: _date, times, ...rest } = base;
  return {
    ...rest,
    anyCourse: choices.anyCourse,
    times: choices.useRange ? [] : times,
    fromTime: choices.useRange ? choices.fromTime : null,
    toTime: choices.useRange ? choices.toTime : null,
    weekdays: [...choices.weekdays].sort(),
    startDate: choices.startDate,
    endDate: choices.endDate.trim() === "" ? null : choices.endDate.trim(),
    skipDates: parseList(choices.skipDates),
    partnersMustAccept: choices.partnersMustAccept,
  };
}

export async function createSeries(base: RepeatBase, choices: RepeatChoices): Promise<SeriesView> {
  return (await api.postFor(apiPaths.my.series, bodyOf(base, choices), seriesAnswerSchema)).series;
}

export async function changeSeries(id: number, base: RepeatBase, choices: RepeatChoices): Promise<SeriesView> {
  return (await api.putFor(apiPaths.my.oneSeries(id), bodyOf(base, choices), seriesAnswerSchema)).series;
}

export const changeOccurrence = (id: number, date: string, times: string[]): Promise<void> => api.post(apiPaths.my.changeOccurrence(id, date), { times });

export const endSeries = (id: number): Promise<void> => api.post(apiPaths.my.endSeries(id), {});
export const skipOccurrence = (id: number, date: string): Promise<void> => api.post(apiPaths.my.skipOccurrence(id, date), {});

/** The server's keyed error, for the UI text lookup. */
export function failureOf(error: unknown): { message?: string; errorKey?: string } {
  return error instanceof ApiError ? { message: error.serverMessage, errorKey: error.errorKey } : {};
}
