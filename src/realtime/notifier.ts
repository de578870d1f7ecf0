/**
 * The one place that turns what happened in Teebox (domain events raised by services and jobs)
 * into what members are told: socket messages for open screens (`messagesFor`) and notifications
 * for the member's list and email (`notificationFor`). Services never build socket messages.
 */
import { DEFAULT_UI_TEXT, type UiTextKey } from "../domain/ui-text/index.ts";
import { renderReason, type RequestReason } from "../domain/request-reasons.ts";
import { notificationTextKey, type NotificationKind } from "../domain/notifications.ts";
import type { ServerMessage, ToastPayload } from "./messages.ts";

/**
 * Which submission of a request an event is about: its id and when it was submitted (an edit
 * submits it again under the same id, so a failure after an edit is a new event).
 */
export interface RequestOccurrence {
  requestId: number;
  submittedAt: number;
}

export type DomainEvent =
  /** Something a member sees changed (their requests, bookings, players, profile). */
  | { type: "data_changed"; userId: number }
  /** Something every member sees changed (tee sheets, settings, advisories). */
  | { type: "data_changed"; everyone: true }
  /** The editable UI text changed. */
  | { type: "texts_changed" }
  /** An admin moved the release time: `count` of the member's waiting requests follow it. */
  | { type: "requests_moved"; userId: number; count: number }
  | { type: "request_cancelled"; userId: number }
  /** A request booked (the release engine). `requestId` names the request when the raiser knows it. */
  | { type: "booking_confirmed"; userId: number; course: string; date: string; time: string; ref: string; requestId?: number }
  /** The member cancelled their own booking in Teebox. */
  | { type: "booking_cancelled"; userId: number; ref: string }
  | ({ type: "request_failed"; userId: number; course: string; date: string; reason: RequestReason } & RequestOccurrence)
  /** A slot watch booked a freed tee time for the member (a watch books once). */
  | { type: "watch_booked"; userId: number; watchId: number; course: string; date: string; time?: string; reason?: RequestReason }
  /** A slot watch ("tell me only") found a freed tee time (a watch finds once). */
  | { type: "watch_found"; userId: number; watchId: number; course: string; date: string; time?: string; reason?: RequestReason }
  /** A request needs attention (the readiness check found a problem, or a release could not tell): `reason` says which. */
  | ({ type: "needs_attention"; userId: number; course: string; date: string; time?: string; reason?: RequestReason } & RequestOccurrence)
  /** A date of a standing request could not be queued (a rule, a closed course, a limit): `reason` says why. */
  | { type: "series_needs_attention"; userId: number; seriesId: number; course: string; date: string; reason: { key: UiTextKey; context: Record<string, string> } }
  /** The bookings sync found a confirmed booking gone from the club's list: cancelled on the club's site. */
  | { type: "club_booking_cancelled"; userId: number; ref: string; course: string; date: string; time: string }
  /** The bookings sync found a confirmed booking moved or its players changed on the club's site (read at `readAt`). */
  | { type: "club_booking_changed"; userId: number; ref: string; course: string; date: string; time: string; readAt: number };

