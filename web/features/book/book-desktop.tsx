/** The desktop arrangement (768 px and wider): the pickers on one page, players and submit in a sticky side panel. */
import { useRef } from "react";
import { useText } from "../../lib/text.ts";
import type { BookLayoutProps } from "./book-wizard.tsx";
import { CourseStep } from "./course-step.tsx";
import { DateStep } from "./date-step.tsx";
import { PlayersStep } from "./players-step.tsx";
import { ReviewStep } from "./review-step.tsx";
import { SubmitBar } from "./submit-bar.tsx";
import { TimeStep } from "./time-step.tsx";

export function BookDesktop({ data, user, todayIso, nowTime, submitState }: BookLayoutProps) {
  const t = useText();
  const panelRef = useRef<HTMLElement>(null);
  return (
    <div className="book-desktop">
      <div className="book-desktop__main">
        <DateStep data={data} todayIso={todayIso} />
        <CourseStep data={data} />
        {/* A keyboard user need not tab through every slot to reach the players and Submit. */}
        {/* biome-ignore lint/a11y/useValidAnchor: a skip link keeps its target in href and moves the focus itself. */}
        <a
          className="skip-link"
          href="#book-panel"
          onClick={(event) => {
            event.preventDefault();
            panelRef.current?.focus();
          }}
        >
          {t("book.skip_to_panel")}
        </a>
        <TimeStep data={data} todayIso={todayIso} nowTime={nowTime} />
      </div>
      <aside className="book-desktop__panel" id="book-panel" ref={panelRef} tabIndex={-1}>
        <PlayersStep data={data} user={user} />
        <ReviewStep data={data} user={user} />
        <SubmitBar submitState={submitState} />
      </aside>
    </div>
  );
}
