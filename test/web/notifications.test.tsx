/**
 * The bell and its list: the unread count in the bell's name and badge, the list in a
 * labelled dialog that keeps focus inside and closes on Escape, marking read one or all, older
 * pages, and the count following the socket's `status: updated`. Then the profile's channel
 * switches and the admin's outbox.
 */
import "../helpers/dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { NOTIFICATION_KINDS } from "../../src/domain/notifications.ts";
import { NotificationBell } from "../../web/features/notifications/notification-bell.tsx";
import { NotificationSettingsSection } from "../../web/features/profile/notification-settings.tsx";
import { MailOutbox } from "../../web/features/admin/mail-outbox.tsx";
import { ToastViewport } from "../../web/components/toast-viewport.tsx";
import type { ServerMessageListener, SocketClient } from "../../web/lib/socket.ts";
import type { ServerMessage } from "../../web/lib/types.ts";
import { jsonResponse, mockFetch, restoreFetch, type RecordedCall } from "./support/fetch-mock.ts";

afterEach(() => restoreFetch());

/** A socket client that only delivers what the test sends. */
function fakeClient(): SocketClient & { emit(message: ServerMessage): void } {
  const listeners = new Set<ServerMessageListener>();
  return {
    connect() {},
    close() {},
    send: () => true,
    isOpen: () => true,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(message) {
      for (const listener of [...listeners]) listener(message);
    },
  };
}

const AT = manilaInstant("2026-11-22", "09:05");
const note = (id: number, text: string, readAt: number | null = null) => ({ id, kind: "request_confirmed", text, createdAt: AT + id * 60_000, readAt, textKey: "x", context: {} });

/** A server holding `items` (newest first): pages of 2, reads marked in place. */
function serveNotifications(items: ReturnType<typeof note>[]): RecordedCall[] {
  const unread = () => items.filter((n) => n.readAt === null).length;
  return mockFetch((call) => {
    const path = call.url.split("?")[0];
    if (path === "/v1/my/notifications" && call.method === "GET") {
      const before = Number(new URL(call.url, "http://x").searchParams.get("before") ?? Infinity);
      const older = items.filter((n) => n.id < before);
      return jsonResponse({ items: older.slice(0, 2), unread: unread(), hasMore: older.length > 2 });
    }
    if (path === "/v1/my/notifications/read" && call.method === "POST") {
      const body = call.body as { all?: true; ids?: number[] };
      for (const n of items) if (body.all || body.ids?.includes(n.id)) n.readAt ??= AT;
      return jsonResponse({ unread: unread() });
    }
    return undefined;
  });
}

const bell = () => screen.getByTestId("notification-bell");

