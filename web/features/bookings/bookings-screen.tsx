/**
 * The Bookings page: Confirmed Bookings and Pending Requests, as tables on desktop and
 * cards on a phone. Rows expand to show the players and, for requests, what the release engine
 * did. Edit opens the Book page on the item; Cancel asks first and goes through the socket.
 */
import { Fragment, useEffect, useState, type ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import type { ConfirmedBookingView } from "../../../src/domain/bookings-view.ts";
import { attemptOutcomeKey } from "../../../src/domain/attempt-outcomes.ts";
import { formatReleaseAt } from "../../../src/domain/format.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { useViewportWidth } from "../../lib/use-viewport-width.ts";
import { useLiveData } from "../../lib/live-data-store.ts";
import { appSocket, type SocketClient } from "../../lib/socket.ts";
import { useText, type Translate } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import {
  displayDate,
  displayInstantDate,
  displayTime,
  editLinkFor,
  requestStatusKind,
  requestStatusTextKey,
  showsReleaseTime,
  sortBookings,
  sortRequests,
  type RequestAttempt,
  type RequestRow,
} from "./bookings-model.ts";
import { StoryDialog, type StoryTarget } from "./story-dialog.tsx";
import "./bookings.css";

const DESKTOP_MIN_WIDTH_PX = 768;

type Item = { kind: "booking"; booking: ConfirmedBookingView } | { kind: "request"; request: RequestRow };

function keyOf(item: Item): string {
  return item.kind === "booking" ? `booking:${item.booking.bookingId}` : `request:${item.request.id}`;
}

/**
 * `onWatch`: "Watch for a free slot" on a failed request (the page opens the watch dialog);
 * `onRepeat`: "Repeat weekly" on a pending request (the page opens the standing-request dialog);
 * `children`: what the page adds below the lists (the member's watches).
 */
export function BookingsScreen({
  client = appSocket,
  onWatch,
  onRepeat,
  playerNote,
  actions,
  children,
}: {
  client?: SocketClient;
  onWatch?: (request: RequestRow) => void;
  onRepeat?: (request: RequestRow) => void;
  /** Beside each player of a request after the member: their answer to the member's invitation. */
  playerNote?: PlayerNote;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const t = useText();
  const navigate = useNavigate();
  const bookings = useLiveData((s) => s.bookings);
  const requests = useLiveData((s) => s.requests);
  const courses = useLiveData((s) => s.rules?.courseSchedule);
  const isDesktop = useViewportWidth() >= DESKTOP_MIN_WIDTH_PX;
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [toCancel, setToCancel] = useState<Item | null>(null);
  const [cancelling, setCancelling] = useState<Set<string>>(new Set());
  const [story, setStory] = useState<StoryTarget | null>(null);

  // A refused cancel comes back as an error (shown as a toast by the app); the row is usable again.
  useEffect(
    () =>
      client.subscribe((message) => {
        if (message.type === "error") setCancelling(new Set());
      }),
    [client],
  );

  const courseName = (id: string) => courses?.find((c) => c.id.toLowerCase() === id.toLowerCase())?.name ?? id;
  const bookingItems: Item[] = sortBookings(bookings).map((booking) => ({ kind: "booking", booking }));
  const requestItems: Item[] = sortRequests<RequestRow>(requests).map((request) => ({ kind: "request", request }));

  function toggle(item: Item) {
    const key = keyOf(item);
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }

  function edit(item: Item) {
    navigate(item.kind === "booking" ? editLinkFor({ kind: "booking", bookingId: item.booking.bookingId }) : editLinkFor({ kind: "request", id: item.request.id }));
  }

  function confirmCancel() {
    if (!toCancel) return;
    const isSent =
      toCancel.kind === "booking" ? client.send("CANCEL_CONFIRMED_BOOKING", { bookingId: toCancel.booking.bookingId }) : client.send("CANCEL_REQUEST", { id: toCancel.request.id });
    if (isSent) setCancelling((current) => new Set(current).add(keyOf(toCancel)));
    else showToast("error", { textKey: "bookings.not_connected" });
    setToCancel(null);
  }

  const view: ViewProps = {
    t,
    courseName,
    isExpanded: (item) => expanded.has(keyOf(item)),
    isCancelling: (item) => cancelling.has(keyOf(item)),
    onToggle: toggle,
    onEdit: edit,
    onCancel: setToCancel,
    onStory: (item) => setStory(item.kind === "booking" ? { kind: "booking", bookingId: item.booking.bookingId } : { kind: "request", id: item.request.id }),
    onWatch,
    onRepeat,
    playerNote,
  };
  const Section = isDesktop ? ItemTable : ItemCards;

  return (
    <section className="page bookings-page">
      <h1 className="page__title">{t("bookings.title")}</h1>
      {actions ? <div className="bookings-page__actions">{actions}</div> : null}
      <section className="bookings-section" aria-labelledby="confirmed-title">
        <h2 id="confirmed-title" className="bookings-section__title">
          {t("bookings.confirmed")}
        </h2>
        {bookingItems.length === 0 ? <p className="page__note">{t("bookings.empty_confirmed")}</p> : <Section items={bookingItems} {...view} />}
      </section>
      <section className="bookings-section" aria-labelledby="pending-title">
        <h2 id="pending-title" className="bookings-section__title">
          {t("bookings.pending")}
        </h2>
        {requestItems.length === 0 ? <p className="page__note">{t("bookings.empty_pending")}</p> : <Section items={requestItems} {...view} />}
      </section>
      <StoryDialog target={story} onClose={() => setStory(null)} />
      {children}
      <CancelDialog item={toCancel} courseName={courseName} onKeep={() => setToCancel(null)} onConfirm={confirmCancel} />
    </section>
  );
}

interface ViewProps {
  t: Translate;
  courseName: (id: string) => string;
  isExpanded: (item: Item) => boolean;
  isCancelling: (item: Item) => boolean;
  onToggle: (item: Item) => void;
  onEdit: (item: Item) => void;
  onCancel: (item: Item) => void;
  onStory: (item: Item) => void;
  onWatch?: (request: RequestRow) => void;
  onRepeat?: (request: RequestRow) => void;
  playerNote?: PlayerNote;
}

/** What the page shows beside a request's player (a playing partner's answer), by the player's membership number. */
export type PlayerNote = (request: RequestRow, memberId: string) => ReactNode;

function dateOf(item: Item): string {
  return displayDate(item.kind === "booking" ? item.booking.date : item.request.play_date);
}

function timeOf(item: Item): string {
  return displayTime(item.kind === "booking" ? item.booking.time : item.request.times[0]);
}

/** 'Confirmed', 'Releases Mar 5, 2025 07:00' for a waiting request, else the request's status. */
function statusText(item: Item, t: Translate): string {
  if (item.kind === "booking") return t("bookings.status.confirmed");
  const { request } = item;
  if (showsReleaseTime(request) && request.release_at != null) return t("bookings.releases", { date: formatReleaseAt(request.release_at) });
  const key = requestStatusTextKey(request);
  return key === null ? request.status : t(key);
}

function submittedText(item: Item, t: Translate): string | null {
  if (item.kind === "booking") {
    const date = displayInstantDate(item.booking.createdAt);
    return date ? t("bookings.booked_on", { date }) : null;
  }
  const date = displayInstantDate(item.request.submittedAt ?? null);
  return date ? t("bookings.submitted_on", { date }) : null;
}

function isProcessing(item: Item): boolean {
  return item.kind === "request" && requestStatusKind(item.request.status) === "processing";
}

function RowActions({ item, t, isCancelling, onEdit, onCancel, onStory, onWatch, onRepeat }: { item: Item } & ViewProps) {
  const isBusy = isCancelling(item) || isProcessing(item);
  const isFailed = item.kind === "request" && requestStatusKind(item.request.status) === "failed";
  const isPending = item.kind === "request" && requestStatusKind(item.request.status) === "pending";
  return (
    <div className="row-actions">
      <Button variant="secondary" onClick={() => onStory(item)}>
        {item.kind === "booking" ? t("story.open_booking") : t("story.open_request")}
      </Button>
      {isFailed && onWatch ? (
        <Button variant="secondary" onClick={() => onWatch(item.request)}>
          {t("watches.create")}
        </Button>
      ) : null}
      {isPending && onRepeat ? (
        <Button variant="secondary" onClick={() => onRepeat(item.request)}>
          {t("series.repeat")}
        </Button>
      ) : null}
      <Button variant="secondary" disabled={isBusy} onClick={() => onEdit(item)}>
        {t("bookings.edit")}
      </Button>
      <Button variant="danger" disabled={isBusy} isLoading={isCancelling(item)} onClick={() => onCancel(item)}>
        {isCancelling(item) ? t("bookings.cancelling") : t("bookings.cancel")}
      </Button>
    </div>
  );
}

function ToggleButton({ item, t, isExpanded, onToggle }: { item: Item } & ViewProps) {
  return (
    <button type="button" className="row-toggle" aria-expanded={isExpanded(item)} onClick={() => onToggle(item)}>
      <span aria-hidden="true">{isExpanded(item) ? "▾" : "▸"}</span>
      <span className="visually-hidden">{isExpanded(item) ? t("bookings.hide_details") : t("bookings.show_details")}</span>
    </button>
  );
}

function ItemTable({ items, ...view }: { items: Item[] } & ViewProps) {
  const { t } = view;
  return (
    <table className="bookings-table">
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">{t("bookings.show_details")}</span>
          </th>
          <th scope="col">{t("bookings.col.date")}</th>
          <th scope="col">{t("bookings.col.course")}</th>
          <th scope="col">{t("bookings.col.times")}</th>
          <th scope="col">{t("bookings.col.status")}</th>
          <th scope="col">{t("bookings.col.actions")}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => {
          const submitted = submittedText(item, t);
          return (
            <Fragment key={keyOf(item)}>
              <tr className="bookings-table__row" data-testid={keyOf(item)}>
                <td>
                  <ToggleButton item={item} {...view} />
                </td>
                <td>{dateOf(item)}</td>
                <td>{view.courseName(item.kind === "booking" ? item.booking.course : item.request.course)}</td>
                <td>{timeOf(item)}</td>
                <td>
                  <span className={`status status--${item.kind === "booking" ? "confirmed" : requestStatusKind(item.request.status)}`}>{statusText(item, t)}</span>
                  {submitted ? <span className="row-sub">{submitted}</span> : null}
                </td>
                <td>
                  <RowActions item={item} {...view} />
                </td>
              </tr>
              {view.isExpanded(item) ? (
                <tr className="bookings-table__details">
                  <td colSpan={6}>
                    <ItemDetails item={item} t={t} playerNote={view.playerNote} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}

function ItemCards({ items, ...view }: { items: Item[] } & ViewProps) {
  const { t } = view;
  return (
    <ul className="booking-cards">
      {items.map((item) => {
        const submitted = submittedText(item, t);
        return (
          <li key={keyOf(item)} className="booking-card" data-testid={keyOf(item)}>
            <div className="booking-card__head">
              <div>
                <div className="booking-card__date">
                  {dateOf(item)} · {timeOf(item)}
                </div>
                <div className="booking-card__course">{view.courseName(item.kind === "booking" ? item.booking.course : item.request.course)}</div>
              </div>
              <ToggleButton item={item} {...view} />
            </div>
            <div className="booking-card__status">
              <span className={`status status--${item.kind === "booking" ? "confirmed" : requestStatusKind(item.request.status)}`}>{statusText(item, t)}</span>
              {submitted ? <span className="row-sub">{submitted}</span> : null}
            </div>
            {view.isExpanded(item) ? <ItemDetails item={item} t={t} playerNote={view.playerNote} /> : null}
            <RowActions item={item} {...view} />
          </li>
        );
      })}
    </ul>
  );
}

function ItemDetails({ item, t, playerNote }: { item: Item; t: Translate; playerNote?: PlayerNote }) {
  const names =
    item.kind === "booking"
      ? item.booking.playersInfo.map((p) => ({ name: p.name, type: p.type, memberId: p.id }))
      : item.request.players.map((p) => ({ name: p.name, type: p.type, memberId: p.memberId }));
  return (
    <div className="item-details">
      <h3 className="item-details__title">{t("bookings.players")}</h3>
      {names.length === 0 ? (
        <p className="page__note">{t("bookings.no_players")}</p>
      ) : (
        <ul className="item-details__players">
          {names.map((p, i) => (
            <li key={`${p.name}-${i}`}>
              {p.name} <span className="row-sub">{p.type}</span>
              {item.kind === "request" && i > 0 && p.memberId && playerNote ? <> {playerNote(item.request, p.memberId)}</> : null}
            </li>
          ))}
        </ul>
      )}
      {item.kind === "request" ? <AttemptLog request={item.request} t={t} /> : null}
    </div>
  );
}

function offsetText(offsetMs: number | null | undefined, t: Translate): string | null {
  if (offsetMs == null || !Number.isFinite(offsetMs)) return null;
  const ms = Math.round(offsetMs);
  if (ms === 0) return t("bookings.attempt_at_release");
  return ms > 0 ? t("bookings.attempt_offset_after", { ms }) : t("bookings.attempt_offset_before", { ms: -ms });
}

function attemptLine(attempt: RequestAttempt, t: Translate): ReactNode {
  const parts = [
    offsetText(attempt.offsetFromReleaseMs, t),
    t(attemptOutcomeKey(attempt.outcome)),
    attempt.durationMs != null ? t("bookings.attempt_duration", { ms: Math.round(attempt.durationMs) }) : null,
  ].filter((p): p is string => Boolean(p));
  return (
    <>
      <strong>{displayTime(attempt.time)}</strong> {parts.join(" · ")}
      {attempt.answer ? <span className="row-sub attempt__answer">{attempt.answer}</span> : null}
    </>
  );
}

function AttemptLog({ request, t }: { request: RequestRow; t: Translate }) {
  const attempts = request.attempts ?? [];
  return (
    <div className="attempt-log">
      <h3 className="item-details__title">{t("bookings.attempts")}</h3>
      <p className="row-sub">{t("bookings.times", { times: request.times.map((x) => displayTime(x)).join(", ") })}</p>
      {attempts.length === 0 ? (
        <p className="page__note">{t("bookings.attempts_none")}</p>
      ) : (
        <ol className="attempt-log__list">
          {attempts.map((attempt, i) => (
            <li key={i} className="attempt">
              {attemptLine(attempt, t)}
            </li>
          ))}
        </ol>
      )}
      {request.failureReason ? <p className="form-error attempt-log__reason">{t("bookings.failure_reason", { reason: request.failureReason })}</p> : null}
    </div>
  );
}

function CancelDialog({ item, courseName, onKeep, onConfirm }: { item: Item | null; courseName: (id: string) => string; onKeep: () => void; onConfirm: () => void }) {
  const t = useText();
  if (!item) return null;
  const body =
    item.kind === "booking"
      ? t("bookings.cancel_booking_body", { date: dateOf(item), time: timeOf(item), course: courseName(item.booking.course) })
      : t("bookings.cancel_request_body", { date: dateOf(item), course: courseName(item.request.course) });
  return (
    <Dialog
      isOpen
      title={item.kind === "booking" ? t("bookings.cancel_title") : t("bookings.cancel_request_title")}
      onClose={onKeep}
      actions={
        <>
          <Button variant="secondary" onClick={onKeep}>
            {t("bookings.cancel_keep")}
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            {t("bookings.cancel_confirm")}
          </Button>
        </>
      }
    >
      <p>{body}</p>
    </Dialog>
  );
}
