import { useState } from "react";
import { BookingsScreen } from "../features/bookings/bookings-screen.tsx";
import { buildSubmission, draftFromRequest, flightOf } from "../features/book/book-model.ts";
import { useBookingData } from "../features/book/use-booking-data.ts";
import { RepeatDialog } from "../features/series/repeat-dialog.tsx";
import { repeatBaseOf, type RepeatBase } from "../features/series/series-api.ts";
import { SeriesSection, useSeries } from "../features/series/series-section.tsx";
import { WatchDialog } from "../features/watches/watch-dialog.tsx";
import { watchBaseOf, type WatchBase } from "../features/watches/watches-api.ts";
import { CheckRequestsButton, useWatches, WatchesSection } from "../features/watches/watches-section.tsx";
import { AnswerBeside, PartnersSection, useInvitations } from "../features/partners/partners-section.tsx";
import { useLiveData } from "../lib/live-data-store.ts";
import { useSessionStore } from "../lib/session-store.ts";

/** My Bookings: the bookings and requests, playing partners' invitations and answers, the member's standing requests and slot watches, and the readiness check. */
export default function BookingsPage() {
  const user = useSessionStore((s) => s.user);
  const data = useBookingData();
  const courses = useLiveData((s) => s.rules?.courseSchedule);
  const { watches, reload } = useWatches();
  const { series, reload: reloadSeries } = useSeries();
  const { invitations, reload: reloadInvitations } = useInvitations();
  const [base, setBase] = useState<WatchBase | null>(null);
  const [repeat, setRepeat] = useState<RepeatBase | null>(null);
  const courseName = (id: string) => courses?.find((c) => c.id.toLowerCase() === id.toLowerCase())?.name ?? id;
  const submissionOf = (request: Parameters<typeof draftFromRequest>[0]) => {
    if (!user) return null;
    const edit = draftFromRequest(request, data, user);
    return edit ? buildSubmission(edit.draft, flightOf(user, edit.draft), null) : null;
  };

  return (
    <BookingsScreen
      actions={<CheckRequestsButton />}
      onWatch={(request) => {
        const submission = submissionOf(request);
        if (submission) setBase(watchBaseOf(submission));
      }}
      playerNote={(request, memberId) => <AnswerBeside sent={invitations?.sent ?? []} source="request" sourceId={request.id} memberId={memberId} />}
      onRepeat={(request) => {
        const submission = submissionOf(request);
        if (submission) setRepeat(repeatBaseOf(submission));
      }}
    >
      <PartnersSection invitations={invitations} reload={reloadInvitations} />
      <SeriesSection series={series} reload={reloadSeries} courseName={courseName} />
      <WatchesSection watches={watches} reload={reload} courseName={courseName} />
      <WatchDialog base={base} onClose={() => setBase(null)} onCreated={reload} />
      <RepeatDialog base={repeat} onClose={() => setRepeat(null)} onCreated={reloadSeries} />
    </BookingsScreen>
  );
}
