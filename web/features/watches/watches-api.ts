/** The slot-watch calls and the readiness check, their answers checked with the server's schemas. */
import type { BookingSubmission } from "../../../src/domain/booking-submission.ts";
import { suggestedRange, type WatchMode } from "../../../src/domain/watches.ts";
import { readinessResultSchema, watchCreatedSchema, watchesResponseSchema, type ReadinessResult, type WatchView } from "../../../src/features/watches/watches.schemas.ts";
import { api, ApiError, getJson } from "../../lib/api.ts";
import type { BodyAt } from "../../lib/api-contracts.ts";
import { apiPaths } from "../../lib/api-paths.ts";

/** What a watch is made from: a booking form without its chosen times, and a suggested range. */
export type WatchBase = Omit<BookingSubmission, "selectionOrder" | "editTarget"> & { fromTime: string; toTime: string };

export interface WatchChoices {
  fromTime: string;
  toTime: string;
  anyCourse: boolean;
  mode: WatchMode;
  upgradeBookingId: string | null;
}

/** The base of a watch from a booking form: its range spans the chosen times (else the morning). */
export function watchBaseOf(submission: BookingSubmission): WatchBase {
  const { selectionOrder, editTarget: _edit, ...rest } = submission;
  return { ...rest, ...suggestedRange(selectionOrder.map((s) => s.time)) };
}

export const listWatches = (signal?: AbortSignal): Promise<WatchView[]> => getJson(apiPaths.my.watches, watchesResponseSchema, signal);

export async function createWatch(base: WatchBase, choices: WatchChoices): Promise<WatchView> {
  const body: BodyAt<typeof apiPaths.my.watches, "POST"> = { ...base, ...choices, upgradeBookingId: choices.upgradeBookingId || null };
  return (await api.postFor(apiPaths.my.watches, body, watchCreatedSchema)).watch;
}

export const cancelWatch = (id: number): Promise<void> => api.post(apiPaths.my.cancelWatch(id));

export const checkRequests = (): Promise<ReadinessResult> => api.postFor(apiPaths.my.checkRequests, {}, readinessResultSchema);

/** The server's keyed error, for the UI text lookup. */
export function failureOf(error: unknown): { message?: string; errorKey?: string } {
  return error instanceof ApiError ? { message: error.serverMessage, errorKey: error.errorKey } : {};
}
