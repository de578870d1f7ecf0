/**
 * "Watch for a free slot": the range, any course or this one, book it or tell me only, and an
 * upgrade of the member's booking that day. The booking form (date, course, players) comes in as
 * the base, so a watch is checked by the server exactly as a request is.
 */
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { useLiveData } from "../../lib/live-data-store.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import { createWatch, failureOf, type WatchBase, type WatchChoices } from "./watches-api.ts";
import "./watches.css";

export function WatchDialog({ base, onClose, onCreated }: { base: WatchBase | null; onClose: () => void; onCreated?: () => void }) {
  const t = useText();
  const tryText = useTextLookup();
  const bookings = useLiveData((s) => s.bookings);
  const courses = useLiveData((s) => s.rules?.courseSchedule);
  const [choices, setChoices] = useState<WatchChoices>({ fromTime: "06:00", toTime: "09:00", anyCourse: false, mode: "book", upgradeBookingId: null });
  const [isSaving, setSaving] = useState(false);
  const [errorText, setErrorText] = useState<string | null>(null);

  useEffect(() => {
    if (base) setChoices({ fromTime: base.fromTime, toTime: base.toTime, anyCourse: false, mode: "book", upgradeBookingId: null });
    setErrorText(null);
  }, [base]);

  if (!base) return null;
  const sameDay = bookings.filter((b) => b.date === base.targetDate);
  const set = <K extends keyof WatchChoices>(key: K, value: WatchChoices[K]) => setChoices((c) => ({ ...c, [key]: value }));

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!base || isSaving) return;
    setSaving(true);
    setErrorText(null);
    try {
      const watch = await createWatch(base, choices);
      showToast("success", { textKey: "watches.created", context: { date: watch.date, from: watch.fromTime, to: watch.toTime } });
      onCreated?.();
      onClose();
    } catch (error) {
      const failure = failureOf(error);
      setErrorText(tryText(failure.message) ?? tryText(failure.errorKey, undefined, failure.message) ?? failure.message ?? t("book.submit_failed"));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog
      isOpen
      title={t("watches.create_title")}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("bookings.cancel_keep")}
          </Button>
          <Button isLoading={isSaving} onClick={() => void submit()}>
            {t("watches.submit")}
          </Button>
        </>
      }
    >
      <form className="watch-form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="page__note">{t("watches.create_body")}</p>
        <p>
          <strong>{base.targetDate}</strong> · {courses?.find((c) => c.id.toLowerCase() === base.course.toLowerCase())?.name ?? base.course}
        </p>
        <label className="field">
          <span className="field__label">{t("watches.from")}</span>
          <input className="field__input" type="time" name="fromTime" value={choices.fromTime} onChange={(e) => set("fromTime", e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t("watches.to")}</span>
          <input className="field__input" type="time" name="toTime" value={choices.toTime} onChange={(e) => set("toTime", e.target.value)} />
        </label>
        <label className="field field--inline">
          <input type="checkbox" name="anyCourse" checked={choices.anyCourse} onChange={(e) => set("anyCourse", e.target.checked)} />
          <span>{t("watches.any_course")}</span>
        </label>
        <fieldset className="field">
          <legend className="field__label">{t("watches.mode")}</legend>
          <label className="field--inline">
            <input type="radio" name="mode" value="book" checked={choices.mode === "book"} onChange={() => set("mode", "book")} />
            <span>{t("watches.mode_book")}</span>
          </label>
          <label className="field--inline">
            <input
              type="radio"
              name="mode"
              value="notify"
              checked={choices.mode === "notify"}
              onChange={() => setChoices((c) => ({ ...c, mode: "notify", upgradeBookingId: null }))}
            />
            <span>{t("watches.mode_notify")}</span>
          </label>
        </fieldset>
        {sameDay.length > 0 && choices.mode === "book" ? (
          <label className="field">
            <span className="field__label">{t("watches.upgrade")}</span>
            <select className="field__input" name="upgradeBookingId" value={choices.upgradeBookingId ?? ""} onChange={(e) => set("upgradeBookingId", e.target.value || null)}>
              <option value="">—</option>
              {sameDay.map((b) => (
                <option key={b.bookingId} value={b.bookingId}>
                  {b.time} · {b.course} ({b.bookingId})
                </option>
              ))}
            </select>
          </label>
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
