/** How the Bookings page reads and orders the member's bookings and requests. */
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { REQUEST_PHASES, type ConfirmedBookingView, type PendingRequestView } from "../../../src/domain/bookings-view.ts";
import { formatEventDate, manilaDate, normaliseTime, parseBookingDate } from "../../../src/domain/manila-time.ts";
import { paths } from "../../paths.ts";

/** One try of the release engine, and a request with what the engine did about it (GET /v1/my/requests). */
export type { AttemptRow as RequestAttempt, RequestRow } from "../../../src/features/bookings/bookings-responses.schemas.ts";

/** 'Mar 5, 2025' from either date format the bookings carry; the raw text when it is neither. */
export function displayDate(value: string): string {
  const iso = parseBookingDate(value);
  return iso ? formatEventDate(iso) : value;
}

export function displayTime(value: string | undefined): string {
  if (!value) return "–";
  return normaliseTime(value) ?? value;
}

function sortKey(date: string, time: string | undefined): string {
  return `${parseBookingDate(date) ?? "9999-99-99"} ${normaliseTime(time ?? "") ?? "99:99"}`;
}

export function sortBookings(bookings: readonly ConfirmedBookingView[]): ConfirmedBookingView[] {
  return [...bookings].sort((a, b) => sortKey(a.date, a.time).localeCompare(sortKey(b.date, b.time)));
}

export function sortRequests<T extends PendingRequestView>(requests: readonly T[]): T[] {
  return [...requests].sort((a, b) => sortKey(a.play_date, a.times[0]).localeCompare(sortKey(b.play_date, b.times[0])) || a.id - b.id);
}

export type RequestStatusKind = "pending" | "processing" | "needs_attention" | "failed" | "other";

export function requestStatusKind(status: string): RequestStatusKind {
  const s = status.trim().toLowerCase();
  if (s === "needs attention") return "needs_attention";
  return s === "pending" || s === "processing" || s === "failed" ? s : "other";
}

/**
 * The UI-text key of a request's status: while Processing, what the club's trouble means for it
 * (waiting for the club, checking with the club) when the server says so; null for a status the
 * page shows as the server wrote it.
 */
export function requestStatusTextKey(request: { status: string; phase?: string | null }): UiTextKey | null {
  const kind = requestStatusKind(request.status);
  if (kind === "other") return null;
  if (kind === "processing" && request.phase && (REQUEST_PHASES as readonly string[]).includes(request.phase))
    return `bookings.status.${request.phase as (typeof REQUEST_PHASES)[number]}`;
  return `bookings.status.${kind}`;
}

/** A request waiting for its release shows when it goes out; any other shows its status. */
export function showsReleaseTime(request: Pick<PendingRequestView, "status" | "release_at">): boolean {
  return requestStatusKind(request.status) === "pending" && request.release_at != null;
}

/** An instant (epoch ms) or a date text as 'Mar 5, 2025' in Manila; null when unreadable. */
export function displayInstantDate(value: string | number | null | undefined): string | null {
  if (value == null || value === "") return null;
  if (typeof value === "number") return Number.isFinite(value) ? formatEventDate(manilaDate(value)) : null;
  const asNumber = Number(value);
  if (/^\d+$/.test(value) && Number.isFinite(asNumber)) return formatEventDate(manilaDate(asNumber));
  const parsed = Date.parse(value);
  if (!Number.isNaN(parsed)) return formatEventDate(manilaDate(parsed));
  return displayDate(value);
}

/** The Book page reads this query to open the wizard on the item (kept in step with its parser). */
export function editLinkFor(target: { kind: "request"; id: number } | { kind: "booking"; bookingId: string }): string {
  const value = target.kind === "request" ? `request:${target.id}` : `booking:${target.bookingId}`;
  return `${paths.book}?edit=${encodeURIComponent(value)}`;
}
