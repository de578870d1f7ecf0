/**
 * Bookings → Edit opens /book?edit=request:<id> or ?edit=booking:<id>. Once the item is in the live
 * data, the wizard takes its values and jumps to step 4, and the query is dropped so a
 * later visit starts from the wizard's own state.
 */
import { useEffect } from "react";
import { useSearchParams } from "react-router-dom";
import type { SessionUser } from "../../lib/types.ts";
import { draftFromBooking, draftFromRequest, parseEditQuery, type BookingData, type EditQuery } from "./book-model.ts";
import { useBookStore } from "./book-store.ts";

function findEdit(query: EditQuery, data: BookingData, user: SessionUser) {
  if (query.kind === "request") {
    const request = data.requests.find((r) => r.id === query.id);
    return request ? draftFromRequest(request, data, user) : null;
  }
  const booking = data.bookings.find((b) => b.bookingId === query.bookingId);
  return booking ? draftFromBooking(booking, data, user) : null;
}

/** True when the query names an item that the loaded data does not hold. */
export function useEditQuery(data: BookingData, user: SessionUser, hasLoaded: boolean): boolean {
  const [params, setParams] = useSearchParams();
  const query = parseEditQuery(params.get("edit"));
  const edit = query ? findEdit(query, data, user) : null;

  useEffect(() => {
    // Not listed yet: the live data may still be loading; this runs again when it arrives.
    if (!edit) return;
    useBookStore.getState().startEdit(edit.target, edit.draft);
    setParams({}, { replace: true });
  }, [edit, setParams]);

  return query !== null && edit === null && hasLoaded;
}
