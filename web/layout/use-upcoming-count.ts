import { countUpcoming } from "../../src/domain/bookings-view.ts";
import { manilaDate } from "../../src/domain/manila-time.ts";
import { useLiveData } from "../lib/live-data-store.ts";

/** The Bookings badge: confirmed bookings and pending requests dated today or later, in Manila. */
export function useUpcomingCount(now: () => number = Date.now): number {
  const bookings = useLiveData((state) => state.bookings);
  const requests = useLiveData((state) => state.requests);
  return countUpcoming(bookings, requests, manilaDate(now()));
}
