import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { waitForFocus } from "./support/focus.ts";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { addDays, manilaDate, manilaInstant } from "../../src/domain/manila-time.ts";
import { ROUTE_TRANSITION_MS } from "../../web/layout/main-layout.tsx";
import { splitTabsForWidth, tabsForRole, TABS } from "../../web/layout/tabs.ts";
import { useLiveDataStore } from "../../web/lib/live-data-store.ts";
import { appSocket } from "../../web/lib/socket.ts";
import { HAS_SEEN_WELCOME_KEY } from "../../web/lib/storage-keys.ts";
import { emptyResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";
import { findPageTitle, renderApp } from "./support/render-app.tsx";
import { makeUser } from "./support/users.ts";

const member = makeUser();
const admin = makeUser({ role: "admin", name: "Ana Admin" });

function setViewportWidth(width: number): void {
  act(() => {
    (window as unknown as { happyDOM: { setInnerWidth(width: number): void } }).happyDOM.setInnerWidth(width);
    window.dispatchEvent(new Event("resize"));
  });
}

function tabLabels(container: HTMLElement): string[] {
  return [...container.querySelectorAll(":scope > a .tab-label, :scope > a")].filter((el) => el.tagName === "A").map((el) => el.querySelector(".tab-label")?.textContent ?? "");
}

beforeEach(() => {
  localStorage.setItem(HAS_SEEN_WELCOME_KEY, "true");
  useLiveDataStore.getState().clearLiveData();
  mockFetch(() => undefined);
});

afterEach(() => {
  appSocket.close();
  restoreFetch();
  setViewportWidth(1280);
});

describe("tab list", () => {
  test("members get five tabs, admins and superadmins also Admin", () => {
    expect(tabsForRole("user").map((t) => t.id)).toEqual(["home", "book", "bookings", "players", "profile"]);
    expect(tabsForRole("admin").map((t) => t.id)).toEqual(["home", "book", "bookings", "players", "profile", "admin"]);
    expect(tabsForRole("superadmin").map((t) => t.id)).toContain("admin");
  });

  test("the desktop bar shows Admin only to admins", async () => {
    const { unmount } = renderApp("/", { user: member });
    await findPageTitle();
    expect(tabLabels(screen.getByTestId("tab-bar"))).toEqual(["Home", "Book", "Bookings", "Players", "Profile"]);
    unmount();
    renderApp("/", { user: admin });
    await findPageTitle();
    expect(tabLabels(screen.getByTestId("tab-bar"))).toEqual(["Home", "Book", "Bookings", "Players", "Profile", "Admin"]);
  });
});

describe("More menu overflow at 90 px per item", () => {
  test("everything fits when width allows 90 px per tab", () => {
    expect(splitTabsForWidth(TABS, 540).overflow).toEqual([]);
    expect(splitTabsForWidth(TABS.slice(0, 5), 450).overflow).toEqual([]);
  });

  test("otherwise the More button takes one slot and the rest overflow", () => {
    const at360 = splitTabsForWidth(TABS, 360);
    expect(at360.visible.map((t) => t.id)).toEqual(["home", "book", "bookings"]);
    expect(at360.overflow.map((t) => t.id)).toEqual(["players", "profile", "admin"]);
    const at539 = splitTabsForWidth(TABS, 539);
    expect(at539.visible.map((t) => t.id)).toEqual(["home", "book", "bookings", "players"]);
    expect(at539.overflow.map((t) => t.id)).toEqual(["profile", "admin"]);
    expect(splitTabsForWidth(TABS.slice(0, 5), 449).overflow.map((t) => t.id)).toEqual(["players", "profile"]);
  });

  test("the bottom bar follows the window width and the More menu lists the overflow", async () => {
    renderApp("/", { user: admin });
    await findPageTitle();
    setViewportWidth(360);
    const bar = screen.getByTestId("bottom-bar");
    await waitFor(() => expect(tabLabels(bar)).toEqual(["Home", "Book", "Bookings"]));
    const more = within(bar).getByRole("button", { name: "More" });
    expect(screen.queryByRole("menu")).toBeNull();
    fireEvent.click(more);
    const menu = await screen.findByRole("menu");
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((item) => item.textContent),
    ).toEqual(["Players", "Profile", "Admin"]);
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());

    setViewportWidth(600);
    await waitFor(() => expect(tabLabels(bar)).toEqual(["Home", "Book", "Bookings", "Players", "Profile", "Admin"]));
    expect(within(bar).queryByRole("button", { name: "More" })).toBeNull();
  });

  test("choosing a tab in the More menu navigates and closes the menu", async () => {
    const { router } = renderApp("/", { user: member });
    await findPageTitle();
    setViewportWidth(360);
    fireEvent.click(await within(screen.getByTestId("bottom-bar")).findByRole("button", { name: "More" }));
    fireEvent.click(await screen.findByRole("menuitem", { name: "Profile" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Profile"));
    expect(screen.queryByRole("menu")).toBeNull();
  });
});

describe("header", () => {
  test("shows the brand, the welcome line and dashes while the last update is unknown", async () => {
    renderApp("/", { user: member });
    await findPageTitle();
    expect(screen.getByText("Teebox")).toBeTruthy();
    expect(screen.getByText("Welcome, Juan Dela Cruz")).toBeTruthy();
    expect(screen.getByTestId("last-updated").textContent).toBe("Last updated --:--:--");
  });

  test("shows the last scrape time as HH:mm:ss in Manila", async () => {
    renderApp("/", { user: member });
    await findPageTitle();
    act(() => useLiveDataStore.getState().setLastScrapeTime(manilaInstant("2025-03-05", "07:08:09")));
    await waitFor(() => expect(screen.getByTestId("last-updated").textContent).toBe("Last updated 07:08:09"));
  });

  test("logout calls the server and returns to /login", async () => {
    const calls = mockFetch((call) => (call.url === "/v1/auth/logout" ? emptyResponse(204) : undefined));
    const { router } = renderApp("/bookings", { user: member });
    await findPageTitle();
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(await findPageTitle()).toBe("Sign in");
    expect(calls.some((c) => c.method === "POST" && c.url === "/v1/auth/logout")).toBe(true);
  });
});

describe("Bookings badge", () => {
  const today = manilaDate(Date.now());
  const booking = (date: string) => ({ bookingId: date, course: "North", date, time: "07:00", createdAt: 0, playersInfo: [] });
  const request = (play_date: string, status = "Pending") => ({
    id: play_date.length,
    course: "South",
    play_date,
    times: ["08:00"],
    status,
    release_at: null,
    players: [],
  });

  test("counts bookings and pending requests dated today or later", async () => {
    renderApp("/", { user: member });
    await findPageTitle();
    expect(screen.getByTestId("tab-bar").querySelector(".badge")).toBeNull();
    act(() => {
      useLiveDataStore.getState().setBookings([booking(today), booking(addDays(today, 3)), booking(addDays(today, -1))]);
      useLiveDataStore.getState().setRequests([request(addDays(today, 1)), request(addDays(today, -2))]);
    });
    await waitFor(() => expect(screen.getByTestId("tab-bar").querySelector('[data-tab="bookings"] .badge')?.textContent).toBe("3"));
  });
});

describe("route view", () => {
  test("animates page changes for 280 ms and restarts on every route", async () => {
    const { router } = renderApp("/", { user: member });
    await findPageTitle();
    const first = screen.getByTestId("route-view");
    expect(ROUTE_TRANSITION_MS).toBe(280);
    expect((first.closest(".app-shell") as HTMLElement).style.getPropertyValue("--route-transition-ms")).toBe("280ms");
    act(() => {
      void router.navigate("/book");
    });
    expect(await screen.findByRole("heading", { name: "Book a tee time" })).toBeTruthy();
    expect(screen.getByTestId("route-view")).not.toBe(first);
  });
});

describe("welcome overlay", () => {
  test("shows once, and dismissing it stores hasSeenWelcome", async () => {
    localStorage.removeItem(HAS_SEEN_WELCOME_KEY);
    const { unmount } = renderApp("/", { user: member });
    const dialog = await screen.findByRole("dialog", { name: "Welcome to Teebox" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Get started" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(localStorage.getItem(HAS_SEEN_WELCOME_KEY)).toBe("true");
    unmount();
    renderApp("/", { user: member });
    await findPageTitle();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  test("closes on Escape", async () => {
    localStorage.removeItem(HAS_SEEN_WELCOME_KEY);
    renderApp("/", { user: member });
    const dialog = await screen.findByRole("dialog");
    // The dialog listens for Escape from the moment it takes focus (both in one effect).
    await waitForFocus(dialog);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
