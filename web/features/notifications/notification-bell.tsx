/**
 * The bell in the header: the member's unread count, and their notification list in a
 * dialog (focus kept inside, Escape closes, labelled by its title). The count follows the server:
 * the list reloads whenever the socket says the member's data changed (a notification stored, one
 * read in another tab) or the socket came back.
 */
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { formatEventDate, manilaDate, manilaTimeOfDay } from "../../../src/domain/manila-time.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { afterFirstPaint } from "../../lib/after-first-paint.ts";
import { onResourcesChanged } from "../../lib/resources.ts";
import { appSocket, type SocketClient } from "../../lib/socket.ts";
import { useText } from "../../lib/text.ts";
import { notificationsApi, type NotificationItem, type NotificationsResponse } from "./notifications-api.ts";
import "./notifications.css";

interface ListState {
  items: NotificationItem[];
  unread: number;
  hasMore: boolean;
}

/** The first page as it is now, with any older pages the member opened kept below it. */
function mergeFirstPage(current: ListState | null, fresh: NotificationsResponse): ListState {
  const oldest = fresh.items.at(-1)?.id;
  const older = current && fresh.hasMore && oldest !== undefined ? current.items.filter((n) => n.id < oldest) : [];
  return { items: [...fresh.items, ...older], unread: fresh.unread, hasMore: older.length > 0 ? current!.hasMore : fresh.hasMore };
}

const whenOf = (at: number) => `${formatEventDate(manilaDate(at))} ${manilaTimeOfDay(at).slice(0, 5)}`;

function BellIcon() {
  return (
    <svg className="notification-bell__icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
    </svg>
  );
}

/** What a row can do beyond being read, by its kind (an invitation's answer): the page composing the bell gives it. */
export type NotificationActions = (item: NotificationItem) => ReactNode;

function NotificationRow({ item, onRead, isBusy, renderActions }: { item: NotificationItem; onRead: (id: number) => void; isBusy: boolean; renderActions?: NotificationActions }) {
  const t = useText();
  const textId = useId();
  const isUnread = item.readAt === null;
  return (
    <li className={isUnread ? "notification is-unread" : "notification"} data-testid={`notification:${item.id}`}>
      <p className="notification__text" id={textId}>
        {item.text}
      </p>
      <p className="notification__meta">
        <time dateTime={new Date(item.createdAt).toISOString()}>{whenOf(item.createdAt)}</time>
        {isUnread ? <span className="notification__unread">{t("notifications.unread")}</span> : null}
      </p>
      {renderActions?.(item)}
      {isUnread ? (
        <Button variant="ghost" className="notification__read" aria-describedby={textId} disabled={isBusy} onClick={() => onRead(item.id)}>
          {t("notifications.mark_read")}
        </Button>
      ) : null}
    </li>
  );
}

export function NotificationBell({ client = appSocket, renderActions }: { client?: SocketClient; renderActions?: NotificationActions }) {
  const t = useText();
  const [isOpen, setOpen] = useState(false);
  const [list, setList] = useState<ListState | null>(null);
  const [hasError, setHasError] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const listRef = useRef<ListState | null>(null);
  listRef.current = list;

  const load = useCallback(async () => {
    try {
      const fresh = await notificationsApi.page();
      setList(mergeFirstPage(listRef.current, fresh));
      setHasError(false);
    } catch {
      setHasError(true);
    }
  }, []);

  useEffect(() => {
    // The count is not what the member opened the page for: it loads once the page has painted.
    let isMounted = true;
    afterFirstPaint(() => {
      if (isMounted) void load();
    });
    const stopRefresh = onResourcesChanged(["my.notifications"], () => void load(), client);
    return () => {
      isMounted = false;
      stopRefresh();
    };
  }, [load, client]);

  async function markRead(which: { all: true } | { ids: number[] }) {
    setBusy(true);
    try {
      const { unread } = await notificationsApi.markRead(which);
      const now = Date.now();
      setList(
        (current) =>
          current && {
            ...current,
            unread,
            items: current.items.map((n) => (n.readAt === null && ("all" in which || which.ids.includes(n.id)) ? { ...n, readAt: now } : n)),
          },
      );
    } catch {
      // The server keeps what it has; the next reload shows it.
    } finally {
      setBusy(false);
    }
  }

  async function showOlder() {
    const oldest = list?.items.at(-1)?.id;
    if (oldest === undefined) return;
    setBusy(true);
    try {
      const page = await notificationsApi.page(oldest);
      setList((current) => current && { items: [...current.items, ...page.items.filter((n) => n.id < oldest)], unread: page.unread, hasMore: page.hasMore });
    } catch {
      setHasError(true);
    } finally {
      setBusy(false);
    }
  }

  const unread = list?.unread ?? 0;
  const label = unread > 0 ? t("notifications.bell_unread", { count: unread }) : t("notifications.bell");
  return (
    <>
      <button
        type="button"
        className="notification-bell"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        data-testid="notification-bell"
        onClick={() => {
          setOpen(true);
          void load();
        }}
      >
        <BellIcon />
        {unread > 0 ? (
          <span className="badge notification-bell__badge" aria-hidden="true" data-testid="notification-count">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </button>
      <Dialog
        isOpen={isOpen}
        title={t("notifications.title")}
        onClose={() => setOpen(false)}
        className="notification-dialog"
        actions={
          <>
            {unread > 0 ? (
              <Button variant="secondary" isLoading={isBusy} onClick={() => void markRead({ all: true })}>
                {t("notifications.mark_all_read")}
              </Button>
            ) : null}
            <Button variant="primary" onClick={() => setOpen(false)}>
              {t("common.close")}
            </Button>
          </>
        }
      >
        {hasError ? (
          <p className="notification-dialog__error" role="alert">
            {t("notifications.load_failed")}
          </p>
        ) : null}
        {list && list.items.length === 0 ? <p className="notification-dialog__empty">{t("notifications.empty")}</p> : null}
        {list && list.items.length > 0 ? (
          <ul className="notification-list" aria-label={t("notifications.title")}>
            {list.items.map((item) => (
              <NotificationRow key={item.id} item={item} isBusy={isBusy} renderActions={renderActions} onRead={(id) => void markRead({ ids: [id] })} />
            ))}
          </ul>
        ) : null}
        {list?.hasMore ? (
          <Button variant="ghost" className="notification-dialog__more" disabled={isBusy} onClick={() => void showOlder()}>
            {t("notifications.more")}
          </Button>
        ) : null}
      </Dialog>
    </>
  );
}