describe("the bell", () => {
  test("names the unread count, opens the list in a labelled dialog, keeps focus inside and closes on Escape", async () => {
    serveNotifications([note(3, "Booked: Masters on 2026-11-29 at 06:00 (SW-3)."), note(2, "Your request for Legends failed: taken", AT)]);
    render(<NotificationBell client={fakeClient()} />);
    await waitFor(() => expect(bell().getAttribute("aria-label")).toBe("Notifications, 1 unread"));
    expect(screen.getByTestId("notification-count").textContent).toBe("1");
    expect(bell().getAttribute("aria-expanded")).toBe("false");

    bell().focus();
    fireEvent.click(bell());
    const dialog = await screen.findByRole("dialog", { name: "Notifications" });
    expect(bell().getAttribute("aria-expanded")).toBe("true");
    expect(dialog.contains(document.activeElement)).toBe(true);
    const items = within(dialog).getAllByRole("listitem");
    expect(items.map((li) => li.querySelector(".notification__text")?.textContent)).toEqual([
      "Booked: Masters on 2026-11-29 at 06:00 (SW-3).",
      "Your request for Legends failed: taken",
    ]);
    expect(within(items[0]).getByText("Unread")).toBeTruthy();
    expect(within(items[0]).getByText("Nov 22, 2026 09:08")).toBeTruthy();
    expect(within(items[1]).queryByText("Unread")).toBeNull();
    // The read button says which line it reads.
    const read = within(items[0]).getByRole("button", { name: "Mark as read" });
    expect(read.getAttribute("aria-describedby")).toBe(items[0].querySelector(".notification__text")!.id);

    // Tab from the last control comes back to the first: focus stays in the dialog.
    const close = within(dialog).getByRole("button", { name: "Close" });
    close.focus();
    fireEvent.keyDown(document, { key: "Tab" });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(close);

    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(bell());
  });

  test("marks one read, then all, and the count follows", async () => {
    const calls = serveNotifications([note(3, "three"), note(2, "two"), note(1, "one")]);
    render(<NotificationBell client={fakeClient()} />);
    await waitFor(() => expect(bell().getAttribute("aria-label")).toBe("Notifications, 3 unread"));
    fireEvent.click(bell());
    const dialog = await screen.findByRole("dialog", { name: "Notifications" });
    const [first] = within(dialog).getAllByRole("listitem");
    fireEvent.click(within(first).getByRole("button", { name: "Mark as read" }));
    await waitFor(() => expect(bell().getAttribute("aria-label")).toBe("Notifications, 2 unread"));
    expect(within(first).queryByText("Unread")).toBeNull();
    const reads = () => calls.filter((c) => c.method === "POST" && c.url === "/v1/my/notifications/read").map((c) => c.body);
    expect(reads()).toEqual([{ ids: [3] }]);

    // Older ones on demand.
    fireEvent.click(within(dialog).getByRole("button", { name: "Show older" }));
    await waitFor(() => expect(within(dialog).getAllByRole("listitem")).toHaveLength(3));
    expect(calls.some((c) => c.method === "GET" && c.url.includes("before=2"))).toBe(true);
    expect(within(dialog).queryByRole("button", { name: "Show older" })).toBeNull();

    fireEvent.click(within(dialog).getByRole("button", { name: "Mark all as read" }));
    await waitFor(() => expect(bell().getAttribute("aria-label")).toBe("Notifications"));
    expect(screen.queryByTestId("notification-count")).toBeNull();
    expect(within(dialog).queryByText("Unread")).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Mark all as read" })).toBeNull();
    expect(reads()).toEqual([{ ids: [3] }, { all: true }]);
  });

  test("the count updates live when the socket says the member's data changed", async () => {
    const items = [note(1, "one")];
    serveNotifications(items);
    const client = fakeClient();
    render(<NotificationBell client={client} />);
    await waitFor(() => expect(bell().getAttribute("aria-label")).toBe("Notifications, 1 unread"));
    items.unshift(note(2, "two"));
    act(() => client.emit({ type: "status", status: "updated" }));
    await waitFor(() => expect(bell().getAttribute("aria-label")).toBe("Notifications, 2 unread"));
    expect(screen.getByTestId("notification-count").textContent).toBe("2");
  });

  test("an empty list says so; a list that cannot be loaded says that", async () => {
    serveNotifications([]);
    const { unmount } = render(<NotificationBell client={fakeClient()} />);
    await waitFor(() => expect(bell().getAttribute("aria-label")).toBe("Notifications"));
    fireEvent.click(bell());
    expect(await screen.findByText(/^Nothing yet\./)).toBeTruthy();
    unmount();
    mockFetch((call) => (call.url.startsWith("/v1/my/notifications") ? jsonResponse({ message: "down" }, 500) : undefined));
    render(<NotificationBell client={fakeClient()} />);
    fireEvent.click(bell());
    expect(await screen.findByRole("alert")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("Your notifications could not be loaded.");
  });
});

describe("the profile's channel switches", () => {
  const allOn = () => Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, true]));
  const settings = () => ({ address: "maria@southwoods.demo", inApp: allOn(), push: allOn(), email: allOn() });

  test("a switch per kind and channel, saved as it is flipped; a failed save puts it back", async () => {
    let fail = false;
    let saved = settings();
    const calls = mockFetch((call) => {
      if (call.url.startsWith("/v1/my/push"))
        return jsonResponse({ publicKey: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8", devices: 0 });
      if (!call.url.startsWith("/v1/my/notification-settings")) return undefined;
      if (call.method === "GET") return jsonResponse(saved);
      if (fail) return jsonResponse({ message: "nope", errorKey: "x" }, 500);
      const body = call.body as Record<"inApp" | "push" | "email", Record<string, boolean>>;
      saved = { ...saved, inApp: { ...saved.inApp, ...body.inApp }, push: { ...saved.push, ...body.push }, email: { ...saved.email, ...body.email } };
      return jsonResponse(saved);
    });
    render(
      <>
        <NotificationSettingsSection />
        <ToastViewport />
      </>,
    );
    const section = await screen.findByRole("region", { name: "Notifications" });
    // Three channels per kind, and the device's own switch.
    await waitFor(() => expect(within(section).getAllByRole("switch")).toHaveLength(NOTIFICATION_KINDS.length * 3 + 1));
    expect(within(section).getByText(/emailed to maria@southwoods\.demo/)).toBeTruthy();
    expect(within(section).getByRole("group", { name: "A request could not be booked" })).toBeTruthy();
    const pushFailed = () => within(section).getByRole("switch", { name: "A request could not be booked: Push" }) as HTMLInputElement;
    expect(pushFailed().checked).toBe(true);
    fireEvent.click(pushFailed());
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ push: { request_failed: false } });
    await waitFor(() => expect(pushFailed().checked).toBe(false));
    expect(await screen.findByText("Notification settings saved")).toBeTruthy();
    // The other channels of the kind are untouched.
    expect((within(section).getByRole("switch", { name: "A request could not be booked: Email" }) as HTMLInputElement).checked).toBe(true);

    fail = true;
    const listBooked = () => within(section).getByRole("switch", { name: "A request is booked: In the app" }) as HTMLInputElement;
    fireEvent.click(listBooked());
    expect(await screen.findByText("Your choice could not be saved. Please try again.")).toBeTruthy();
    await waitFor(() => expect(listBooked().checked).toBe(true));
  });
});

