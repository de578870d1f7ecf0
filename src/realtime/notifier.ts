/**
 * The one place that turns what happened in Teebox (domain events: src/domain/events.ts, returned
 * by lifecycle transitions or raised by services and jobs) into what members are told: socket
 * messages for open screens (`messagesFor`: a toast, and the resources the event changed, which
 * those screens reload) and notifications for the member's list and email (`notificationFor`).
 * Services never build socket messages.
 */
import { DEFAULT_UI_TEXT, isUiTextKey } from "../domain/ui-text/index.ts";
import type { DomainEvent, RequestOccurrence } from "../domain/events.ts";
import { renderReason, type RequestReason } from "../domain/request-reasons.ts";
import { notificationTextKey, type NotificationKind } from "../domain/notifications.ts";
import type { ResourceKey } from "../domain/resources.ts";
import type { ServerMessage, ToastPayload } from "./messages.ts";
import { createYieldingQueue } from "../lib/yielding-queue.ts";

export interface Notifier {
  /** Tells members what the event means for them; null (a transition that moved nothing) tells nobody anything. */
  publish(event: DomainEvent | null): void;
  /** Resolves once the notifications of the events published so far are stored (tests, shutdown). */
  settled?(): Promise<void>;
}

/** One entry of a member's notification list, as the notifier asks for it to be stored. */
export interface NotificationRecord {
  userId: number;
  kind: NotificationKind;
  /** The UI-text key of its line, filled from `context` (rendered in the member's wording when read). */
  textKey: string;
  context: Record<string, string>;
  /**
   * Names the event itself (the booking's reference, the request's submission, the watch), never
   * only what it is about (a date, course and time): the same event raised twice is stored, and
   * mailed, once; another event about the same tee time is told too.
   */
  eventId: string;
}

/** Where the messages go: the socket hub (or a test's recorder). */
export interface MessageSink {
  toUser(userId: number, message: ServerMessage): void;
  toAll(message: ServerMessage): void;
}

/** Data changed: what, so a screen reloads only that (a client that reads no more than `status: updated` reloads everything). */
export const changed = (...keys: ResourceKey[]): ServerMessage => ({ type: "status", status: "updated", changed: keys });
const toast = (toast: ToastPayload): ServerMessage => ({ type: "toast", toast });

/** What an event changed: who sees it, and the resources their screens reload (null: nothing to reload). */
export function changedBy(event: DomainEvent): { userId: number | "everyone"; keys: ResourceKey[] } | null {
  const mine = (userId: number, ...keys: ResourceKey[]) => ({ userId, keys });
  const everyone = (...keys: ResourceKey[]) => (keys.length > 0 ? { userId: "everyone" as const, keys } : null);
  switch (event.type) {
    case "request_submitted":
    case "request_changed":
    case "requests_moved":
    case "request_cancelled":
    case "request_failed":
    case "needs_attention":
      return mine(event.userId, "my.requests");
    case "booking_confirmed":
      return mine(event.userId, "my.requests", "my.bookings");
    case "booking_cancelled":
    case "booking_edited":
    case "club_bookings_synced":
      return mine(event.userId, "my.bookings");
    case "club_booking_cancelled":
    case "club_booking_changed":
      // The sync names the bookings once for all it applied (club_bookings_synced); these are what the member reads.
      return null;
    case "watch_made":
    case "watch_ended":
    case "watch_found":
      return mine(event.userId, "my.watches");
    case "watch_booked":
      // The booking is the member's now (and an upgrade's old one is gone).
      return mine(event.userId, "my.watches", "my.bookings");
    case "series_changed":
      // Its dates are requests too: queued, revised, withdrawn.
      return mine(event.userId, "my.series", "my.requests");
    case "series_needs_attention":
      return mine(event.userId, "my.series");
    case "invitation_sent":
    case "invitations_changed":
      return mine(event.userId, "my.invitations");
    case "partner_booked":
      // Their invitation now shows the booking, and their calendar feed has it.
      return mine(event.userId, "my.invitations");
    case "players_saved":
      return mine(event.userId, "my.players");
    case "profile_saved":
    case "account_changed":
      return mine(event.userId, "my.profile");
    case "notifications_read":
      return mine(event.userId, "my.notifications");
    case "club_read":
      return everyone(...(event.sheets ? (["tee-times"] as const) : []), ...(event.advisories ? (["advisories"] as const) : []));
    case "settings_saved":
      // The bookable dates and the estimated tee times follow the settings.
      return everyone("settings", "tee-times");
    case "club_config_changed":
      return event.part === "announcements" ? everyone("advisories") : everyone("settings", "tee-times");
    case "texts_changed":
      return null;
  }
}

