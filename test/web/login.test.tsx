import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { appSocket } from "../../web/lib/socket.ts";
import { HAS_SEEN_WELCOME_KEY } from "../../web/lib/storage-keys.ts";
import { useTextStore } from "../../web/lib/text-store.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";
import { findPageTitle, renderApp } from "./support/render-app.tsx";
import { makeUser } from "./support/users.ts";

beforeEach(() => {
  localStorage.setItem(HAS_SEEN_WELCOME_KEY, "true");
  useTextStore.setState({ overrides: {} });
});

afterEach(() => {
  appSocket.close();
  restoreFetch();
});

function fill(username: string, password: string): void {
  fireEvent.change(screen.getByLabelText("Username"), { target: { value: username } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
}

describe("login page", () => {
  test("is one main landmark holding the form, for screen readers' jump to content", async () => {
    mockFetch(() => undefined);
    renderApp("/login", { user: null });
    await findPageTitle();
    const main = screen.getByRole("main");
    expect(main.contains(screen.getByRole("button", { name: "Sign in" }))).toBe(true);
  });

  test("requires both fields before calling the server", async () => {
    const calls = mockFetch(() => undefined);
    renderApp("/login", { user: null });
    await findPageTitle();
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByRole("alert").textContent).toBe("Username is required.");
    fill("ana", "");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByRole("alert").textContent).toBe("Password is required.");
    expect(calls.filter((c) => c.url === "/v1/auth/login")).toHaveLength(0);
  });

  test("shows a loading button, then goes home on success", async () => {
    let answer: (response: Response) => void = () => {};
    const calls = mockFetch((call) => (call.url === "/v1/auth/login" ? new Promise<Response>((resolve) => (answer = resolve)) : undefined));
    const { router } = renderApp("/login", { user: null });
    await findPageTitle();
    fill("ana", "secret");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    const busy = await screen.findByRole("button", { name: "Signing in…" });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(calls.find((c) => c.url === "/v1/auth/login")?.body).toEqual({ username: "ana", password: "secret" });
    answer(jsonResponse({ user: makeUser({ username: "ana" }) }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(await findPageTitle()).toBe("Home");
  });

  test("shows the keyed text for the server's errorKey", async () => {
    mockFetch((call) => (call.url === "/v1/auth/login" ? jsonResponse({ message: "Invalid username or password.", errorKey: "login.invalid_credentials" }, 401) : undefined));
    useTextStore.setState({ overrides: { "login.invalid_credentials": "Wrong username or password, try again." } });
    renderApp("/login", { user: null });
    await findPageTitle();
    fill("ana", "bad");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Wrong username or password, try again.");
    expect((screen.getByRole("button", { name: "Sign in" }) as HTMLButtonElement).disabled).toBe(false);
  });

  test("falls back to login.generic_error when the error has no text", async () => {
    mockFetch((call) => (call.url === "/v1/auth/login" ? jsonResponse({ message: "Internal error" }, 500) : undefined));
    renderApp("/login", { user: null });
    await findPageTitle();
    fill("ana", "pw");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Login failed. Please check your credentials.");
  });

  test("uses the admin's generic error text when there is one", async () => {
    mockFetch((call) => {
      if (call.url === "/v1/auth/login") throw new TypeError("Failed to fetch");
      return undefined;
    });
    useTextStore.setState({ overrides: { "login.generic_error": "Could not sign you in." } });
    renderApp("/login", { user: null });
    await findPageTitle();
    fill("ana", "pw");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Could not sign you in.");
  });
});
