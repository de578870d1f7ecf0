import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { act, fireEvent, render, waitFor, within } from "@testing-library/react";
import type { ConfirmedBookingView, PendingRequestView } from "../../src/domain/bookings-view.ts";
import { addDays, manilaDate, manilaInstant } from "../../src/domain/manila-time.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import type { AdvisoriesResponse, RulesResponse } from "../../src/features/availability/availability.schemas.ts";
import { ToastViewport } from "../../web/components/toast-viewport.tsx";
import { renderHome } from "./home-fixtures.tsx";
import { RefreshButton } from "../../web/features/home/refresh-button.tsx";
import { BOOK_OPEN_SCRAPE_KEY, STALE_ON_VISIBLE_MS, useLiveDataStore, useLiveDataSync, useScrapeOnBookOpen } from "../../web/lib/live-data-store.ts";
import { appSocket } from "../../web/lib/socket.ts";
import { useSessionStore } from "../../web/lib/session-store.ts";
import { useToastStore } from "../../web/lib/toast-store.ts";
import { FakeWebSocket } from "./support/fake-websocket.ts";
import { jsonResponse, mockFetch, restoreFetch, type RecordedCall } from "./support/fetch-mock.ts";
import { makeUser } from "./support/users.ts";

const NOW = manilaInstant("2026-11-22", "09:00");
const TODAY = manilaDate(NOW);
const now = () => NOW;
/** Queries on the live document (Testing Library's `screen` can be bound before happy-dom is registered). */
const page = () => within(document.body);

const rules: RulesResponse = {
  bookingRules: { rules: [], holidays: [] },
  courseSchedule: [
    { id: "masters", name: "Masters", days_active: [1, 2, 3, 4, 5, 6] },
    { id: "legends", name: "Legends", days_active: [2, 3, 4, 5, 6, 7] },
  ],
  appSettings: { ...DEFAULT_SETTINGS, smart_refresh_threshold_seconds: 300 },
  allowedWindows: { DEFAULT: [], SATURDAY_MASTERS: [], SUNDAY_LEGENDS: [] },
};

const advisories: AdvisoriesResponse = {
  internal: [{ id: 1, title: "Clubhouse dinner", content: "Join us on Friday.", eventDate: "2025-03-05", is_active: true, created_at: 1 }],
  scraped: [{ id: 2, title: "Course maintenance", content: "• Greens aerated • Carts on paths only", eventDate: null, is_active: true, created_at: 2 }],
};

const booking = (date: string, time: string): ConfirmedBookingView => ({
  bookingId: "B-1",
  course: "legends",
  date,
  time,
  createdAt: 1,
  playersInfo: [
    { name: "JUAN DELA CRUZ", type: "Member", id: "M-1234" },
    { name: "maria santos.", type: "Member", id: "SW-1001" },
  ],
});

const request = (date: string, time: string, status = "Pending"): PendingRequestView => ({
  id: 9,
  course: "masters",
  play_date: date,
  times: [time],
  status,
  release_at: null,
  players: [{ name: "Juan Dela Cruz", type: "Member", memberId: "m-1234" }],
});

/** The server as the live data store sees it; `lastScrapeTime` can be moved by the test. */
function serveLiveData(state: { lastScrapeTime: number | null; failing?: string }) {
  return mockFetch((call: RecordedCall) => {
    const path = call.url.split("?")[0];
    if (path === state.failing) return jsonResponse({ message: "boom" }, 500);
    switch (path) {
      case "/v1/tee-times":
        return jsonResponse({
          teeTimes: [{ date: TODAY, course: "masters", tee_times: [{ time: "06:00", status: "AVAILABLE", slotId: "s1" }] }],
          lastScrapeTime: state.lastScrapeTime,
        });
      case "/v1/system/dates":
        return jsonResponse([{ dateStr: TODAY, dayName: "Sunday", monthDay: "Nov 22" }]);
      case "/v1/system/rules":
        return jsonResponse(rules);
      case "/v1/advisories":
        return jsonResponse(advisories);
      case "/v1/my/bookings":
        return jsonResponse([booking(addDays(TODAY, 2), "07:04")]);
      case "/v1/my/requests":
        return jsonResponse([]);
      case "/v1/my/players":
        return jsonResponse([
          { firstName: "Maria", lastName: "Santos", type: "Member", memberId: "SW-1001", cartPreference: "Own Cart", feePreference: "Charge to their account" },
        ]);
      default:
        return undefined;
    }
  });
}

