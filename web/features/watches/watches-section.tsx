/**
 * The member's slot watches on the Bookings page: each with its state, what was found or why it
 * ended, and what was tried; Cancel while it watches. Reloads when a change names the member's
 * watches (the resource cache, web/lib/resources.ts).
 */
import { useState } from "react";
import { attemptOutcomeKey } from "../../../src/domain/attempt-outcomes.ts";
import type { WatchView } from "../../../src/features/watches/watches.schemas.ts";
import { Button } from "../../components/button.tsx";
import { useResource } from "../../lib/resources.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import { cancelWatch, checkRequests, failureOf, listWatches } from "./watches-api.ts";
import "./watches.css";

export function useWatches(): { watches: WatchView[] | null; reload: () => void } {
  const { data, error, reload } = useResource("my.watches", listWatches);
  // A list that could not be loaded shows as empty; one loaded before stays.
  return { watches: data ?? (error ? [] : null), reload: () => void reload() };
}

export function WatchesSection({ watches, reload, courseName }: { watches: WatchView[] | null; reload: () => void; courseName: (id: string) => string }) {
  const t = useText();
  const tryText = useTextLookup();
  const [busy, setBusy] = useState<number | null>(null);

  async function cancel(id: number) {
    setBusy(id);
    try {
      await cancelWatch(id);
      showToast("success", { textKey: "watches.cancelled" });
      reload();
    } catch (error) {
      const failure = failureOf(error);
      showToast("error", { textKey: failure.errorKey ?? "book.submit_failed", message: tryText(failure.errorKey, undefined, failure.message) ?? failure.message });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="bookings-section" aria-labelledby="watches-title">
      <h2 id="watches-title" className="bookings-section__title">
        {t("watches.title")}
      </h2>
      {!watches || watches.length === 0 ? (
        <p className="page__note">{t("watches.empty")}</p>
      ) : (
        <ul className="booking-cards watch-list">
          {watches.map((w) => (
            <li key={w.id} className="booking-card" data-testid={`watch:${w.id}`}>
              <div className="booking-card__head">
                <div>
                  <div className="booking-card__date">
                    {w.date} · {t("watches.range", { from: w.fromTime, to: w.toTime })}
                  </div>
                  <div className="booking-card__course">
                    {w.course ? courseName(w.course) : t("watches.any_course")} · {w.mode === "book" ? t("watches.mode_book") : t("watches.mode_notify")}
                  </div>
                </div>
                <span className={`status status--watch-${w.status}`}>{t(`watches.status.${w.status}`)}</span>
              </div>
              {w.reason ? <p className="row-sub">{w.reason}</p> : null}
              <p className="row-sub">
                {w.tried.length === 0
                  ? t("watches.tried_none")
                  : t("watches.tried", {
                      tries: w.tried
                        .map((a) => t("watches.tried_item", { time: a.time, course: courseName(a.course), outcome: t(attemptOutcomeKey(a.outcome)) }))
                        .join(t("watches.tried_separator")),
                    })}
              </p>
              {w.status === "watching" ? (
                <div className="row-actions">
                  <Button variant="danger" isLoading={busy === w.id} disabled={busy === w.id} onClick={() => void cancel(w.id)}>
                    {t("watches.cancel")}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Check my requests now": each pending request checked as if released now. */
export function CheckRequestsButton() {
  const t = useText();
  const [isChecking, setChecking] = useState(false);
  async function check() {
    setChecking(true);
    try {
      const result = await checkRequests();
      showToast(result.problems > 0 ? "error" : "success", { textKey: "readiness.checked", context: { count: result.checked, problems: result.problems } });
    } catch (error) {
      const failure = failureOf(error);
      showToast("error", { textKey: failure.errorKey ?? "book.submit_failed", message: failure.message });
    } finally {
      setChecking(false);
    }
  }
  return (
    <Button variant="secondary" isLoading={isChecking} onClick={() => void check()}>
      {isChecking ? t("readiness.checking") : t("readiness.check_now")}
    </Button>
  );
}