export interface Notifier {
  publish(event: DomainEvent): void;
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

const UPDATED: ServerMessage = { type: "status", status: "updated" };
const toast = (toast: ToastPayload): ServerMessage => ({ type: "toast", toast });

/** The socket messages of one event, in the order they are sent, with their audience. */
export function messagesFor(event: DomainEvent): { userId: number | "everyone"; message: ServerMessage }[] {
  switch (event.type) {
    case "data_changed":
      return [{ userId: "everyone" in event ? "everyone" : event.userId, message: UPDATED }];
    case "texts_changed":
      return [{ userId: "everyone", message: { type: "uiTextUpdated" } }];
    case "requests_moved":
      return [
        { userId: event.userId, message: toast({ kind: "info", textKey: "admin.settings.requests_rearmed", context: { count: event.count } }) },
        { userId: event.userId, message: UPDATED },
      ];
    case "request_cancelled":
      return [
        { userId: event.userId, message: toast({ kind: "success", textKey: "bookings.toast.request_cancelled", message: DEFAULT_UI_TEXT["bookings.toast.request_cancelled"] }) },
        { userId: event.userId, message: UPDATED },
      ];
    case "booking_cancelled": {
      const context = { bookingId: event.ref };
      return [
        { userId: event.userId, message: toast({ kind: "success", textKey: "bookings.toast.booking_cancelled", context, message: renderReason(DEFAULT_UI_TEXT["bookings.toast.booking_cancelled"], context) }) },
        { userId: event.userId, message: UPDATED },
      ];
    }
    case "booking_confirmed": {
      const context = { course: event.course, date: event.date, time: event.time, bookingId: event.ref };
      return [
        { userId: event.userId, message: toast({ kind: "success", textKey: "bookings.toast.booked", context, message: renderReason(DEFAULT_UI_TEXT["bookings.toast.booked"], context) }) },
        { userId: event.userId, message: UPDATED },
      ];
    }
    case "request_failed": {
      // The toast carries the reason rendered in its default text, and its key and placeholders,
      // so a browser can render it in the wording an admin chose: t(reasonKey, context).
      const reasonText = renderReason(DEFAULT_UI_TEXT[event.reason.key], event.reason.context);
      const context = { ...event.reason.context, course: event.course, date: event.date, reason: reasonText, reasonKey: event.reason.key };
      return [
        { userId: event.userId, message: toast({ kind: "error", textKey: "bookings.toast.failed", context, message: renderReason(DEFAULT_UI_TEXT["bookings.toast.failed"], context) }) },
        { userId: event.userId, message: UPDATED },
      ];
    }
    case "watch_booked":
    case "watch_found":
    case "needs_attention":
    case "series_needs_attention": {
      const { kind, context } = notificationFor(event)!;
      const textKey = notificationTextKey(kind);
      const toastKind = event.type === "watch_booked" ? "success" : event.type === "watch_found" ? "info" : "error";
      return [
        { userId: event.userId, message: toast({ kind: toastKind, textKey, context, message: renderReason(DEFAULT_UI_TEXT[textKey], context) }) },
        { userId: event.userId, message: UPDATED },
      ];
    }
    case "club_booking_cancelled":
    case "club_booking_changed": {
      // The sync raises data_changed once for all it applied; these add only what the member reads.
      const { kind, context } = notificationFor(event)!;
      const textKey = notificationTextKey(kind);
      return [{ userId: event.userId, message: toast({ kind: "info", textKey, context, message: renderReason(DEFAULT_UI_TEXT[textKey], context) }) }];
    }
  }
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
      const reason = renderReason(DEFAULT_UI_TEXT[event.reason.key], event.reason.context);
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

/**
 * Sends each event's socket messages at once. A notification is stored after the caller has gone
 * on (publish never waits for the database), then its member's screens refresh to show it.
 */
export function createNotifier(sink: MessageSink, options: NotifierOptions = {}): Notifier {
  const pending = new Set<Promise<void>>();

  function send(userId: number | "everyone", message: ServerMessage) {
    if (userId === "everyone") sink.toAll(message);
    else sink.toUser(userId, message);
  }

  function store(notification: NotificationRecord, recordNotification: NonNullable<NotifierOptions["record"]>) {
    const run = new Promise<void>((resolve) => setTimeout(resolve, 0))
      .then(() => recordNotification(notification))
      .then((isNew) => {
        if (isNew) send(notification.userId, UPDATED);
      })
      .catch((error) => options.onError?.(error, notification))
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  return {
    publish(event) {
      for (const { userId, message } of messagesFor(event)) send(userId, message);
      const notification = options.record ? notificationFor(event) : null;
      if (notification && options.record) store(notification, options.record);
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
