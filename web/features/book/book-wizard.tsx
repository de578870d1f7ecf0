/**
 * The mobile arrangement: five steps, one at a time.
 * A step can be clicked back, never forward past the current one; Next waits for the step's choice.
 */
import { Button } from "../../components/button.tsx";
import type { SessionUser } from "../../lib/types.ts";
import { useText } from "../../lib/text.ts";
import type { BookingData } from "./book-model.ts";
import { BOOK_STEPS, canLeaveStep, LAST_STEP, useBookStore, type BookStep } from "./book-store.ts";
import { CourseStep } from "./course-step.tsx";
import { DateStep } from "./date-step.tsx";
import { PlayersStep } from "./players-step.tsx";
import { ReviewStep } from "./review-step.tsx";
import { PartnerOptions } from "./partner-options.tsx";
import { SubmitBar } from "./submit-bar.tsx";
import { TimeStep } from "./time-step.tsx";
import type { SubmitState } from "./use-submit-booking.ts";

const STEP_LABELS = {
  1: "book.step.date",
  2: "book.step.course",
  3: "book.step.time",
  4: "book.step.players",
  5: "book.step.review",
} as const satisfies Record<BookStep, string>;

export interface BookLayoutProps {
  data: BookingData;
  user: SessionUser;
  todayIso: string;
  /** Manila time of day now ('HH:mm'): today's earlier times are disabled. */
  nowTime: string;
  submitState: SubmitState;
}

export function BookWizard({ data, user, todayIso, nowTime, submitState }: BookLayoutProps) {
  const t = useText();
  const step = useBookStore((s) => s.step);
  const date = useBookStore((s) => s.date);
  const course = useBookStore((s) => s.course);
  const selection = useBookStore((s) => s.selection);
  const goToStep = useBookStore((s) => s.goToStep);
  const next = useBookStore((s) => s.next);
  const back = useBookStore((s) => s.back);
  const canGoOn = canLeaveStep(step, { date, course, selection });

  return (
    <div className="book-wizard">
      <nav aria-label={t("book.steps_label")}>
        <ol className="wizard-steps">
          {BOOK_STEPS.map((n) => (
            <li key={n}>
              <button
                type="button"
                className={`wizard-steps__item${n === step ? " is-current" : ""}${n < step ? " is-done" : ""}`}
                aria-current={n === step ? "step" : undefined}
                disabled={n > step}
                onClick={() => goToStep(n)}
              >
                <span className="wizard-steps__number">{n}</span>
                <span className="wizard-steps__label">{t(STEP_LABELS[n])}</span>
              </button>
            </li>
          ))}
        </ol>
      </nav>

      <div className="book-wizard__body">
        {step === 1 ? <DateStep data={data} todayIso={todayIso} /> : null}
        {step === 2 ? <CourseStep data={data} /> : null}
        {step === 3 ? <TimeStep data={data} todayIso={todayIso} nowTime={nowTime} /> : null}
        {step === 4 ? <PlayersStep data={data} user={user} /> : null}
        {step === 5 ? (
          <>
            <ReviewStep data={data} user={user} />
            {/* Full width above the footer: the sticky footer keeps to Back and Submit on a phone. */}
            <PartnerOptions />
          </>
        ) : null}
      </div>

      <div className="book-wizard__footer">
        {step > 1 ? (
          <Button variant="secondary" onClick={back}>
            {t("book.back")}
          </Button>
        ) : (
          <span />
        )}
        {step < LAST_STEP ? (
          <Button onClick={next} disabled={!canGoOn}>
            {t("book.next")}
          </Button>
        ) : (
          <SubmitBar submitState={submitState} showsPartnerOptions={false} />
        )}
      </div>
    </div>
  );
}
