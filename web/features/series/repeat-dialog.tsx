/**
 * "Repeat weekly": a standing request made from a booking form (its date, course, times and
 * players). The member picks the weekdays, the first and an optional last date, dates to skip,
 * any course, and ordered times or a range; the server checks it as it checks a request. Given
 * `editing`, the same form changes that series (its dates not yet released follow).
 */
import { useEffect, useState, type FormEvent } from "react";
import { weekdayOf } from "../../../src/domain/manila-time.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import type { SeriesView } from "../../../src/features/series/series.schemas.ts";
import { changeSeries, choicesOf, createSeries, dayKey, failureOf, namesPartners, type RepeatBase, type RepeatChoices } from "./series-api.ts";
import "./series.css";

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

function choicesFor(base: RepeatBase): RepeatChoices {
  const sorted = [...base.times].sort();
  return {
    weekdays: [weekdayOf(base.date)],
    startDate: base.date,
    endDate: "",
    skipDates: "",
    anyCourse: false,
    useRange: false,
    fromTime: sorted[0] ?? "06:00",
    toTime: sorted[sorted.length - 1] ?? "09:00",
    partnersMustAccept: base.partnersMustAccept === true,
  };
}

export function RepeatDialog({ base, editing, onClose, onCreated }: { base: RepeatBase | null; editing?: SeriesView; onClose: () => void; onCreated?: () => void }) {
  const t = useText();
  const tryText = useTextLookup();
  const [choices, setChoices] = useState<RepeatChoices | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [errorText, setErrorText] = useState<string | null>(null);

  useEffect(() => {
    setChoices(base ? (editing ? choicesOf(editing) : choicesFor(base)) : null);
    setErrorText(null);
  }, [base, editing]);

  if (!base || !choices) return null;
  const set = <K extends keyof RepeatChoices>(key: K, value: RepeatChoices[K]) => setChoices((c) => (c ? { ...c, [key]: value } : c));
  const toggleDay = (day: number) => set("weekdays", choices.weekdays.includes(day) ? choices.weekdays.filter((d) => d !== day) : [...choices.weekdays, day]);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!base || !choices || isSaving) return;
    setSaving(true);
    setErrorText(null);
    try {
      const series = editing ? await changeSeries(editing.id, base, choices) : await createSeries(base, choices);
      const days = series.weekdays.map((d) => t(dayKey(d))).join(t("series.day_separator"));
      showToast("success", editing ? { textKey: "series.changed" } : { textKey: "series.created", context: { days, start: series.startDate } });
      onCreated?.();
      onClose();
    } catch (error) {
      const failure = failureOf(error);
      setErrorText(tryText(failure.errorKey, undefined, failure.message) ?? failure.message ?? t("book.submit_failed"));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog
      isOpen
      title={editing ? t("series.change_title") : t("series.create_title")}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("bookings.cancel_keep")}
          </Button>
          <Button isLoading={isSaving} onClick={() => void submit()}>
            {editing ? t("series.save") : t("series.submit")}
          </Button>
        </>
      }
    >
      <form className="series-form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="page__note">{t("series.repeat_hint")}</p>
        <fieldset className="field">
          <legend className="field__label">{t("series.weekdays")}</legend>
          <div className="series-days">
            {WEEKDAYS.map((day) => (
              <label key={day} className="field--inline">
                <input type="checkbox" name={`day-${day}`} checked={choices.weekdays.includes(day)} onChange={() => toggleDay(day)} />
                <span>{t(`series.day.${day}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <label className="field">
          <span className="field__label">{t("series.start_date")}</span>
          <input className="field__input" type="date" name="startDate" value={choices.startDate} onChange={(e) => set("startDate", e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t("series.end_date")}</span>
          <input className="field__input" type="date" name="endDate" value={choices.endDate} onChange={(e) => set("endDate", e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t("series.skip_dates")}</span>
          <input className="field__input" type="text" name="skipDates" value={choices.skipDates} onChange={(e) => set("skipDates", e.target.value)} />
        </label>
        <label className="field field--inline">
          <input type="checkbox" name="anyCourse" checked={choices.anyCourse} onChange={(e) => set("anyCourse", e.target.checked)} />
          <span>{t("series.any_course")}</span>
        </label>
        <label className="field field--inline">
          <input type="checkbox" name="useRange" checked={choices.useRange} onChange={(e) => set("useRange", e.target.checked)} />
          <span>{t("series.use_range")}</span>
        </label>
        {namesPartners(base) ? (
          <label className="field field--inline">
            <input type="checkbox" name="partnersMustAccept" checked={choices.partnersMustAccept} onChange={(e) => set("partnersMustAccept", e.target.checked)} />
            <span>{t("partners.must_accept")}</span>
          </label>
        ) : null}
        {choices.useRange ? (
          <div className="series-range">
            <label className="field">
              <span className="field__label">{t("series.from_time")}</span>
              <input className="field__input" type="time" name="fromTime" value={choices.fromTime} onChange={(e) => set("fromTime", e.target.value)} />
            </label>
            <label className="field">
              <span className="field__label">{t("series.to_time")}</span>
              <input className="field__input" type="time" name="toTime" value={choices.toTime} onChange={(e) => set("toTime", e.target.value)} />
            </label>
          </div>
        ) : null}
        {errorText ? (
          <p className="form-error" role="alert">
            {errorText}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
