/** The notifier is the only code that turns domain events into socket messages: its mapping. */
import { describe, expect, test } from "bun:test";
import { createNotifier, messagesFor, notificationFor, type NotificationRecord } from "../../src/realtime/notifier.ts";
import type { DomainEvent } from "../../src/domain/events.ts";
import type { ResourceKey } from "../../src/domain/resources.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { REQUEST_REASON_KEYS, RESERVED_REASON_PLACEHOLDERS } from "../../src/domain/request-reasons.ts";
import { WATCH_REASON_KEYS } from "../../src/domain/watches.ts";
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { renderNotification } from "../../src/features/notifications/notification-text.ts";

/** What a status message names, as the web reads it. */
const changedMessage = (...keys: ResourceKey[]): ServerMessage => ({ type: "status", status: "updated", changed: keys });

test("each event names the resources it changed, to the member it is about or to everyone", () => {
  expect(messagesFor({ type: "request_submitted", userId: 4, requestId: 1 })).toEqual([{ userId: 4, message: changedMessage("my.requests") }]);
  expect(messagesFor({ type: "players_saved", userId: 4 })).toEqual([{ userId: 4, message: changedMessage("my.players") }]);
  expect(messagesFor({ type: "club_bookings_synced", userId: 4 })).toEqual([{ userId: 4, message: changedMessage("my.bookings") }]);
  expect(messagesFor({ type: "club_read", sheets: true, advisories: false })).toEqual([{ userId: "everyone", message: changedMessage("tee-times") }]);
  expect(messagesFor({ type: "club_read", sheets: true, advisories: true })).toEqual([{ userId: "everyone", message: changedMessage("tee-times", "advisories") }]);
  expect(messagesFor({ type: "club_config_changed", part: "announcements" })).toEqual([{ userId: "everyone", message: changedMessage("advisories") }]);
  expect(messagesFor({ type: "settings_saved" })).toEqual([{ userId: "everyone", message: changedMessage("settings", "tee-times") }]);
  expect(messagesFor({ type: "texts_changed" })).toEqual([{ userId: "everyone", message: { type: "uiTextUpdated" } }]);
});

test("no event is told in more than one status message, and none names a key twice", () => {
  const events: DomainEvent[] = [
    { type: "request_submitted", userId: 1, requestId: 1 },
    { type: "request_changed", userId: 1, requestId: 1 },
    { type: "requests_moved", userId: 1, count: 2 },
    { type: "request_cancelled", userId: 1, requestId: 1 },
    { type: "request_failed", userId: 1, course: "M", date: "d", reason: { key: "bookings.reason.member_held", context: {} }, requestId: 1, submittedAt: 1 },
    { type: "needs_attention", userId: 1, course: "M", date: "d", requestId: 1, submittedAt: 1 },
    { type: "booking_confirmed", userId: 1, course: "M", date: "d", time: "t", ref: "r" },
    { type: "booking_cancelled", userId: 1, ref: "r" },
    { type: "booking_edited", userId: 1, ref: "r" },
    { type: "club_bookings_synced", userId: 1 },
    { type: "club_booking_cancelled", userId: 1, ref: "r", course: "M", date: "d", time: "t" },
    { type: "club_booking_changed", userId: 1, ref: "r", course: "M", date: "d", time: "t", readAt: 1 },
    { type: "watch_made", userId: 1, watchId: 1 },
    { type: "watch_ended", userId: 1, watchId: 1 },
    { type: "watch_booked", userId: 1, watchId: 1, course: "M", date: "d" },
    { type: "watch_found", userId: 1, watchId: 1, course: "M", date: "d" },
    { type: "players_saved", userId: 1 },
    { type: "profile_saved", userId: 1 },
    { type: "account_changed", userId: 1 },
    { type: "notifications_read", userId: 1 },
    { type: "club_read", sheets: false, advisories: true },
    { type: "settings_saved" },
    { type: "club_config_changed", part: "holidays" },
    { type: "texts_changed" },
  ];
  for (const event of events) {
    const statuses = messagesFor(event).filter((m) => m.message.type === "status");
    expect({ event: event.type, statuses: statuses.length }).toEqual({
      event: event.type,
      statuses: event.type.startsWith("club_booking_") || event.type === "texts_changed" ? 0 : 1,
    });
    for (const { message } of statuses) {
      const keys = message.type === "status" ? (message.changed ?? []) : [];
      expect(keys.length).toBeGreaterThan(0);
      expect(new Set(keys).size).toBe(keys.length);
    }
  }
});

