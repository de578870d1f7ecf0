/** Step 2: one button per course, disabled on a weekday the course does not run. */
import { isCourseActiveOn } from "../../../src/domain/booking-rules.ts";
import { dayName } from "../../../src/domain/manila-time.ts";
import { useText } from "../../lib/text.ts";
import type { BookingData } from "./book-model.ts";
import { useBookStore } from "./book-store.ts";

export function CourseStep({ data }: { data: BookingData }) {
  const t = useText();
  const date = useBookStore((s) => s.date);
  const course = useBookStore((s) => s.course);
  const chooseCourse = useBookStore((s) => s.chooseCourse);

  return (
    <section className="book-section" aria-labelledby="book-course-title">
      <h2 id="book-course-title" className="book-section__title">
        {t("book.course.title")}
      </h2>
      {date ? null : <p className="book-note">{t("book.course.choose_date")}</p>}
      <div className="course-grid">
        {data.courses.map((c) => {
          const isOpen = date !== null && isCourseActiveOn(c, date);
          return (
            <button
              key={c.id}
              type="button"
              className={`choice course-choice${c.id === course ? " is-selected" : ""}`}
              aria-pressed={c.id === course}
              disabled={!isOpen}
              onClick={() => chooseCourse(c.id)}
            >
              <span className="course-choice__name">{c.name}</span>
              {date && !isOpen ? <span className="course-choice__note">{t("book.course.closed", { day: dayName(date) })}</span> : null}
            </button>
          );
        })}
      </div>
    </section>
  );
}
