/**
 * The one place that turns what happened in Teebox (domain events raised by services and jobs)
 * into what browsers are told. Services never build socket messages; later, notifications and
 * emails hang off the same events here.
 */
import { DEFAULT_UI_TEXT } from "../domain/ui-text/index.ts";
import { renderReason, type RequestReason } from "../domain/request-reasons.ts";
import type { ServerMessage, ToastPayload } from "./messages.ts";

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
  | { type: "booking_confirmed"; userId: number; course: string; date: string; time: string; ref: string }
  | { type: "booking_cancelled"; userId: number; ref: string }
  | { type: "request_failed"; userId: number; course: string; date: string; reason: RequestReason }
  /** A slot watch booked a freed tee time. */
  | { type: "watch_booked"; userId: number; course: string; date: string; time: string }
  /** A "tell me only" watch saw a tee time come free. */
  | { type: "watch_found"; userId: number; course: string; date: string; time: string }
  /** The readiness check found a problem with a pending request before its release. */
  | { type: "needs_attention"; userId: number; course: string; date: string; reason: RequestReason };

export interface Notifier {
  publish(event: DomainEvent): void;
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
      return toastAndUpdate(event.userId, "success", "watches.toast.booked", { course: event.course, date: event.date, time: event.time });
    case "watch_found":
      return toastAndUpdate(event.userId, "info", "watches.toast.found", { course: event.course, date: event.date, time: event.time });
    case "needs_attention": {
      const reasonText = renderReason(DEFAULT_UI_TEXT[event.reason.key], event.reason.context);
      return toastAndUpdate(event.userId, "error", "readiness.toast.needs_attention", { ...event.reason.context, course: event.course, date: event.date, reason: reasonText, reasonKey: event.reason.key });
    }
  }
}

/** A toast in its default words with its key and placeholders, then the member's reload. */
function toastAndUpdate(userId: number, kind: ToastPayload["kind"], textKey: "watches.toast.booked" | "watches.toast.found" | "readiness.toast.needs_attention", context: Record<string, string>) {
  return [
    { userId, message: toast({ kind, textKey, context, message: renderReason(DEFAULT_UI_TEXT[textKey], context) }) },
    { userId, message: UPDATED },
  ];
}

export function createNotifier(sink: MessageSink): Notifier {
  return {
    publish(event) {
      for (const { userId, message } of messagesFor(event)) {
        if (userId === "everyone") sink.toAll(message);
        else sink.toUser(userId, message);
      }
    },
  };
}
