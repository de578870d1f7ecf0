/** The live data the booking screens use, read from the shared live-data store. */
import { useMemo } from "react";
import { shallow } from "zustand/vanilla/shallow";
import { emptyWindows } from "../../../src/domain/windows.ts";
import { useLiveData } from "../../lib/live-data-store.ts";
import type { BookingData } from "./book-model.ts";

export function useBookingData(): BookingData {
  const state = useLiveData(
    (s) => ({
      dates: s.dates,
      teeTimes: s.teeTimes,
      rules: s.rules,
      bookings: s.bookings,
      requests: s.requests,
      savedPlayers: s.savedPlayers,
    }),
    shallow,
  );
  return useMemo<BookingData>(
    () => ({
      dates: state.dates,
      teeTimes: state.teeTimes,
      courses: state.rules?.courseSchedule ?? [],
      rules: state.rules?.bookingRules.rules ?? [],
      holidays: state.rules?.bookingRules.holidays ?? [],
      windows: state.rules?.allowedWindows ?? emptyWindows(),
      bookings: state.bookings,
      requests: state.requests,
      savedPlayers: state.savedPlayers,
    }),
    [state],
  );
}