function Sync() {
  useLiveDataSync(appSocket, now);
  return null;
}

function openSocket(): FakeWebSocket {
  appSocket.connect();
  const socket = FakeWebSocket.latest()!;
  act(() => socket.open());
  return socket;
}

const sentActions = (socket: FakeWebSocket) => socket.sent.map((raw) => JSON.parse(raw).action);
const dataCalls = (calls: RecordedCall[]) => calls.filter((c) => !c.url.includes("/client/log"));

let consoleError: ReturnType<typeof spyOn>;
beforeEach(() => {
  FakeWebSocket.reset();
  sessionStorage.clear();
  useLiveDataStore.getState().clearLiveData();
  useToastStore.getState().clearToasts();
  useSessionStore.setState({ status: "authenticated", user: makeUser() });
  consoleError = spyOn(console, "error").mockImplementation(() => undefined);
});

afterEach(() => {
  appSocket.close();
  restoreFetch();
  consoleError.mockRestore();
});

describe("home page", () => {
  test("shows a spinner while there is nothing to show", () => {
    renderHome(now);
    expect(page().getByRole("heading", { level: 1 }).textContent).toBe("Home");
    expect(page().getByRole("status", { name: "Loading your tee times and news…" })).toBeTruthy();
    expect(page().queryByTestId("next-up")).toBeNull();
  });

  test("Next Up is the earliest upcoming booking, with the other players, badge and link", () => {
    useLiveDataStore.setState({
      rules,
      bookings: [booking(addDays(TODAY, -1), "06:00"), booking(addDays(TODAY, 3), "07:04")],
      requests: [request(addDays(TODAY, 3), "09:12"), request(addDays(TODAY, 1), "05:04", "Cancelled")],
    });
    renderHome(now);
    const card = page().getByTestId("next-up");
    expect(within(card).getByRole("heading", { name: "Next Up" })).toBeTruthy();
    expect(card.textContent).toContain("Wednesday Nov 25, 2026");
    expect(card.textContent).toContain("07:04");
    expect(card.textContent).toContain("Legends");
    expect(card.textContent).toContain("With Maria Santos");
    expect(card.textContent).not.toContain("Juan");
    expect(within(card).getByTestId("next-up-status").textContent).toBe("Confirmed");
    expect(within(card).getByRole("link", { name: "View Details" }).getAttribute("href")).toBe("/bookings");
  });

  test("a pending or failed request earlier than any booking is Next Up with its badge", () => {
    useLiveDataStore.setState({ rules, bookings: [booking(addDays(TODAY, 3), "07:04")], requests: [request(TODAY, "15:20", "Failed")] });
    renderHome(now);
    const card = page().getByTestId("next-up");
    expect(card.textContent).toContain("Sunday Nov 22, 2026");
    expect(card.textContent).toContain("15:20");
    expect(card.textContent).toContain("Masters");
    expect(card.textContent).toContain("Just you so far");
    expect(within(card).getByTestId("next-up-status").textContent).toBe("Failed");
  });

  test("announcements and club advisories: event date format and one paragraph per bullet", () => {
    useLiveDataStore.setState({ advisories });
    renderHome(now);
    const announcements = page().getByTestId("announcements");
    expect(within(announcements).getByRole("heading", { name: "Announcements" })).toBeTruthy();
    expect(announcements.textContent).toContain("Clubhouse dinner");
    expect(announcements.textContent).toContain("Mar 5, 2025");
    const club = page().getByTestId("club-advisories");
    expect(within(club).getByRole("heading", { name: "Club Advisories" })).toBeTruthy();
    expect([...club.querySelectorAll(".advisory__paragraph")].map((p) => p.textContent)).toEqual(["Greens aerated", "Carts on paths only"]);
    expect(club.querySelector(".advisory__date")).toBeNull();
    expect(page().queryByRole("status")).toBeNull();
  });
});

