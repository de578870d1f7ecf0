/** The Book page: one page on desktop, the five-step wizard on a phone, the same steps in both. */
import { formatEventDate, manilaDate, manilaTimeOfDay } from "../../../src/domain/manila-time.ts";
import { Button } from "../../components/button.tsx";
import { useLiveData, useScrapeOnBookOpen } from "../../lib/live-data-store.ts";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText } from "../../lib/text.ts";
import type { SessionUser } from "../../lib/types.ts";
import { useViewportWidth } from "../../lib/use-viewport-width.ts";
import { BookDesktop } from "./book-desktop.tsx";
import { useBookStore } from "./book-store.ts";
import { BookWizard } from "./book-wizard.tsx";
import { useBookingData } from "./use-booking-data.ts";
import { useEditQuery } from "./use-edit-query.ts";
import { useSubmitBooking } from "./use-submit-booking.ts";
import "./book.css";

/** The desktop layout starts at 768 px. */
export const DESKTOP_MIN_WIDTH_PX = 768;

export function BookScreen({ now = Date.now }: { now?: () => number }) {
  const t = useText();
  const user = useSessionStore((s) => s.user);
  if (!user) return null;
  return <BookScreenFor user={user} now={now} title={t("book.title")} />;
}

function BookScreenFor({ user, now, title }: { user: SessionUser; now: () => number; title: string }) {
  const t = useText();
  const data = useBookingData();
  const submitState = useSubmitBooking(data, user);
  const isDesktop = useViewportWidth() >= DESKTOP_MIN_WIDTH_PX;
  const hasLoaded = useLiveData((s) => s.hasLoaded);
  const isEditMissing = useEditQuery(data, user, hasLoaded);
  useScrapeOnBookOpen();
  const todayIso = manilaDate(now());
  // Times already past today (Manila) are disabled; the server refuses them too.
  const props = { data, user, todayIso, nowTime: manilaTimeOfDay(now()), submitState };

  return (
    <section className={`page book-page${isDesktop ? " book-page--desktop" : " book-page--mobile"}`}>
      <h1 className="page__title">{title}</h1>
      <EditBanner />
      {isEditMissing ? (
        <p className="book-warning" role="status">
          {t("book.edit.not_found")}
        </p>
      ) : null}
      {isDesktop ? <BookDesktop {...props} /> : <BookWizard {...props} />}
    </section>
  );
}

function EditBanner() {
  const t = useText();
  const editTarget = useBookStore((s) => s.editTarget);
  const reset = useBookStore((s) => s.reset);
  if (!editTarget) return null;
  const text =
    editTarget.kind === "request"
      ? t("book.edit.request", { date: formatEventDate(editTarget.date) })
      : t("book.edit.booking", { date: formatEventDate(editTarget.date), time: editTarget.time });
  return (
    <div className="edit-banner" role="status">
      <span>{text}</span>
      <Button variant="ghost" onClick={reset}>
        {t("book.edit.stop")}
      </Button>
    </div>
  );
}
