import { useState } from "react";
import { BookingsScreen } from "../features/bookings/bookings-screen.tsx";
import { buildSubmission, draftFromRequest, flightOf } from "../features/book/book-model.ts";
import { useBookingData } from "../features/book/use-booking-data.ts";
import { WatchDialog } from "../features/watches/watch-dialog.tsx";
import { watchBaseOf, type WatchBase } from "../features/watches/watches-api.ts";
import { CheckRequestsButton, useWatches, WatchesSection } from "../features/watches/watches-section.tsx";
import { useLiveData } from "../lib/live-data-store.ts";
import { useSessionStore } from "../lib/session-store.ts";

/** My Bookings: the bookings and requests, the member's slot watches, and the readiness check. */
export default function BookingsPage() {
  const user = useSessionStore((s) => s.user);
  const data = useBookingData();
  const courses = useLiveData((s) => s.rules?.courseSchedule);
  const { watches, reload } = useWatches();
  const [base, setBase] = useState<WatchBase | null>(null);
  const courseName = (id: string) => courses?.find((c) => c.id.toLowerCase() === id.toLowerCase())?.name ?? id;

  return (
    <BookingsScreen
      actions={<CheckRequestsButton />}
      onWatch={(request) => {
        if (!user) return;
        const edit = draftFromRequest(request, data, user);
        if (edit) setBase(watchBaseOf(buildSubmission(edit.draft, flightOf(user, edit.draft), null)));
      }}
    >
      <WatchesSection watches={watches} reload={reload} courseName={courseName} />
      <WatchDialog base={base} onClose={() => setBase(null)} onCreated={reload} />
    </BookingsScreen>
  );
}
