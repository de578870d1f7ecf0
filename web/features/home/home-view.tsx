import { LoadingBlock } from "../../components/spinner.tsx";
import { findNextUp } from "../../../src/domain/bookings-view.ts";
import { manilaDate } from "../../../src/domain/manila-time.ts";
import { useLiveData } from "../../lib/live-data-store.ts";
import { useSessionStore } from "../../lib/session-store.ts";
import { useText } from "../../lib/text.ts";
import { AdvisorySection } from "./advisory-list.tsx";
import { NextUpCard } from "./next-up-card.tsx";
import "./home.css";

/** Home: Next Up, Announcements (internal) and Club Advisories (scraped); a spinner when there is nothing. */
export function HomeView({ now = Date.now }: { now?: () => number }) {
  const t = useText();
  const bookings = useLiveData((s) => s.bookings);
  const requests = useLiveData((s) => s.requests);
  const advisories = useLiveData((s) => s.advisories);
  const rules = useLiveData((s) => s.rules);
  const ownMemberId = useSessionStore((s) => s.user?.memberId ?? "");

  const nextUp = findNextUp(bookings, requests, manilaDate(now()));
  const internal = advisories?.internal ?? [];
  const scraped = advisories?.scraped ?? [];
  const hasContent = nextUp !== null || internal.length > 0 || scraped.length > 0;

  return (
    <section className="page home-page">
      <h1 className="page__title">{t("home.title")}</h1>
      {hasContent ? (
        <div className="home-page__content">
          {nextUp ? <NextUpCard item={nextUp} courses={rules?.courseSchedule ?? []} ownMemberId={ownMemberId} /> : null}
          <AdvisorySection title={t("home.announcements.title")} advisories={internal} testId="announcements" />
          <AdvisorySection title={t("home.advisories.title")} advisories={scraped} testId="club-advisories" />
        </div>
      ) : (
        <LoadingBlock label={t("home.loading")} />
      )}
    </section>
  );
}
