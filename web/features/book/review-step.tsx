/** Step 5: date, course, first time and the player count as 'n of {max}'. */
import { formatLongDate } from "../../../src/domain/manila-time.ts";
import type { SessionUser } from "../../lib/types.ts";
import { useText } from "../../lib/text.ts";
import { courseNameOf, flightOf, limitsFor, type BookingData } from "./book-model.ts";
import { useBookStore } from "./book-store.ts";

export function ReviewStep({ data, user }: { data: BookingData; user: SessionUser }) {
  const t = useText();
  const date = useBookStore((s) => s.date);
  const course = useBookStore((s) => s.course);
  const selection = useBookStore((s) => s.selection);
  const players = useBookStore((s) => s.players);
  const memberCart = useBookStore((s) => s.memberCart);
  const flight = flightOf(user, { players, memberCart });
  const limits = limitsFor(data, { date, selection });
  const dash = "–";

  return (
    <section className="book-section review-step" aria-labelledby="book-review-title">
      <h2 id="book-review-title" className="book-section__title">
        {t("book.review.title")}
      </h2>
      <dl className="review-list">
        <dt>{t("book.review.date")}</dt>
        <dd data-testid="review-date">{date ? formatLongDate(date) : dash}</dd>
        <dt>{t("book.review.course")}</dt>
        <dd data-testid="review-course">{course ? courseNameOf(data.courses, course) : dash}</dd>
        <dt>{t("book.review.time")}</dt>
        <dd data-testid="review-time">{selection[0]?.time ?? dash}</dd>
        {selection.length > 1 ? (
          <>
            <dt>{t("book.review.other_times")}</dt>
            <dd data-testid="review-other-times">
              {selection
                .slice(1)
                .map((s) => s.time)
                .join(", ")}
            </dd>
          </>
        ) : null}
        <dt>{t("book.review.players")}</dt>
        <dd data-testid="review-players">{t("book.review.players_count", { count: flight.length, max: limits.maxPlayers })}</dd>
      </dl>
    </section>
  );
}