describe("the admin's outbox", () => {
  test("says that no SMTP server is configured and lists the messages Teebox would have sent", async () => {
    mockFetch((call) =>
      call.url.startsWith("/v1/admin/mail-outbox")
        ? jsonResponse({
            smtp: null,
            counts: { queued: 1, sent: 0, failed: 1 },
            messages: [
              {
                id: 2,
                createdAt: AT,
                recipient: "maria@southwoods.demo",
                subject: "Teebox booked Masters",
                body: "Booked: Masters.",
                state: "queued",
                attempts: 0,
                lastError: "not sent: no SMTP configured",
                sentAt: null,
              },
              {
                id: 1,
                createdAt: AT,
                recipient: "jose@southwoods.demo",
                subject: "Teebox could not book",
                body: "Failed.",
                state: "failed",
                attempts: 5,
                lastError: "the mail server could not be reached",
                sentAt: null,
              },
            ],
          })
        : undefined,
    );
    render(<MailOutbox timer={{ every: () => () => undefined }} refreshMs={5000} />);
    const table = await screen.findByTestId("mail-outbox-table");
    expect(screen.getByText(/No SMTP server is configured/).textContent).toContain("1 queued, 0 sent, 1 failed");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent))).toEqual([
      ["Nov 22, 2026 09:05", "maria@southwoods.demo", "Teebox booked MastersBooked: Masters.", "Queued", "0", "not sent: no SMTP configured"],
      ["Nov 22, 2026 09:05", "jose@southwoods.demo", "Teebox could not bookFailed.", "Failed", "5", "the mail server could not be reached"],
    ]);
  });
});
