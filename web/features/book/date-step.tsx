/** Step 1: the bookable dates in two groups, Live Availability and Estimated Tee Times. */
import { isCourseActiveOn } from "../../../src/domain/booking-rules.ts";
import { groupDatesByKind, type DateEntry } from "../../../src/domain/date-kinds.ts";
import { useText } from "../../lib/text.ts";
import type { BookingData } from "./book-model.ts";
import { useBookStore } from "./book-store.ts";

export function DateStep({ data, todayIso }: { data: BookingData; todayIso: string }) {
  const t = useText();
  const date = useBookStore((s) => s.date);
  const course = useBookStore((s) => s.course);
  const chooseDate = useBookStore((s) => s.chooseDate);
  const chooseCourse = useBookStore((s) => s.chooseCourse);
  const groups = groupDatesByKind(data.dates, todayIso, data.teeTimes);

  function pick(entry: DateEntry) {
    chooseDate(entry.dateStr);
    const chosen = data.courses.find((c) => c.id === course);
    // A course that does not run on the new day cannot stay chosen.
    if (chosen && !isCourseActiveOn(chosen, entry.dateStr)) chooseCourse(null);
  }

  const group = (titleKey: "book.date.live" | "book.date.estimated", entries: DateEntry[], kind: string) =>
    entries.length === 0 ? null : (
      <div className={`date-group date-group--${kind}`} role="group" aria-label={t(titleKey)}>
        <h3 className="book-section__subtitle">{t(titleKey)}</h3>
        <div className="date-grid">
          {entries.map((entry) => (
            <button
              key={entry.dateStr}
              type="button"
              className={`choice date-choice${entry.dateStr === date ? " is-selected" : ""}`}
              aria-pressed={entry.dateStr === date}
              data-date={entry.dateStr}
              onClick={() => pick(entry)}
            >
              <span className="date-choice__day">{entry.dayName.slice(0, 3)}</span>
              <span className="date-choice__date">{entry.monthDay}</span>
            </button>
          ))}
        </div>
      </div>
    );

  return (
    <section className="book-section" aria-labelledby="book-date-title">
      <h2 id="book-date-title" className="book-section__title">
        {t("book.date.title")}
      </h2>
      {groups.live.length + groups.estimated.length === 0 ? <p className="book-note">{t("book.date.none")}</p> : null}
      {group("book.date.live", groups.live, "live")}
      {group("book.date.estimated", groups.estimated, "estimated")}
    </section>
  );
}