describe("live data store", () => {
  test("loads everything, with cache-busting queries on the live calls", async () => {
    const calls = serveLiveData({ lastScrapeTime: NOW - 1000 });
    await useLiveDataStore.getState().loadAll();
    const state = useLiveDataStore.getState();
    expect(state.hasLoaded).toBe(true);
    expect(state.lastScrapeTime).toBe(NOW - 1000);
    expect(state.teeTimes).toHaveLength(1);
    expect(state.dates).toHaveLength(1);
    expect(state.rules?.courseSchedule).toHaveLength(2);
    expect(state.advisories?.scraped).toHaveLength(1);
    expect(state.bookings).toHaveLength(1);
    expect(state.savedPlayers).toHaveLength(1);
    const urls = dataCalls(calls).map((c) => c.url);
    for (const path of ["/v1/tee-times", "/v1/advisories", "/v1/my/bookings", "/v1/my/requests", "/v1/my/players"]) {
      expect(urls.some((u) => new RegExp(`^${path}\\?_=\\d+$`).test(u))).toBe(true);
    }
    expect(urls).toContain("/v1/system/dates");
    expect(urls).toContain("/v1/system/rules");
  });

  test("a failed load is only logged to the console; the others still land", async () => {
    serveLiveData({ lastScrapeTime: null, failing: "/v1/advisories" });
    await useLiveDataStore.getState().loadAll();
    expect(useLiveDataStore.getState().advisories).toBeNull();
    expect(useLiveDataStore.getState().bookings).toHaveLength(1);
    expect(consoleError.mock.calls.some((args: unknown[]) => String(args[0]).includes("Failed to load advisories"))).toBe(true);
    expect(useToastStore.getState().toasts).toEqual([]);
  });

  test("reloads everything on status: updated, and the header time follows the scraper's answers", async () => {
    const server = { lastScrapeTime: (NOW - 10_000) as number | null };
    const calls = serveLiveData(server);
    const socket = openSocket();
    render(<Sync />);
    await waitFor(() => expect(useLiveDataStore.getState().lastScrapeTime).toBe(NOW - 10_000));

    server.lastScrapeTime = NOW - 5000;
    const before = dataCalls(calls).length;
    act(() => socket.receive({ type: "status", status: "updated" }));
    await waitFor(() => expect(useLiveDataStore.getState().lastScrapeTime).toBe(NOW - 5000));
    expect(dataCalls(calls).length - before).toBe(7);

    act(() => socket.receive({ type: "scraper", state: "recent", lastScrapeTime: NOW - 100 }));
    expect(useLiveDataStore.getState().lastScrapeTime).toBe(NOW - 100);
    // An older time never moves it back.
    act(() => socket.receive({ type: "scraper", state: "running", lastScrapeTime: NOW - 9000 }));
    expect(useLiveDataStore.getState().lastScrapeTime).toBe(NOW - 100);
  });

  test("a change that names resources reloads only what they name; several asked for during a load are loaded once, together, after it", async () => {
    const calls = serveLiveData({ lastScrapeTime: NOW - 10_000 });
    const socket = openSocket();
    render(<Sync />);
    await waitFor(() => expect(useLiveDataStore.getState().hasLoaded).toBe(true));
    const pathsSince = (from: number) =>
      dataCalls(calls)
        .slice(from)
        .map((c) => new URL(c.url, "http://x").pathname)
        .sort();

    let before = dataCalls(calls).length;
    act(() => socket.receive({ type: "status", status: "updated", changed: ["my.requests", "my.bookings", "my.notifications"] }));
    await waitFor(() => expect(pathsSince(before)).toEqual(["/v1/my/bookings", "/v1/my/requests"]));

    before = dataCalls(calls).length;
    act(() => {
      socket.receive({ type: "status", status: "updated", changed: ["advisories"] });
      socket.receive({ type: "status", status: "updated", changed: ["my.players"] });
      socket.receive({ type: "status", status: "updated", changed: ["advisories", "my.players"] });
    });
    // The first starts a load of the advisories; the two asked meanwhile make one more load, of both.
    await waitFor(() => expect(pathsSince(before)).toEqual(["/v1/advisories", "/v1/advisories", "/v1/my/players"]));
    expect(useLiveDataStore.getState().isLoading).toBe(false);

    // A key no part of the live data shows asks for nothing.
    before = dataCalls(calls).length;
    act(() => socket.receive({ type: "status", status: "updated", changed: ["my.watches"] }));
    await act(() => useLiveDataStore.getState().reload([]));
    expect(pathsSince(before)).toEqual([]);
  });
});