test("a booking confirmed: the booked toast with its context and text, then its requests and bookings", () => {
  const messages = messagesFor({ type: "booking_confirmed", userId: 2, course: "Masters", date: "2026-11-29", time: "06:08", ref: "SW-9" });
  expect(messages).toEqual([
    {
      userId: 2,
      message: {
        type: "toast",
        toast: {
          kind: "success",
          textKey: "bookings.toast.booked",
          context: { course: "Masters", date: "2026-11-29", time: "06:08", bookingId: "SW-9" },
          message: "Booked: Masters on 2026-11-29 at 06:08 (SW-9).",
        },
      },
    },
    { userId: 2, message: changedMessage("my.requests", "my.bookings") },
  ]);
});

test("a request failed: the failed toast with the reason rendered from its key and context", () => {
  const [toast, refresh] = messagesFor({
    type: "request_failed",
    userId: 2,
    course: "Masters",
    date: "2026-11-29",
    reason: { key: "bookings.reason.not_opened_in_time", context: { date: "2026-11-29" } },
    requestId: 5,
    submittedAt: 100,
  });
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
  expect(refresh).toEqual({ userId: 2, message: changedMessage("my.requests") });
});

test("requests moved by an admin: the rearmed toast with the count, then the member's requests", () => {
  expect(messagesFor({ type: "requests_moved", userId: 3, count: 2 })).toEqual([
    { userId: 3, message: { type: "toast", toast: { kind: "info", textKey: "admin.settings.requests_rearmed", context: { count: 2 } } } },
    { userId: 3, message: changedMessage("my.requests") },
  ]);
});

test("cancellations: their toasts, then what they changed", () => {
  expect(messagesFor({ type: "request_cancelled", userId: 1, requestId: 3 }).map((m) => m.message)).toEqual([
    { type: "toast", toast: { kind: "success", textKey: "bookings.toast.request_cancelled", message: "Request cancelled." } },
    changedMessage("my.requests"),
  ]);
  expect(messagesFor({ type: "booking_cancelled", userId: 1, ref: "SW-3" }).map((m) => m.message)).toEqual([
    { type: "toast", toast: { kind: "success", textKey: "bookings.toast.booking_cancelled", context: { bookingId: "SW-3" }, message: "Booking SW-3 cancelled." } },
    changedMessage("my.bookings"),
  ]);
});

test("the notifier sends each message to its audience, in order", () => {
  const sent: string[] = [];
  const notifier = createNotifier({ toUser: (id, m) => sent.push(`user ${id}: ${m.type}`), toAll: (m) => sent.push(`all: ${m.type}`) });
  notifier.publish({ type: "booking_confirmed", userId: 7, course: "M", date: "d", time: "t", ref: "r" });
  notifier.publish({ type: "club_read", sheets: true, advisories: false });
  notifier.publish(null);
  expect(sent).toEqual(["user 7: toast", "user 7: status", "all: status"]);
});

test("an event that leaves a notification: its toast at once, then one message naming what it changed and the notification list", async () => {
  const sent: { to: number | "all"; message: ServerMessage }[] = [];
  const stored: string[] = [];
  const notifier = createNotifier(
    { toUser: (id, message) => sent.push({ to: id, message }), toAll: (message) => sent.push({ to: "all", message }) },
    {
      record: async (n) => {
        if (stored.includes(n.eventId)) return false;
        stored.push(n.eventId);
        return true;
      },
    },
  );
  const confirmed: DomainEvent = { type: "booking_confirmed", userId: 7, course: "M", date: "d", time: "t", ref: "r" };
  notifier.publish(confirmed);
  expect(sent.map((s) => s.message.type)).toEqual(["toast"]);
  await notifier.settled?.();
  expect(sent.filter((s) => s.message.type === "status")).toEqual([{ to: 7, message: changedMessage("my.requests", "my.bookings", "my.notifications") }]);
  // The same event raised again stores nothing new: the list is not named.
  notifier.publish(confirmed);
  await notifier.settled?.();
  expect(sent.filter((s) => s.message.type === "status").at(-1)).toEqual({ to: 7, message: changedMessage("my.requests", "my.bookings") });
  // The sync's notifications change only the list.
  notifier.publish({ type: "club_booking_cancelled", userId: 7, ref: "r", course: "M", date: "d", time: "t" });
  await notifier.settled?.();
  expect(sent.filter((s) => s.message.type === "status").at(-1)).toEqual({ to: 7, message: changedMessage("my.notifications") });
});

