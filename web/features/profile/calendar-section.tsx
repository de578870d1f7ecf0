/**
 * The member's private calendar address (Profile page): shown with Copy (the clipboard API, else
 * the selected field and the browser's copy command, else a note to copy it by hand) and "Make a
 * new address", which asks first because the old address stops working at once.
 */
import { useEffect, useRef, useState } from "react";
import { calendarAddressResponseSchema, type CalendarAddress } from "../../../src/features/calendar/calendar.schemas.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { LoadingBlock } from "../../components/spinner.tsx";
import { api, getJson } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { useText } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";

type State = { state: "loading" } | { state: "error" } | { state: "ready"; address: CalendarAddress };

/** Copies `text`: the clipboard API where the browser allows it, else the field's selection and execCommand. */
export async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied or unavailable (an insecure origin): the older way below.
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    return typeof document.execCommand === "function" && document.execCommand("copy");
  } catch {
    return false;
  }
}

export function CalendarSection() {
  const t = useText();
  const [loaded, setLoaded] = useState<State>({ state: "loading" });
  const [isAsking, setIsAsking] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const abort = new AbortController();
    getJson(apiPaths.my.calendar, calendarAddressResponseSchema, abort.signal).then(
      (address) => setLoaded({ state: "ready", address }),
      () => {
        if (!abort.signal.aborted) setLoaded({ state: "error" });
      },
    );
    return () => abort.abort();
  }, []);

  async function makeAddress(isRenewal: boolean) {
    setIsAsking(false);
    setIsBusy(true);
    try {
      const address = await api.postFor(apiPaths.my.calendar, {}, calendarAddressResponseSchema);
      setLoaded({ state: "ready", address });
      setCopyFailed(false);
      if (isRenewal) showToast("success", { textKey: "calendar.renewed" });
    } catch {
      setLoaded({ state: "error" });
    } finally {
      setIsBusy(false);
    }
  }

  async function copy(url: string) {
    const isCopied = await copyText(url, field.current);
    setCopyFailed(!isCopied);
    if (isCopied) showToast("success", { textKey: "calendar.copied" });
  }

  const url = loaded.state === "ready" ? loaded.address.url : null;
  return (
    <section className="card profile-card calendar-card" aria-labelledby="calendar-title">
      <h2 id="calendar-title">{t("calendar.title")}</h2>
      <p className="page__note">{t("calendar.intro")}</p>
      {loaded.state === "loading" ? <LoadingBlock label={t("calendar.loading")} /> : null}
      {loaded.state === "error" ? (
        <p className="field__error" role="alert">
          {t("calendar.error")}
        </p>
      ) : null}
      {loaded.state === "ready" && url === null ? (
        <>
          <p>{t("calendar.none")}</p>
          <div className="profile-card__actions">
            <Button isLoading={isBusy} disabled={isBusy} onClick={() => void makeAddress(false)}>
              {t("calendar.create")}
            </Button>
          </div>
        </>
      ) : null}
      {url !== null ? (
        <>
          <label className="field">
            <span className="field__label">{t("calendar.address_label")}</span>
            <input ref={field} className="field__input" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </label>
          {copyFailed ? (
            <p className="field__error" role="alert">
              {t("calendar.copy_failed")}
            </p>
          ) : null}
          <div className="profile-card__actions">
            <Button variant="secondary" isLoading={isBusy} disabled={isBusy} onClick={() => setIsAsking(true)}>
              {t("calendar.renew")}
            </Button>
            <Button onClick={() => void copy(url)}>{t("calendar.copy")}</Button>
          </div>
        </>
      ) : null}
      <Dialog
        isOpen={isAsking}
        title={t("calendar.renew_title")}
        onClose={() => setIsAsking(false)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setIsAsking(false)}>
              {t("calendar.renew_keep")}
            </Button>
            <Button variant="danger" onClick={() => void makeAddress(true)}>
              {t("calendar.renew_confirm")}
            </Button>
          </>
        }
      >
        <p>{t("calendar.renew_body")}</p>
      </Dialog>
    </section>
  );
}
