/**
 * The app opened with no server to answer (the shell came from the service worker): the offline
 * view with what this device last saw; a logout or an ended session forgets it; a gateway's
 * 502-504 counts as unreachable, a 500 does not. And the new-version banner.
 */
import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { UpdateBanner } from "../../web/components/update-banner.tsx";
import { clearOfflineSnapshot, keepOfflineSnapshot, readOfflineSnapshot, saveOfflineSnapshot } from "../../web/lib/offline-snapshot.ts";
import { useLiveDataStore } from "../../web/lib/live-data-store.ts";
import { announceNewVersion } from "../../web/lib/service-worker.ts";
import { isServerUnreachable, useSessionStore } from "../../web/lib/session-store.ts";
import { ApiError } from "../../web/lib/api.ts";
import { HAS_SEEN_WELCOME_KEY, OFFLINE_SNAPSHOT_KEY } from "../../web/lib/storage-keys.ts";
import { appRoutes } from "../../web/router.tsx";
import { emptyResponse, jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";
import { makeUser } from "./support/users.ts";

const SNAPSHOT = {
  savedAt: Date.UTC(2026, 10, 24, 6, 30, 0),
  bookings: [{ bookingId: "B-77", course: "masters", date: "2026-12-01", time: "06:12", createdAt: 0, playersInfo: [] }],
  requests: [{ id: 9, course: "legends", play_date: "2026-12-06", times: ["07:20"], status: "Pending", release_at: null, players: [] }],
  courses: [
    { id: "masters", name: "Masters" },
    { id: "legends", name: "Legends" },
  ],
};

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(HAS_SEEN_WELCOME_KEY, "true");
  useSessionStore.setState({ status: "unknown", user: null });
});

afterEach(() => {
  restoreFetch();
  clearOfflineSnapshot();
});

function openApp(path = "/bookings") {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  return render(<RouterProvider router={router} />);
}

describe("the offline view", () => {
  test("shows the last bookings and requests, with course names and when they were seen, when the status check cannot reach the server", async () => {
    saveOfflineSnapshot(SNAPSHOT);
    mockFetch((call) => {
      if (call.url.includes("/v1/auth/status")) throw new TypeError("Failed to fetch");
      return undefined;
    });
    openApp();
    await screen.findByRole("heading", { name: "You are offline" }, { timeout: 5000 });
    expect(screen.getByText("Offline")).toBeTruthy();
    const bookings = screen.getByRole("region", { name: "Confirmed Bookings" });
    expect(bookings.textContent).toContain("Dec 1, 2026 06:12");
    expect(bookings.textContent).toContain("Masters");
    const requests = screen.getByRole("region", { name: "Pending Requests" });
    expect(requests.textContent).toContain("07:20");
    expect(requests.textContent).toContain("Legends");
    // Manila time of the save, whatever the process's zone.
    expect(screen.getByText(/Last seen 14:30:00 on Nov 24, 2026/)).toBeTruthy();
  });

  test("says nothing was saved yet, and 'Try again' signs back in once the server answers", async () => {
    let isDown = true;
    mockFetch((call) => {
      if (call.url.includes("/v1/auth/status")) {
        if (isDown) throw new TypeError("Failed to fetch");
        return jsonResponse({ isAuthenticated: false, user: null });
      }
      return undefined;
    });
    openApp("/login");
    await screen.findByRole("heading", { name: "You are offline" }, { timeout: 5000 });
    expect(screen.getByText("Nothing has been saved on this device yet.")).toBeTruthy();
    isDown = false;
    act(() => screen.getByRole("button", { name: "Try again" }).click());
    await screen.findByRole("heading", { name: "Sign in" }, { timeout: 5000 });
  });

  test("a corrupt saved snapshot is ignored rather than shown or crashing the view", () => {
    localStorage.setItem(OFFLINE_SNAPSHOT_KEY, "{not json");
    expect(readOfflineSnapshot()).toBeNull();
    localStorage.setItem(OFFLINE_SNAPSHOT_KEY, JSON.stringify({ savedAt: "yesterday", bookings: [] }));
    expect(readOfflineSnapshot()).toBeNull();
  });
});

describe("which failures mean the server is unreachable", () => {
  test("a failed fetch and a gateway's 502, 503 and 504 do; a 500 or 401 from Teebox itself does not", () => {
    expect(isServerUnreachable(new TypeError("Failed to fetch"))).toBe(true);
    for (const status of [502, 503, 504]) expect(isServerUnreachable(new ApiError(status, {}))).toBe(true);
    for (const status of [500, 401, 429]) expect(isServerUnreachable(new ApiError(status, {}))).toBe(false);
    expect(isServerUnreachable(new Error("bad json"))).toBe(false);
  });
});

describe("what the device keeps", () => {
  test("every full load of live data is saved, with the course names", () => {
    const stop = keepOfflineSnapshot(() => 1234);
    try {
      useLiveDataStore.setState({
        hasLoaded: true,
        bookings: SNAPSHOT.bookings,
        requests: SNAPSHOT.requests,
        rules: { courseSchedule: [{ id: "masters", name: "Masters", days_active: [1] }] } as never,
      });
      expect(readOfflineSnapshot()).toEqual({ savedAt: 1234, bookings: SNAPSHOT.bookings, requests: SNAPSHOT.requests, courses: [{ id: "masters", name: "Masters" }] });
    } finally {
      stop();
      useLiveDataStore.getState().clearLiveData();
    }
  });

  test("logging out forgets it", async () => {
    saveOfflineSnapshot(SNAPSHOT);
    mockFetch((call) => (call.url.includes("/v1/auth/logout") ? emptyResponse() : undefined));
    useSessionStore.setState({ status: "authenticated", user: makeUser() });
    await useSessionStore.getState().signOut();
    expect(localStorage.getItem(OFFLINE_SNAPSHOT_KEY)).toBeNull();
  });

  test("a session the server says has ended forgets it", async () => {
    saveOfflineSnapshot(SNAPSHOT);
    mockFetch((call) => (call.url.includes("/v1/auth/status") ? jsonResponse({ isAuthenticated: false, user: null }) : undefined));
    await useSessionStore.getState().checkSession();
    expect(useSessionStore.getState().status).toBe("anonymous");
    expect(localStorage.getItem(OFFLINE_SNAPSHOT_KEY)).toBeNull();
  });
});

describe("a new version", () => {
  test("the banner appears once the new worker has taken over, with a reload button", async () => {
    render(<UpdateBanner />);
    expect(screen.queryByRole("status")).toBeNull();
    act(() => announceNewVersion());
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("A new version of Teebox is ready."));
    expect(screen.getByRole("button", { name: "Reload" })).toBeTruthy();
  });
});
