/** The notifier is the only code that turns domain events into socket messages: its mapping. */
import { expect, test } from "bun:test";
import { createNotifier, messagesFor } from "../../src/realtime/notifier.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";

const UPDATED = { type: "status", status: "updated" };

test("a member's data changed: one refresh to that member", () => {
  expect(messagesFor({ type: "data_changed", userId: 4 })).toEqual([{ userId: 4, message: UPDATED as ServerMessage }]);
});

test("everyone's data changed: one refresh to every member; texts changed: uiTextUpdated to all", () => {
  expect(messagesFor({ type: "data_changed", everyone: true })).toEqual([{ userId: "everyone", message: UPDATED as ServerMessage }]);
  expect(messagesFor({ type: "texts_changed" })).toEqual([{ userId: "everyone", message: { type: "uiTextUpdated" } }]);
});

test("a booking confirmed: the booked toast with its context and text, then a refresh", () => {
  const messages = messagesFor({ type: "booking_confirmed", userId: 2, course: "Masters", date: "2026-11-29", time: "06:08", ref: "SW-9" });
  expect(messages).toEqual([
    {
      userId: 2,
      message: {
        type: "toast",
        toast: { kind: "success", textKey: "bookings.toast.booked", context: { course: "Masters", date: "2026-11-29", time: "06:08", bookingId: "SW-9" }, message: "Booked: Masters on 2026-11-29 at 06:08 (SW-9)." },
      },
    },
    { userId: 2, message: UPDATED as ServerMessage },
  ]);
});

test("a request failed: the failed toast with the reason rendered from its key and context", () => {
  const [toast, refresh] = messagesFor({ type: "request_failed", userId: 2, course: "Masters", date: "2026-11-29", reason: { key: "bookings.reason.not_opened_in_time", context: { date: "2026-11-29" } } });
  expect(toast).toEqual({
    userId: 2,
    message: {
      type: "toast",
      toast: {
        kind: "error",
        textKey: "bookings.toast.failed",
        context: { course: "Masters", date: "2026-11-29", reason: "The club did not open 2026-11-29 for booking in time.", reasonKey: "bookings.reason.not_opened_in_time" },
        message: "Your request for Masters on 2026-11-29 failed: The club did not open 2026-11-29 for booking in time.",
      },
    },
  });
  expect(refresh).toEqual({ userId: 2, message: UPDATED as ServerMessage });
});

test("requests moved by an admin: the rearmed toast with the count, then a refresh", () => {
  expect(messagesFor({ type: "requests_moved", userId: 3, count: 2 })).toEqual([
    { userId: 3, message: { type: "toast", toast: { kind: "info", textKey: "admin.settings.requests_rearmed", context: { count: 2 } } } },
    { userId: 3, message: UPDATED as ServerMessage },
  ]);
});

test("cancellations: their toasts, then a refresh", () => {
  expect(messagesFor({ type: "request_cancelled", userId: 1 }).map((m) => m.message)).toEqual([
    { type: "toast", toast: { kind: "success", textKey: "bookings.toast.request_cancelled", message: "Request cancelled." } },
    UPDATED as ServerMessage,
  ]);
  expect(messagesFor({ type: "booking_cancelled", userId: 1, ref: "SW-3" }).map((m) => m.message)).toEqual([
    { type: "toast", toast: { kind: "success", textKey: "bookings.toast.booking_cancelled", context: { bookingId: "SW-3" }, message: "Booking SW-3 cancelled." } },
    UPDATED as ServerMessage,
  ]);
});

test("the notifier sends each message to its audience, in order", () => {
  const sent: string[] = [];
  const notifier = createNotifier({ toUser: (id, m) => sent.push(`user ${id}: ${m.type}`), toAll: (m) => sent.push(`all: ${m.type}`) });
  notifier.publish({ type: "booking_confirmed", userId: 7, course: "M", date: "d", time: "t", ref: "r" });
  notifier.publish({ type: "data_changed", everyone: true });
  expect(sent).toEqual(["user 7: toast", "user 7: status", "all: status"]);
});
