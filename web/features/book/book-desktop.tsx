/** The desktop arrangement (768 px and wider): the pickers on one page, players and submit in a sticky side panel. */
import type { BookLayoutProps } from "./book-wizard.tsx";
import { CourseStep } from "./course-step.tsx";
import { DateStep } from "./date-step.tsx";
import { PlayersStep } from "./players-step.tsx";
import { ReviewStep } from "./review-step.tsx";
import { SubmitBar } from "./submit-bar.tsx";
import { TimeStep } from "./time-step.tsx";

export function BookDesktop({ data, user, todayIso, nowTime, submitState }: BookLayoutProps) {
  return (
    <div className="book-desktop">
      <div className="book-desktop__main">
        <DateStep data={data} todayIso={todayIso} />
        <CourseStep data={data} />
        <TimeStep data={data} todayIso={todayIso} nowTime={nowTime} />
      </div>
      <aside className="book-desktop__panel">
        <PlayersStep data={data} user={user} />
        <ReviewStep data={data} user={user} />
        <SubmitBar submitState={submitState} />
      </aside>
    </div>
  );
}
