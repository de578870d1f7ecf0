/**
 * The member's upcoming items: the home page's 'Next Up' card and the Bookings tab badge
 *.
 */
import { normaliseTime, parseBookingDate } from "./manila-time.ts";

/** Beyond the product's name, type and id: the player's cart and fee, so an edit starts from them. */
export type PlayerChoices = { cart?: string; fee?: string };

export type ConfirmedBookingView = {
  bookingId: string;
  course: string;
  date: string;
  time: string;
  createdAt: string | number;
  playersInfo: ({ name: string; type: string; id: string } & PlayerChoices)[];
};

export type PendingRequestView = {
  id: number;
  course: string;
  play_date: string;
  times: string[];
  status: string;
  release_at: number | null;
  players: ({ name: string; type: string; memberId: string } & PlayerChoices)[];
};

/**
 * What a processing request is going through while the club is in trouble (decision 116): the
 * club does not answer ('waiting_for_club'), or a post's outcome is not known yet and the member's
 * club bookings are being read to settle it ('checking_with_club'). Null otherwise.
 */
export const REQUEST_PHASES = ["waiting_for_club", "checking_with_club"] as const;
export type RequestPhase = (typeof REQUEST_PHASES)[number];

export type NextUpStatus = "Confirmed" | "Pending" | "Failed";

export type NextUpItem =
  | { kind: "booking"; status: "Confirmed"; date: string; time: string; course: string; booking: ConfirmedBookingView }
  | { kind: "request"; status: "Pending" | "Failed"; date: string; time: string; course: string; request: PendingRequestView };

/** The badge status of a request the member still has to act on or wait for; null for any other. */
export function openRequestStatus(request: Pick<PendingRequestView, "status">): "Pending" | "Failed" | null {
  const status = request.status.trim().toLowerCase();
  // A request needing attention still waits for its release: it stays in the member's next-up list.
  if (status === "pending" || status === "needs attention") return "Pending";
  if (status === "failed") return "Failed";
  return null;
}

/** A sortable 'HH:mm' (unreadable times sort last within their day). */
function sortableTime(value: string | undefined): string {
  return (value && normaliseTime(value)) ?? "99:99";
}

function upcomingItems(bookings: readonly ConfirmedBookingView[], requests: readonly PendingRequestView[], todayIso: string): NextUpItem[] {
  const items: NextUpItem[] = [];
  for (const booking of bookings) {
    const date = parseBookingDate(booking.date);
    if (date && date >= todayIso) {
      items.push({ kind: "booking", status: "Confirmed", date, time: sortableTime(booking.time), course: booking.course, booking });
    }
  }
  for (const request of requests) {
    const date = parseBookingDate(request.play_date);
    const status = openRequestStatus(request);
    if (date && status && date >= todayIso) {
      items.push({ kind: "request", status, date, time: sortableTime(request.times[0]), course: request.course, request });
    }
  }
  return items;
}

/**
 * The earliest confirmed booking or open request (Pending or Failed) dated today or later, by
 * date then time; a booking comes before a request at the same date and time. Requests in any
 * other status (cancelled, already booked) are left out: the booking itself stands for them.
 * `time` is 'HH:mm', or '99:99' when the source time could not be read.
 */
export function findNextUp(bookings: readonly ConfirmedBookingView[], requests: readonly PendingRequestView[], todayIso: string): NextUpItem | null {
  const items = upcomingItems(bookings, requests, todayIso);
  items.sort((a, b) => a.date.localeCompare(b.date) || a.time.localeCompare(b.time) || Number(a.kind === "request") - Number(b.kind === "request"));
  return items[0] ?? null;
}

/** The Bookings badge: confirmed bookings plus open requests, dated today or later. */
export function countUpcoming(bookings: readonly ConfirmedBookingView[], requests: readonly PendingRequestView[], todayIso: string): number {
  return upcomingItems(bookings, requests, todayIso).length;
}
