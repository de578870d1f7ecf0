import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, render, screen, waitFor } from "@testing-library/react";
import { fillPlaceholders, lookupText, resolveText, useText } from "../../web/lib/text.ts";
import { readKeptTexts, useTextStore } from "../../web/lib/text-store.ts";
import { UI_TEXT_STORAGE_KEY } from "../../web/lib/storage-keys.ts";
import { appSocket, createSocketClient, onDataRefresh, RECONNECT_DELAY_MS, socketUrlFor, type SocketTimer } from "../../web/lib/socket.ts";
import { useToastStore } from "../../web/lib/toast-store.ts";
import { FakeWebSocket } from "./support/fake-websocket.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";

beforeEach(() => {
  FakeWebSocket.reset();
  useTextStore.setState({ overrides: {}, isLoaded: false });
  useToastStore.getState().clearToasts();
});

afterEach(() => {
  appSocket.close();
  restoreFetch();
});

describe("UI text", () => {
  test("stored text wins over the default, which wins over the key", () => {
    expect(resolveText("login.title", {})).toBe("Sign in");
    expect(resolveText("login.title", { "login.title": "Member sign-in" })).toBe("Member sign-in");
    expect(lookupText("server.only.key", {})).toBeUndefined();
    // An emptied text falls back to the default rather than showing nothing.
    expect(resolveText("login.title", { "login.title": "" })).toBe("Sign in");
  });

  test("fills {placeholders} from context and leaves unknown ones visible", () => {
    expect(fillPlaceholders("Welcome, {name}", { name: "Ana" })).toBe("Welcome, Ana");
    expect(fillPlaceholders("{count} of {max}", { count: 2 })).toBe("2 of {max}");
  });

  test("useText loads overrides from GET /v1/ui-text and re-renders", async () => {
    mockFetch((call) => (call.url === "/v1/ui-text" ? jsonResponse({ "layout.welcome": "Hello {name}!" }) : undefined));
    function Greeting() {
      const t = useText();
      return <p>{t("layout.welcome", { name: "Ana" })}</p>;
    }
    render(<Greeting />);
    expect(screen.getByText("Welcome, Ana")).toBeTruthy();
    await act(() => useTextStore.getState().loadTexts());
    expect(screen.getByText("Hello Ana!")).toBeTruthy();
  });

  test("the texts that differ from the defaults are kept for the next visit's first screen", async () => {
    localStorage.removeItem(UI_TEXT_STORAGE_KEY);
    mockFetch((call) => (call.url === "/v1/ui-text" ? jsonResponse({ "login.title": "Member sign-in", "common.loading": "Loading…", "layout.logout": "" }) : undefined));
    await useTextStore.getState().loadTexts();
    expect(readKeptTexts()).toEqual({ "login.title": "Member sign-in" });
    // Nothing differing: nothing kept.
    mockFetch((call) => (call.url === "/v1/ui-text" ? jsonResponse({ "login.title": "Sign in" }) : undefined));
    await useTextStore.getState().loadTexts();
    expect(localStorage.getItem(UI_TEXT_STORAGE_KEY)).toBeNull();
  });

  test("an answer that shows no other text leaves the store alone, so nothing re-renders", async () => {
    const before = { "login.title": "Sign in" };
    useTextStore.setState({ overrides: before, isLoaded: true });
    mockFetch((call) => (call.url === "/v1/ui-text" ? jsonResponse({ "login.title": "Sign in", "common.loading": "Loading…" }) : undefined));
    await useTextStore.getState().loadTexts();
    expect(useTextStore.getState().overrides).toBe(before);
  });
});

function manualTimer() {
  const scheduled: { callback: () => void; ms: number }[] = [];
  const timer: SocketTimer = {
    set(callback, ms) {
      scheduled.push({ callback, ms });
      return scheduled.length;
    },
    clear(handle) {
      scheduled[(handle as number) - 1] = { callback: () => {}, ms: -1 };
    },
  };
  return { timer, scheduled };
}

describe("socket client", () => {
  test("uses ws: or wss: by page protocol on /v1/ws", () => {
    expect(socketUrlFor({ protocol: "http:", host: "club.test:3000" })).toBe("ws://club.test:3000/v1/ws");
    expect(socketUrlFor({ protocol: "https:", host: "club.test" })).toBe("wss://club.test/v1/ws");
  });

  test("reconnects 5000 ms after a drop, and not after a deliberate close", () => {
    const { timer, scheduled } = manualTimer();
    const client = createSocketClient({ url: () => "ws://x/v1/ws", timer });
    client.connect();
    FakeWebSocket.latest()?.open();
    FakeWebSocket.latest()?.drop();
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0].ms).toBe(RECONNECT_DELAY_MS);
    expect(RECONNECT_DELAY_MS).toBe(5000);
    scheduled[0].callback();
    expect(FakeWebSocket.instances).toHaveLength(2);
    client.close();
    expect(scheduled).toHaveLength(1);
  });

  test("sends actions only while open", () => {
    const client = createSocketClient({ url: () => "ws://x/v1/ws", timer: manualTimer().timer });
    client.connect();
    expect(client.send("RUN_SCRAPER")).toBe(false);
    FakeWebSocket.latest()?.open();
    expect(client.send("CANCEL_REQUEST", { id: 4 }, "r1")).toBe(true);
    expect(JSON.parse(FakeWebSocket.latest()?.sent[0] ?? "")).toEqual({ action: "CANCEL_REQUEST", payload: { id: 4 }, requestId: "r1" });
    client.close();
  });

  test("status updated reaches refresh subscribers, and so does a reconnect", () => {
    const { timer, scheduled } = manualTimer();
    const client = createSocketClient({ url: () => "ws://x/v1/ws", timer });
    let refreshes = 0;
    onDataRefresh(() => refreshes++, client);
    client.connect();
    FakeWebSocket.latest()?.open();
    expect(refreshes).toBe(0);
    FakeWebSocket.latest()?.receive({ type: "status", status: "updated" });
    expect(refreshes).toBe(1);
    FakeWebSocket.latest()?.drop();
    scheduled[0].callback();
    FakeWebSocket.latest()?.open();
    expect(refreshes).toBe(2);
    client.close();
  });

  test("the app socket turns toast and error messages into toasts and reloads texts on uiTextUpdated", async () => {
    const calls = mockFetch((call) => (call.url === "/v1/ui-text" ? jsonResponse({ "login.title": "Hi" }) : undefined));
    appSocket.connect();
    const socket = FakeWebSocket.latest();
    socket?.open();
    socket?.receive({ type: "toast", toast: { kind: "success", message: "Booked!" } });
    socket?.receive({ type: "error", message: "[ERROR] Slot taken" });
    expect(useToastStore.getState().toasts.map((t) => [t.kind, t.message])).toEqual([
      ["success", "Booked!"],
      ["error", "[ERROR] Slot taken"],
    ]);
    socket?.receive({ type: "uiTextUpdated" });
    await waitFor(() => expect(useTextStore.getState().overrides).toEqual({ "login.title": "Hi" }));
    expect(calls.filter((c) => c.url === "/v1/ui-text")).toHaveLength(1);
  });
});