/** The toast an event shows its member, if any. */
function toastFor(event: DomainEvent): ToastPayload | null {
  switch (event.type) {
    case "requests_moved":
      return { kind: "info", textKey: "admin.settings.requests_rearmed", context: { count: event.count } };
    case "request_cancelled":
      return { kind: "success", textKey: "bookings.toast.request_cancelled", message: DEFAULT_UI_TEXT["bookings.toast.request_cancelled"] };
    case "booking_cancelled": {
      const context = { bookingId: event.ref };
      return { kind: "success", textKey: "bookings.toast.booking_cancelled", context, message: renderReason(DEFAULT_UI_TEXT["bookings.toast.booking_cancelled"], context) };
    }
    case "booking_confirmed": {
      const context = { course: event.course, date: event.date, time: event.time, bookingId: event.ref };
      return { kind: "success", textKey: "bookings.toast.booked", context, message: renderReason(DEFAULT_UI_TEXT["bookings.toast.booked"], context) };
    }
    case "request_failed": {
      // The toast carries the reason rendered in its default text, and its key and placeholders,
      // so a browser can render it in the wording an admin chose: t(reasonKey, context).
      const reasonText = renderReason(DEFAULT_UI_TEXT[event.reason.key], event.reason.context);
      const context = { ...event.reason.context, course: event.course, date: event.date, reason: reasonText, reasonKey: event.reason.key };
      return { kind: "error", textKey: "bookings.toast.failed", context, message: renderReason(DEFAULT_UI_TEXT["bookings.toast.failed"], context) };
    }
    case "watch_booked":
    case "watch_found":
    case "needs_attention":
    case "series_needs_attention":
    case "club_booking_cancelled":
    case "club_booking_changed":
    case "invitation_sent":
    case "partner_booked": {
      const { kind, context } = notificationFor(event)!;
      const textKey = notificationTextKey(kind);
      const toastKind = event.type === "watch_booked" ? "success" : event.type === "needs_attention" || event.type === "series_needs_attention" ? "error" : "info";
      return { kind: toastKind, textKey, context, message: renderReason(DEFAULT_UI_TEXT[textKey], context) };
    }
    default:
      return null;
  }
}

/**
 * The events one event implies for other members: a booking confirmed with partners who accepted
 * tells each of them they play with the organiser. The event itself comes first.
 */
export function eventsImpliedBy(event: DomainEvent): DomainEvent[] {
  if ((event.type === "request_cancelled" || event.type === "watch_ended") && event.partners) {
    const others = event.partners.filter((userId) => userId !== event.userId);
    return [event, ...others.map((userId): DomainEvent => ({ type: "invitations_changed", userId }))];
  }
  if ((event.type === "booking_confirmed" || event.type === "watch_booked") && event.partners) {
    const { userIds, organiser } = event.partners;
    const told = { organiser, course: event.course, date: event.date, time: event.time ?? "", ref: event.ref ?? "" };
    return [event, ...userIds.map((userId): DomainEvent => ({ type: "partner_booked", userId, ...told }))];
  }
  return [event];
}

/** The socket messages of one event, in the order they are sent, with their audience: its toast, then what it changed. */
export function messagesFor(event: DomainEvent): { userId: number | "everyone"; message: ServerMessage }[] {
  if (event.type === "texts_changed") return [{ userId: "everyone", message: { type: "uiTextUpdated" } }];
  const out: { userId: number | "everyone"; message: ServerMessage }[] = [];
  const shown = toastFor(event);
  if (shown && "userId" in event) out.push({ userId: event.userId, message: toast(shown) });
  const change = changedBy(event);
  if (change) out.push({ userId: change.userId, message: changed(...change.keys) });
  return out;
}

/** A reason's default text and its key beside its own placeholders, for a line that names it as {reason}. */
function reasonContext(reason: RequestReason | undefined): Record<string, string> {
  if (!reason) return { reason: "" };
  return { ...reason.context, reason: renderReason(DEFAULT_UI_TEXT[reason.key], reason.context), reasonKey: reason.key };
}

const record = (userId: number, kind: NotificationKind, context: Record<string, string>, eventId: string): NotificationRecord => ({
  userId,
  kind,
  textKey: notificationTextKey(kind),
  context,
  eventId,
});

const submission = (event: RequestOccurrence) => `#${event.requestId}@${event.submittedAt}`;

/**
 * The notification an event leaves in its member's list (and outbox), or null for events that only
 * refresh screens. The event id names the event itself (stored per member): the booking by its
 * reference, a request's outcome by its submission, a watch's find by the watch.
 */