describe("stale-data checks", () => {
  function setVisibility(state: "visible" | "hidden") {
    Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
  }

  test("after load: asks for a scrape when the data is older than smart_refresh_threshold_seconds", async () => {
    serveLiveData({ lastScrapeTime: NOW - 301_000 });
    const socket = openSocket();
    render(<Sync />);
    await waitFor(() => expect(sentActions(socket)).toEqual(["RUN_SCRAPER"]));
  });

  test("after load: data within the threshold is left alone", async () => {
    serveLiveData({ lastScrapeTime: NOW - 299_000 });
    const socket = openSocket();
    render(<Sync />);
    await waitFor(() => expect(useLiveDataStore.getState().hasLoaded).toBe(true));
    expect(sentActions(socket)).toEqual([]);

    // Tab visible: 299 s is older than 180 s, so this asks.
    setVisibility("hidden");
    expect(sentActions(socket)).toEqual([]);
    setVisibility("visible");
    expect(sentActions(socket)).toEqual(["RUN_SCRAPER"]);
  });

  test("tab visible: asks when unknown or older than 180 s, not when fresher", async () => {
    const server = { lastScrapeTime: (NOW - 1000) as number | null };
    serveLiveData(server);
    const socket = openSocket();
    render(<Sync />);
    await waitFor(() => expect(useLiveDataStore.getState().hasLoaded).toBe(true));
    setVisibility("visible");
    expect(sentActions(socket)).toEqual([]);

    act(() => useLiveDataStore.getState().setLastScrapeTime(NOW - STALE_ON_VISIBLE_MS));
    setVisibility("visible");
    expect(sentActions(socket)).toEqual([]);
    act(() => useLiveDataStore.getState().setLastScrapeTime(NOW - STALE_ON_VISIBLE_MS - 1));
    setVisibility("visible");
    expect(sentActions(socket)).toEqual(["RUN_SCRAPER"]);
    act(() => useLiveDataStore.getState().setLastScrapeTime(null));
    setVisibility("visible");
    expect(sentActions(socket)).toEqual(["RUN_SCRAPER", "RUN_SCRAPER"]);
  });

  test("opening the Book page asks once per browser session", () => {
    const socket = openSocket();
    function BookOpen() {
      useScrapeOnBookOpen(appSocket);
      return null;
    }
    const first = render(<BookOpen />);
    first.unmount();
    render(<BookOpen />);
    expect(sentActions(socket)).toEqual(["RUN_SCRAPER"]);
    expect(sessionStorage.getItem(BOOK_OPEN_SCRAPE_KEY)).toBe("1");
  });
});

describe("manual refresh", () => {
  test("asks for a scrape, reloads everything and says 'Data refreshed'", async () => {
    const calls = serveLiveData({ lastScrapeTime: NOW });
    const socket = openSocket();
    render(
      <>
        <RefreshButton />
        <ToastViewport />
      </>,
    );
    fireEvent.click(page().getByRole("button", { name: "Refresh tee times and bookings" }));
    expect(await page().findByText("Data refreshed")).toBeTruthy();
    expect(sentActions(socket)).toEqual(["RUN_SCRAPER"]);
    expect(dataCalls(calls)).toHaveLength(7);
    expect(useLiveDataStore.getState().lastScrapeTime).toBe(NOW);
  });
});
