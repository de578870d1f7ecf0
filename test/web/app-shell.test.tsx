/**
 * The first screen (decision 193): a signed-out visitor on /login gets the sign-in page from the
 * first bundle, without the router; any other screen is the router with the member area.
 */
import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { AppShell } from "../../web/app-shell.tsx";
import { useSessionStore } from "../../web/lib/session-store.ts";
import { appSocket } from "../../web/lib/socket.ts";
import { HAS_SEEN_WELCOME_KEY } from "../../web/lib/storage-keys.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";
import { findPageTitle } from "./support/render-app.tsx";
import { makeUser } from "./support/users.ts";

const at = (path: string) => window.history.replaceState(null, "", path);

beforeEach(() => {
  localStorage.setItem(HAS_SEEN_WELCOME_KEY, "true");
  useSessionStore.setState({ status: "unknown", user: null, hasJustFinishedSetup: false });
});

afterEach(() => {
  appSocket.close();
  restoreFetch();
  at("/");
});

describe("the first screen", () => {
  test("on /login a spinner shows until the session is known, then a signed-out visitor gets the sign-in form", async () => {
    let answer: (response: Response) => void = () => {};
    const calls = mockFetch((call) => (call.url === "/v1/auth/status" ? new Promise<Response>((resolve) => (answer = resolve)) : undefined));
    at("/login");
    render(<AppShell />);
    void useSessionStore.getState().checkSession();
    expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull();
    answer(jsonResponse({ isAuthenticated: false, user: null }));
    expect(await findPageTitle()).toBe("Sign in");
    expect(window.location.pathname).toBe("/login");
    // The sign-in page asks the server for nothing but the session (the client log aside).
    expect(calls.map((c) => c.url).filter((url) => url !== "/v1/client/log")).toEqual(["/v1/auth/status"]);
  });

  test("signing in on /login hands the screen to the router, which goes home", async () => {
    const member = makeUser({ username: "ana" });
    mockFetch((call) => {
      if (call.url === "/v1/auth/status") return jsonResponse({ isAuthenticated: false, user: null });
      if (call.url === "/v1/auth/login") return jsonResponse({ user: member });
      return undefined;
    });
    at("/login");
    render(<AppShell />);
    void useSessionStore.getState().checkSession();
    await findPageTitle();
    fireEvent.change(screen.getByLabelText("Username"), { target: { value: "ana" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "secret" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(window.location.pathname).toBe("/"), { timeout: 5000 });
    expect(await findPageTitle()).toBe("Home");
  });

  test("a signed-in member opening /login is taken home by the router", async () => {
    useSessionStore.setState({ status: "authenticated", user: makeUser() });
    mockFetch(() => undefined);
    at("/login");
    render(<AppShell />);
    await waitFor(() => expect(window.location.pathname).toBe("/"), { timeout: 5000 });
    expect(await findPageTitle()).toBe("Home");
  });

  test("a signed-out visitor on a member page is sent to /login by the router", async () => {
    useSessionStore.setState({ status: "anonymous", user: null });
    mockFetch(() => undefined);
    at("/bookings");
    render(<AppShell />);
    await waitFor(() => expect(window.location.pathname).toBe("/login"), { timeout: 5000 });
    expect(await findPageTitle()).toBe("Sign in");
  });
});