export function notificationFor(event: DomainEvent): NotificationRecord | null {
  switch (event.type) {
    case "booking_confirmed": {
      const context = { course: event.course, date: event.date, time: event.time, bookingId: event.ref };
      return record(event.userId, "request_confirmed", context, `booking_confirmed:${event.ref}`);
    }
    case "request_failed": {
      const context = { ...reasonContext(event.reason), course: event.course, date: event.date };
      return record(event.userId, "request_failed", context, `request_failed:${submission(event)}`);
    }
    case "watch_booked":
    case "watch_found": {
      const context = { ...reasonContext(event.reason), course: event.course, date: event.date, time: event.time ?? "" };
      return record(event.userId, event.type, context, `${event.type}:watch ${event.watchId}`);
    }
    case "needs_attention": {
      const context = { ...reasonContext(event.reason), course: event.course, date: event.date, time: event.time ?? "" };
      return record(event.userId, event.type, context, `needs_attention:${submission(event)}:${event.reason?.key ?? ""}`);
    }
    case "series_needs_attention": {
      // Told once per date and reason: a later pass finding the same reason says nothing new.
      const reason = isUiTextKey(event.reason.key) ? renderReason(DEFAULT_UI_TEXT[event.reason.key], event.reason.context) : event.reason.key;
      const context = { ...event.reason.context, reason, reasonKey: event.reason.key, course: event.course, date: event.date, time: "" };
      return record(event.userId, "needs_attention", context, `series_needs_attention:series ${event.seriesId}:${event.date}:${event.reason.key}`);
    }
    case "club_booking_cancelled": {
      const context = { bookingId: event.ref, course: event.course, date: event.date, time: event.time };
      return record(event.userId, "booking_cancelled", context, `club_booking_cancelled:${event.ref}`);
    }
    case "club_booking_changed": {
      const context = { bookingId: event.ref, course: event.course, date: event.date, time: event.time };
      return record(event.userId, "booking_changed", context, `club_booking_changed:${event.ref}:${event.readAt}`);
    }
    case "invitation_sent": {
      // The invitation's id lets the bell answer it; naming it again (re-invited) is a new event.
      const context = { organiser: event.organiser, course: event.course, date: event.date, time: event.time, invitationId: String(event.invitationId) };
      return record(event.userId, "partner_invited", context, `partner_invited:${event.invitationId}:${event.date}:${event.time}`);
    }
    case "partner_booked": {
      const context = { organiser: event.organiser, course: event.course, date: event.date, time: event.time, bookingId: event.ref };
      return record(event.userId, "partner_booked", context, `partner_booked:${event.ref}`);
    }
    default:
      return null;
  }
}

export interface NotifierOptions {
  /**
   * Stores a notification (the member's list, and the outbox when the member's email switch is
   * on); true when it was new. Never sends anything itself: the mail job does.
   */
  record?: (notification: NotificationRecord) => Promise<boolean>;
  onError?: (error: unknown, notification: NotificationRecord) => void;
}

/** How long the notifications waiting to be stored may hold the thread before a page's read is let in (decision 206). */
const STORE_SLICE_MS = 4;
/** A store stalled this long (a database across a network not answering) no longer holds up the next. */
const STORE_STALL_MS = 1_000;

/**
 * Sends each event's socket messages at once. An event that leaves a notification is stored after
 * the caller has gone on (publish never waits for the database), in turn with the others, the
 * server's reads let in between (createYieldingQueue); its toast goes at once, and what it changed
 * once the notification is stored, in one message that names the member's notification list too
 * when it was new: one change, one reload of each thing it changed.
 */
export function createNotifier(sink: MessageSink, options: NotifierOptions = {}): Notifier {
  const pending = new Set<Promise<void>>();
  const storing = createYieldingQueue({ sliceMs: STORE_SLICE_MS, stallMs: STORE_STALL_MS });

  function send(userId: number | "everyone", message: ServerMessage) {
    if (userId === "everyone") sink.toAll(message);
    else sink.toUser(userId, message);
  }

  function store(notification: NotificationRecord, keys: readonly ResourceKey[], recordNotification: NonNullable<NotifierOptions["record"]>) {
    let isNew = false;
    const run = storing
      .run(() => recordNotification(notification))
      .then((stored) => {
        isNew = stored;
      })
      .catch((error) => options.onError?.(error, notification))
      .finally(() => {
        pending.delete(run);
        const named = isNew ? [...keys, "my.notifications" as const] : keys;
        if (named.length > 0) send(notification.userId, changed(...named));
      });
    pending.add(run);
  }

  function publishOne(event: DomainEvent) {
    const notification = options.record ? notificationFor(event) : null;
    const change = changedBy(event);
    for (const { userId, message } of messagesFor(event)) {
      // A member's change waits for their notification, to go out with it in one message.
      if (notification && message.type === "status" && userId === notification.userId) continue;
      send(userId, message);
    }
    if (notification && options.record) store(notification, change?.userId === notification.userId ? change.keys : [], options.record);
  }

  return {
    publish(raised) {
      if (!raised) return;
      for (const event of eventsImpliedBy(raised)) publishOne(event);
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
