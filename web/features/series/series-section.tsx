/**
 * The member's standing requests on the Bookings page: each with its days, course, times and
 * players, its next dates with their states (and a date's reason, its release, its place in the
 * release's line), Skip and Change times per date not yet released, Change and End per series.
 * Reloads when a change names the member's standing requests (the resource cache, web/lib/resources.ts).
 */
import { useEffect, useRef, useState } from "react";
import { formatReleaseAt } from "../../../src/domain/format.ts";
import type { OccurrenceView, SeriesView } from "../../../src/features/series/series.schemas.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { onResourcesChanged, useResource } from "../../lib/resources.ts";
import { appSocket, type SocketClient } from "../../lib/socket.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import { RepeatDialog } from "./repeat-dialog.tsx";
import { baseOfSeries, changeOccurrence, dayKey, endSeries, failureOf, listSeries, parseList, skipOccurrence } from "./series-api.ts";
import "./series.css";

export function useSeries(client: SocketClient = appSocket): { series: SeriesView[] | null; reload: () => void } {
  const { data, error, reload } = useResource("my.series", listSeries);
  // A date's state is its request's: a change of the member's requests (queued, booked, failed at
  // a release) changes the series list too, when there is one (a new series names my.series itself).
  const hasSeries = useRef(false);
  hasSeries.current = (data?.length ?? 0) > 0;
  useEffect(
    () =>
      onResourcesChanged(
        ["my.requests"],
        () => {
          if (hasSeries.current) void reload();
        },
        client,
      ),
    [client, reload],
  );
  // A list that could not be loaded shows as empty; one loaded before stays.
  return { series: data ?? (error ? [] : null), reload: () => void reload() };
}

/** Dates that may still be skipped: not released, not already skipped or cancelled. */
const SKIPPABLE = new Set<OccurrenceView["state"]>(["scheduled", "pending", "held", "needs_attention"]);

