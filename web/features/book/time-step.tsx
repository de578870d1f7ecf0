/**
 * Step 3: the tee times of the chosen date and course in collapsible morning and afternoon groups.
 * Times that are not AVAILABLE, that the member already holds, or that have already passed today
 * (Manila; the server refuses them too) are disabled and struck through;
 * chosen times carry their priority number in click order.
 *
 * Each group's grid is one tab stop: the arrow keys move between its times (web/lib/roving-focus.ts),
 * so a keyboard user goes on from a chosen time to the players and Submit without tabbing through
 * every slot after it.
 */
import { useId, useState, type ReactNode } from "react";
import { isMorning, isSlotAvailable, type TeeTime } from "../../../src/domain/estimated-slots.ts";
import { isPastTeeTime } from "../../../src/domain/booking-submission.ts";
import { useRovingFocus } from "../../lib/roving-focus.ts";
import { useText } from "../../lib/text.ts";
import { heldTimes, slotsFor, type BookingData } from "./book-model.ts";
import { useBookStore } from "./book-store.ts";

type GroupKey = "morning" | "afternoon";

export function TimeStep({ data, todayIso, nowTime }: { data: BookingData; todayIso: string; nowTime: string }) {
  const t = useText();
  const date = useBookStore((s) => s.date);
  const course = useBookStore((s) => s.course);
  const selection = useBookStore((s) => s.selection);
  const editTarget = useBookStore((s) => s.editTarget);
  const toggleSlot = useBookStore((s) => s.toggleSlot);
  const [collapsed, setCollapsed] = useState<Record<GroupKey, boolean>>({ morning: false, afternoon: false });

  if (!date || !course) {
    return (
      <section className="book-section" aria-labelledby="book-time-title">
        <h2 id="book-time-title" className="book-section__title">
          {t("book.time.title")}
        </h2>
        <p className="book-note">{t("book.time.choose_first")}</p>
      </section>
    );
  }

  const { slots, isEstimated } = slotsFor(date, course, data);
  const held = heldTimes(date, course, data, editTarget);
  const groups: { key: GroupKey; slots: TeeTime[] }[] = [
    { key: "morning", slots: slots.filter((s) => isMorning(s.time)) },
    { key: "afternoon", slots: slots.filter((s) => !isMorning(s.time)) },
  ];

  function stateOf(slot: TeeTime): SlotView {
    const priority = selection.findIndex((s) => s.time === slot.time) + 1;
    const isHeld = held.has(slot.time);
    // The booking being edited is held by this member at the club: its own time stays choosable.
    const isOwnEditedTime = editTarget?.kind === "booking" && editTarget.date === date && editTarget.time === slot.time;
    const isPast = isPastTeeTime(date as string, slot.time, todayIso, nowTime);
    const isDisabled = priority === 0 && (isPast || isHeld || (!isSlotAvailable(slot) && !isOwnEditedTime));
    const note = isPast ? t("book.time.past") : isHeld ? t("book.time.held") : isDisabled ? t("book.time.unavailable") : undefined;
    return { slot, priority, isDisabled, note };
  }

  return (
    <section className="book-section" aria-labelledby="book-time-title">
      <h2 id="book-time-title" className="book-section__title">
        {t("book.time.title")}
      </h2>
      <p className="book-note">{t("book.time.hint")}</p>
      {isEstimated ? (
        <p className="book-warning" role="note">
          {t("book.time.estimated_warning")}
        </p>
      ) : null}
      {slots.length === 0 ? <p className="book-note">{t("book.time.none")}</p> : null}
      {selection.length > 0 ? <p className="book-note">{t("book.time.selected_count", { count: selection.length })}</p> : null}
      {groups.map((group) =>
        group.slots.length === 0 ? null : (
          <div key={group.key} className="slot-group">
            <button type="button" className="slot-group__toggle" aria-expanded={!collapsed[group.key]} onClick={() => setCollapsed((c) => ({ ...c, [group.key]: !c[group.key] }))}>
              <span>{t(group.key === "morning" ? "book.time.morning" : "book.time.afternoon")}</span>
              <span aria-hidden="true">{collapsed[group.key] ? "▸" : "▾"}</span>
            </button>
            {collapsed[group.key] ? null : (
              <SlotGrid
                label={t(group.key === "morning" ? "book.time.morning" : "book.time.afternoon")}
                hint={t("book.time.arrow_keys")}
                views={group.slots.map(stateOf)}
                onToggle={(slot) => toggleSlot({ time: slot.time, slotId: slot.slotId })}
              />
            )}
          </div>
        ),
      )}
    </section>
  );
}

interface SlotView {
  slot: TeeTime;
  /** 1-based place among the chosen times; 0 when not chosen. */
  priority: number;
  isDisabled: boolean;
  note: string | undefined;
}

/** One group's times: one tab stop (the chosen time, else the first usable one), arrows inside. */
function SlotGrid({ label, hint, views, onToggle }: { label: string; hint: string; views: SlotView[]; onToggle: (slot: TeeTime) => void }): ReactNode {
  const usable = views.filter((v) => !v.isDisabled).map((v) => v.slot.time);
  const chosen = views.find((v) => v.priority > 0 && !v.isDisabled)?.slot.time;
  const roving = useRovingFocus(chosen ?? usable[0] ?? null);
  const hintId = useId();
  return (
    <div className="slot-grid" role="group" aria-label={label} aria-describedby={hintId} onKeyDown={roving.onKeyDown}>
      <span id={hintId} className="slot-grid__hint">
        {hint}
      </span>
      {views.map(({ slot, priority, isDisabled, note }) => (
        <button
          key={slot.time}
          type="button"
          className={`slot${priority > 0 ? " is-selected" : ""}${isDisabled ? " is-unavailable" : ""}`}
          aria-pressed={priority > 0}
          disabled={isDisabled}
          title={note}
          data-time={slot.time}
          onClick={() => onToggle(slot)}
          {...roving.itemProps(slot.time, usable)}
        >
          {/* The name is what is seen ("06:04", then "06:04 1" once chosen first), so voice control finds it. */}
          <span className="slot__time">{slot.time}</span>
          {priority > 0 ? (
            <>
              {" "}
              <span className="slot__priority">{priority}</span>
            </>
          ) : null}
        </button>
      ))}
    </div>
  );
}
