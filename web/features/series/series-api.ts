/** The standing-request calls, their answers checked with the server's schemas. */
import type { BookingSubmission } from "../../../src/domain/booking-submission.ts";
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
}

const DAY_KEYS = ["series.day.1", "series.day.2", "series.day.3", "series.day.4", "series.day.5", "series.day.6", "series.day.7"] as const;
/** The UI-text key of a weekday's short name (1 = Monday … 7 = Sunday). */
export const dayKey = (day: number) => DAY_KEYS[Math.min(7, Math.max(1, Math.trunc(day))) - 1];

export function repeatBaseOf(submission: BookingSubmission): RepeatBase {
  const { selectionOrder, editTarget: _edit, targetDate, ...rest } = submission;
  return { ...rest, date: targetDate, times: selectionOrder.map((s) => s.time) };
}

/** "2026-12-24, 2026-12-31" → the dates, blanks dropped (the server checks each). */
export const parseSkipDates = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);

export const listSeries = (signal?: AbortSignal): Promise<SeriesView[]> => getJson(apiPaths.my.series, seriesListSchema, signal);

export async function createSeries(base: RepeatBase, choices: RepeatChoices): Promise<SeriesView> {
  const { date: _date, times, ...rest } = base;
  const body: BodyAt<typeof apiPaths.my.series, "POST"> = {
    ...rest,
    anyCourse: choices.anyCourse,
    times: choices.useRange ? [] : times,
    fromTime: choices.useRange ? choices.fromTime : null,
    toTime: choices.useRange ? choices.toTime : null,
    weekdays: [...choices.weekdays].sort(),
    startDate: choices.startDate,
    endDate: choices.endDate.trim() === "" ? null : choices.endDate.trim(),
    skipDates: parseSkipDates(choices.skipDates),
  };
  return (await api.postFor(apiPaths.my.series, body, seriesAnswerSchema)).series;
}

export const endSeries = (id: number): Promise<void> => api.post(apiPaths.my.endSeries(id), {});
export const skipOccurrence = (id: number, date: string): Promise<void> => api.post(apiPaths.my.skipOccurrence(id, date), {});

/** The server's keyed error, for the UI text lookup. */
export function failureOf(error: unknown): { message?: string; errorKey?: string } {
  return error instanceof ApiError ? { message: error.serverMessage, errorKey: error.errorKey } : {};
}