describe("the notification each event leaves (decision 100)", () => {
  test("a booking confirmed: request_confirmed, named by the club's reference", () => {
    expect(notificationFor({ type: "booking_confirmed", userId: 2, course: "Masters", date: "2026-11-29", time: "06:08", ref: "SW-9", requestId: 5 })).toEqual({
      userId: 2,
      kind: "request_confirmed",
      textKey: "notifications.text.request_confirmed",
      context: { course: "Masters", date: "2026-11-29", time: "06:08", bookingId: "SW-9" },
      eventId: "booking_confirmed:SW-9",
    });
  });

  test("a request failed: request_failed with the reason's key, its placeholders and its default text", () => {
    const failed = notificationFor({
      type: "request_failed",
      userId: 2,
      course: "Masters",
      date: "2026-11-29",
      reason: { key: "bookings.reason.club_refused", context: { message: "Member suspended" } },
      requestId: 5,
      submittedAt: 100,
    });
    expect(failed).toEqual({
      userId: 2,
      kind: "request_failed",
      textKey: "notifications.text.request_failed",
      context: { message: "Member suspended", reason: "Member suspended", reasonKey: "bookings.reason.club_refused", course: "Masters", date: "2026-11-29" },
      eventId: "request_failed:#5@100",
    });
  });

  test("a reason that names another reason reads it once: no reason's text uses the line's own {reason}", () => {
    for (const key of [...REQUEST_REASON_KEYS, ...WATCH_REASON_KEYS]) {
      const placeholders = [...DEFAULT_UI_TEXT[key].matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect({ key, reserved: placeholders.filter((p) => (RESERVED_REASON_PLACEHOLDERS as readonly string[]).includes(p!)) }).toEqual({ key, reserved: [] });
    }
    const inner = "The club did not accept your stored club login. Update it in your profile.";
    const event: DomainEvent = {
      type: "request_failed",
      userId: 2,
      course: "Masters",
      date: "2026-11-30",
      reason: { key: "readiness.reason.not_fixed", context: { cause: inner } },
      requestId: 7,
      submittedAt: 100,
    };
    const note = notificationFor(event)!;
    const line = renderNotification(note.textKey, note.context, (key) => (DEFAULT_UI_TEXT as Record<string, string>)[key] ?? key);
    expect(line).toBe(`Your request for Masters on 2026-11-30 failed: It still needed attention at the release, so it was not sent: ${inner}`);
  });

  test("the watch and readiness events: their own kinds, a time or a reason when given", () => {
    expect(notificationFor({ type: "watch_booked", userId: 3, watchId: 8, course: "Legends", date: "2026-12-01", time: "07:04" })).toMatchObject({
      kind: "watch_booked",
      textKey: "notifications.text.watch_booked",
      context: { course: "Legends", date: "2026-12-01", time: "07:04", reason: "" },
      eventId: "watch_booked:watch 8",
    });
    expect(notificationFor({ type: "watch_found", userId: 3, watchId: 9, course: "Legends", date: "2026-12-01", time: "07:12" })).toMatchObject({
      kind: "watch_found",
      eventId: "watch_found:watch 9",
    });
    expect(
      notificationFor({
        type: "needs_attention",
        userId: 3,
        requestId: 4,
        submittedAt: 100,
        course: "Legends",
        date: "2026-12-01",
        reason: { key: "bookings.reason.bad_credentials", context: {} },
      }),
    ).toMatchObject({
      kind: "needs_attention",
      context: {
        course: "Legends",
        date: "2026-12-01",
        time: "",
        reasonKey: "bookings.reason.bad_credentials",
        reason: "The club did not accept your club login. Update it in your profile.",
      },
      eventId: "needs_attention:#4@100:bookings.reason.bad_credentials",
    });
  });

  test("event ids name the event itself: another event about the same tee time is new, the same event raised again is not", () => {
    const id = (event: DomainEvent) => notificationFor(event)?.eventId;
    const slot = { userId: 3, course: "Legends", date: "2026-12-01", time: "07:04" };
    // Two watches finding (or booking) the same free slot are two events; one watch raising its find twice is one.
    expect(id({ type: "watch_found", watchId: 8, ...slot })).not.toBe(id({ type: "watch_found", watchId: 9, ...slot }));
    expect(id({ type: "watch_found", watchId: 8, ...slot })).toBe(id({ type: "watch_found", watchId: 8, ...slot }));
    expect(id({ type: "watch_booked", watchId: 8, ...slot })).not.toBe(id({ type: "watch_booked", watchId: 10, ...slot }));
    // The same tee time booked again under a new reference is a new booking.
    const booked = (ref: string): DomainEvent => ({ type: "booking_confirmed", ref, ...slot });
    expect(id(booked("SW-1"))).not.toBe(id(booked("SW-2")));
    expect(id(booked("SW-1"))).toBe(id(booked("SW-1")));
    // A request that fails, is edited (submitted again under its id) and fails again is told twice; one failure raised twice, once.
    const failed = (submittedAt: number): DomainEvent => ({
      type: "request_failed",
      userId: 3,
      course: "Legends",
      date: "2026-12-01",
      reason: { key: "bookings.reason.no_time_available", context: {} },
      requestId: 4,
      submittedAt,
    });
    expect(id(failed(100))).not.toBe(id(failed(200)));
    expect(id(failed(100))).toBe(id(failed(100)));
    // Two requests for the same date and course needing attention for the same reason are two events.
    const attention = (requestId: number): DomainEvent => ({
      type: "needs_attention",
      userId: 3,
      requestId,
      submittedAt: 100,
      course: "Legends",
      date: "2026-12-01",
      reason: { key: "readiness.reason.bad_login", context: {} },
    });
    expect(id(attention(4))).not.toBe(id(attention(5)));
  });

  test("a booking cancelled or changed on the club's site: booking_cancelled once per booking, booking_changed once per read", () => {
    expect(notificationFor({ type: "club_booking_cancelled", userId: 4, ref: "SW-3", course: "Masters", date: "2026-11-30", time: "06:00" })).toEqual({
      userId: 4,
      kind: "booking_cancelled",
      textKey: "notifications.text.booking_cancelled",
      context: { bookingId: "SW-3", course: "Masters", date: "2026-11-30", time: "06:00" },
      eventId: "club_booking_cancelled:SW-3",
    });
    expect(notificationFor({ type: "club_booking_changed", userId: 4, ref: "SW-3", course: "Masters", date: "2026-11-30", time: "06:16", readAt: 1000 })).toMatchObject({
      kind: "booking_changed",
      context: { bookingId: "SW-3", course: "Masters", date: "2026-11-30", time: "06:16" },
      eventId: "club_booking_changed:SW-3:1000",
    });
  });

  test("events that only refresh screens, and the member's own cancellations, leave none", () => {
    const quiet: DomainEvent[] = [
      { type: "players_saved", userId: 1 },
      { type: "club_read", sheets: true, advisories: true },
      { type: "texts_changed" },
      { type: "requests_moved", userId: 1, count: 2 },
      { type: "request_cancelled", userId: 1, requestId: 2 },
      { type: "booking_cancelled", userId: 1, ref: "SW-1" },
    ];
    for (const event of quiet) expect(notificationFor(event)).toBeNull();
  });

  test("the new events' toasts: watch and readiness with a refresh, the club's changes a toast alone (the sync refreshes once)", () => {
    expect(messagesFor({ type: "watch_booked", userId: 3, watchId: 8, course: "Legends", date: "2026-12-01", time: "07:04" })).toEqual([
      {
        userId: 3,
        message: {
          type: "toast",
          toast: {
            kind: "success",
            textKey: "notifications.text.watch_booked",
            context: { reason: "", course: "Legends", date: "2026-12-01", time: "07:04" },
            message: "Your slot watch booked Legends on 2026-12-01 at 07:04.",
          },
        },
      },
      { userId: 3, message: changedMessage("my.watches", "my.bookings") },
    ]);
    expect(
      messagesFor({
        type: "needs_attention",
        userId: 3,
        requestId: 4,
        submittedAt: 100,
        course: "Legends",
        date: "2026-12-01",
        reason: { key: "bookings.reason.no_club_login", context: {} },
      })[0].message,
    ).toMatchObject({
      toast: { kind: "error", message: "Your request for Legends on 2026-12-01 needs attention: Connect your club account in your profile first." },
    });
    expect(messagesFor({ type: "club_booking_cancelled", userId: 4, ref: "SW-3", course: "Masters", date: "2026-11-30", time: "06:00" })).toEqual([
      {
        userId: 4,
        message: {
          type: "toast",
          toast: {
            kind: "info",
            textKey: "notifications.text.booking_cancelled",
            context: { bookingId: "SW-3", course: "Masters", date: "2026-11-30", time: "06:00" },
            message: "Your booking SW-3 for Masters on 2026-11-30 at 06:00 was cancelled on the club's site.",
          },
        },
      },
    ]);
  });
});

describe("the notifier stores notifications after the raiser has gone on", () => {
  test("publish sends the toast at once and never waits; the notification is stored next, then one message of all it changed", async () => {
    const sent: string[] = [];
    const stored: NotificationRecord[] = [];
    let finishStore!: () => void;
    const notifier = createNotifier(
      { toUser: (id, m) => sent.push(`user ${id}: ${m.type}`), toAll: (m) => sent.push(`all: ${m.type}`) },
      {
        record: async (n) => {
          stored.push(n);
          await new Promise<void>((resolve) => (finishStore = resolve));
          return true;
        },
      },
    );
    notifier.publish({ type: "booking_confirmed", userId: 7, course: "M", date: "d", time: "t", ref: "r" });
    expect(sent).toEqual(["user 7: toast"]);
    expect(stored).toEqual([]);
    await Bun.sleep(5);
    expect(stored.map((n) => n.kind)).toEqual(["request_confirmed"]);
    expect(sent).toEqual(["user 7: toast"]);
    finishStore();
    await notifier.settled!();
    expect(sent).toEqual(["user 7: toast", "user 7: status"]);
  });

  test("a thousand notifications at once are stored in turn, in order, with the thread let go between slices: a read arriving meanwhile is answered long before the last", async () => {
    const order: string[] = [];
    let readAnsweredAfter = -1;
    const notifier = createNotifier(
      { toUser: () => undefined, toAll: () => undefined },
      {
        // Each store holds the thread for about 0.3 ms, as a notification, its outbox message and its push do.
        record: async (n) => {
          const until = performance.now() + 0.3;
          while (performance.now() < until) {
            // busy
          }
          order.push(n.eventId);
          return true;
        },
      },
    );
    for (let ref = 0; ref < 1000; ref++) notifier.publish({ type: "booking_confirmed", userId: 1, course: "M", date: "d", time: "t", ref: `R${ref}` });
    // A member's read, arriving just after the stores begin: answered between two slices.
    setTimeout(() => (readAnsweredAfter = order.length), 1);
    await notifier.settled!();
    expect(order).toEqual(Array.from({ length: 1000 }, (_, ref) => `booking_confirmed:R${ref}`));
    // Stored back to back (300 ms) the read waited for all 1,000; it now waits for a slice or two.
    expect(readAnsweredAfter).toBeGreaterThanOrEqual(0);
    expect(readAnsweredAfter).toBeLessThan(100);
  });

  test("a store that stalls (a database across a network not answering) holds up the next ones for a second at most", async () => {
    const stored: string[] = [];
    let releaseStalled!: () => void;
    const notifier = createNotifier(
      { toUser: () => undefined, toAll: () => undefined },
      {
        record: async (n) => {
          if (n.eventId.endsWith("STALL")) await new Promise<void>((resolve) => (releaseStalled = resolve));
          stored.push(n.eventId);
          return true;
        },
      },
    );
    notifier.publish({ type: "booking_confirmed", userId: 1, course: "M", date: "d", time: "t", ref: "STALL" });
    notifier.publish({ type: "booking_confirmed", userId: 1, course: "M", date: "d", time: "t", ref: "NEXT" });
    await Bun.sleep(300);
    expect(stored).toEqual([]);
    await Bun.sleep(900);
    expect(stored).toEqual(["booking_confirmed:NEXT"]);
    releaseStalled();
    await notifier.settled!();
    expect(stored).toEqual(["booking_confirmed:NEXT", "booking_confirmed:STALL"]);
  });

  test("an event stored before (record answers false) refreshes nothing more; a failing store is reported, not thrown", async () => {
    const sent: string[] = [];
    const errors: unknown[] = [];
    let calls = 0;
    const notifier = createNotifier(
      { toUser: (id, m) => sent.push(`user ${id}: ${m.type}`), toAll: () => undefined },
      {
        record: async () => {
          calls++;
          if (calls === 2) throw new Error("disk full");
          return false;
        },
        onError: (error) => errors.push(error),
      },
    );
    notifier.publish({ type: "club_booking_cancelled", userId: 1, ref: "A", course: "M", date: "d", time: "t" });
    notifier.publish({ type: "club_booking_cancelled", userId: 1, ref: "B", course: "M", date: "d", time: "t" });
    await notifier.settled!();
    expect(sent).toEqual(["user 1: toast", "user 1: toast"]);
    expect(errors.map(String)).toEqual(["Error: disk full"]);
  });
});