export function SeriesSection({ series, reload, courseName }: { series: SeriesView[] | null; reload: () => void; courseName: (id: string) => string }) {
  const t = useText();
  const tryText = useTextLookup();
  const [busy, setBusy] = useState<string | null>(null);
  const [ending, setEnding] = useState<SeriesView | null>(null);
  const [editing, setEditing] = useState<SeriesView | null>(null);
  const [dateTimes, setDateTimes] = useState<{ series: SeriesView; date: string; times: string } | null>(null);

  async function act(key: string, task: () => Promise<void>, success: () => void) {
    setBusy(key);
    try {
      await task();
      success();
      reload();
    } catch (error) {
      const failure = failureOf(error);
      showToast("error", { textKey: failure.errorKey ?? "book.submit_failed", message: tryText(failure.errorKey, undefined, failure.message) ?? failure.message });
    } finally {
      setBusy(null);
    }
  }

  const summary = (s: SeriesView) =>
    t("series.summary", {
      days: s.weekdays.map((d) => t(dayKey(d))).join(t("series.day_separator")),
      course: s.course ? courseName(s.course) : t("series.any_course"),
      times: s.times ? s.times.join(" ") : t("series.range", { from: s.fromTime ?? "", to: s.toTime ?? "" }),
    });

  return (
    <section className="bookings-section" aria-labelledby="series-title">
      <h2 id="series-title" className="bookings-section__title">
        {t("series.title")}
      </h2>
      {!series || series.length === 0 ? (
        <p className="page__note">{t("series.empty")}</p>
      ) : (
        <ul className="booking-cards">
          {series.map((s) => (
            <li key={s.id} className="booking-card" data-testid={`series:${s.id}`}>
              <div className="booking-card__head">
                <div>
                  <div className="booking-card__date">{summary(s)}</div>
                  <div className="booking-card__course">
                    {s.startDate}
                    {s.endDate ? ` · ${t("series.until", { date: s.endDate })}` : ""} ·{" "}
                    {t("series.players", { names: s.playerNames.length > 0 ? s.playerNames.join(", ") : t("series.just_me") })}
                  </div>
                </div>
                {s.status === "ended" ? <span className="status status--series-cancelled">{t("series.ended_label")}</span> : null}
              </div>
              <p className="row-sub">{t("series.next")}</p>
              <ul className="series-dates">
                {s.next.map((o) => (
                  <li key={o.date} className="series-date" data-testid={`occurrence:${s.id}:${o.date}`}>
                    <span>
                      {o.date} · {o.course ? courseName(o.course) : t("series.any_course")} · {o.times.join(" ")}
                    </span>
                    <span className={`status status--series-${o.state}`}>{t(`series.state.${o.state}`)}</span>
                    {o.state === "scheduled" && o.queuesAt !== null ? <span className="row-sub">{t("series.queues_at", { at: formatReleaseAt(o.queuesAt) })}</span> : null}
                    {o.state === "pending" && o.releaseAt !== null ? <span className="row-sub">{t("bookings.releases", { date: formatReleaseAt(o.releaseAt) })}</span> : null}
                    {o.line ? <span className="row-sub">{t("series.line", { place: o.line.place, of: o.line.of })}</span> : null}
                    {o.reason ? <span className="row-sub">{o.reason}</span> : null}
                    {s.status === "active" && SKIPPABLE.has(o.state) ? (
                      <Button variant="secondary" disabled={busy !== null} onClick={() => setDateTimes({ series: s, date: o.date, times: o.times.join(", ") })}>
                        {t("series.change_date")}
                      </Button>
                    ) : null}
                    {s.status === "active" && SKIPPABLE.has(o.state) ? (
                      <Button
                        variant="secondary"
                        isLoading={busy === `${s.id}:${o.date}`}
                        disabled={busy !== null}
                        onClick={() =>
                          void act(
                            `${s.id}:${o.date}`,
                            () => skipOccurrence(s.id, o.date),
                            () => showToast("success", { textKey: "series.skipped_toast", context: { date: o.date } }),
                          )
                        }
                      >
                        {t("series.skip")}
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
              {s.status === "active" ? (
                <div className="row-actions">
                  <Button variant="secondary" disabled={busy !== null} onClick={() => setEditing(s)}>
                    {t("series.change")}
                  </Button>
                  <Button variant="danger" disabled={busy !== null} onClick={() => setEnding(s)}>
                    {t("series.end")}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {ending ? (
        <Dialog
          isOpen
          title={t("series.end")}
          onClose={() => setEnding(null)}
          actions={
            <>
              <Button variant="secondary" onClick={() => setEnding(null)}>
                {t("bookings.cancel_keep")}
              </Button>
              <Button
                variant="danger"
                isLoading={busy === `end:${ending.id}`}
                onClick={() => {
                  const id = ending.id;
                  setEnding(null);
                  void act(
                    `end:${id}`,
                    () => endSeries(id),
                    () => showToast("success", { textKey: "series.ended" }),
                  );
                }}
              >
                {t("series.end")}
              </Button>
            </>
          }
        >
          <p>{t("series.end_confirm")}</p>
        </Dialog>
      ) : null}
      {editing ? <RepeatDialog base={baseOfSeries(editing, "")} editing={editing} onClose={() => setEditing(null)} onCreated={reload} /> : null}
      {dateTimes ? (
        <Dialog
          isOpen
          title={t("series.change_date_title", { date: dateTimes.date })}
          onClose={() => setDateTimes(null)}
          actions={
            <>
              <Button variant="secondary" onClick={() => setDateTimes(null)}>
                {t("bookings.cancel_keep")}
              </Button>
              <Button
                onClick={() => {
                  const { series: target, date, times } = dateTimes;
                  setDateTimes(null);
                  void act(
                    `${target.id}:${date}`,
                    () => changeOccurrence(target.id, date, parseList(times)),
                    () => showToast("success", { textKey: "series.date_changed", context: { date } }),
                  );
                }}
              >
                {t("series.save")}
              </Button>
            </>
          }
        >
          <label className="field">
            <span className="field__label">{t("series.date_times")}</span>
            <input className="field__input" type="text" name="times" value={dateTimes.times} onChange={(e) => setDateTimes({ ...dateTimes, times: e.target.value })} />
          </label>
        </Dialog>
      ) : null}
    </section>
  );
}
