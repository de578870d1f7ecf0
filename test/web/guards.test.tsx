import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { screen, waitFor } from "@testing-library/react";
import { HAS_SEEN_WELCOME_KEY } from "../../web/lib/storage-keys.ts";
import { appSocket } from "../../web/lib/socket.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";
import { findPageTitle, renderApp } from "./support/render-app.tsx";
import { makeUser } from "./support/users.ts";

const member = makeUser();
const memberWithoutProfile = makeUser({ name: "", memberId: "", southwoods_email: "" });

beforeEach(() => {
  localStorage.setItem(HAS_SEEN_WELCOME_KEY, "true");
  mockFetch(() => undefined);
});

afterEach(() => {
  appSocket.close();
  restoreFetch();
});

async function pathAfterGuards(router: { state: { location: { pathname: string } } }): Promise<string> {
  await findPageTitle();
  return router.state.location.pathname;
}

describe("signed-out visitors", () => {
  test("are sent from a member page to /login", async () => {
    const { router } = renderApp("/bookings", { user: null });
    expect(await pathAfterGuards(router)).toBe("/login");
    expect(await findPageTitle()).toBe("Sign in");
  });

  test("are sent from an unknown address to /login", async () => {
    const { router } = renderApp("/no-such-page", { user: null });
    expect(await pathAfterGuards(router)).toBe("/login");
  });
});

describe("/login", () => {
  test("sends a signed-in member home", async () => {
    const { router } = renderApp("/login", { user: member });
    expect(await pathAfterGuards(router)).toBe("/");
    expect(await findPageTitle()).toBe("Home");
  });
});

describe("setup redirect", () => {
  test("sends a member missing name, member id or club email to /setup", async () => {
    for (const missing of ["name", "memberId", "southwoods_email"] as const) {
      const { router, unmount } = renderApp("/book", { user: makeUser({ [missing]: "  " }) });
      expect(await pathAfterGuards(router)).toBe("/setup");
      unmount();
    }
  });

  test("applies to admins too", async () => {
    const { router } = renderApp("/admin", { user: makeUser({ role: "admin", memberId: "" }) });
    expect(await pathAfterGuards(router)).toBe("/setup");
  });

  test("exempts the superadmin", async () => {
    const { router } = renderApp("/book", { user: makeUser({ role: "superadmin", name: "", memberId: "", southwoods_email: "" }) });
    expect(await pathAfterGuards(router)).toBe("/book");
  });

  test("sends a member with a complete profile away from /setup", async () => {
    const { router } = renderApp("/setup", { user: member });
    expect(await pathAfterGuards(router)).toBe("/");
  });

  test("sends a member whose password an admin typed to /setup, even with a complete profile, and keeps them there", async () => {
    for (const user of [makeUser({ mustSetPassword: true }), makeUser({ role: "superadmin", mustSetPassword: true })]) {
      const home = renderApp("/bookings", { user });
      expect(await pathAfterGuards(home.router)).toBe("/setup");
      home.unmount();
    }
    const { router } = renderApp("/setup", { user: makeUser({ mustSetPassword: true }) });
    expect(await pathAfterGuards(router)).toBe("/setup");
  });

  test("keeps /setup open when the wizard has just finished", async () => {
    const { router } = renderApp("/setup", { user: member, hasJustFinishedSetup: true });
    expect(await pathAfterGuards(router)).toBe("/setup");
  });

  test("lets a member without a profile stay on /setup, outside the main layout", async () => {
    const { router } = renderApp("/setup", { user: memberWithoutProfile });
    expect(await pathAfterGuards(router)).toBe("/setup");
    expect(screen.queryByTestId("bottom-bar")).toBeNull();
  });
});

describe("/admin", () => {
  test("is open to admins and superadmins", async () => {
    for (const role of ["admin", "superadmin"] as const) {
      const { router, unmount } = renderApp("/admin", { user: makeUser({ role }) });
      expect(await pathAfterGuards(router)).toBe("/admin");
      unmount();
    }
  });

  test("sends members home", async () => {
    const { router } = renderApp("/admin", { user: member });
    expect(await pathAfterGuards(router)).toBe("/");
  });
});

describe("pages", () => {
  test("every member route shows its own heading inside the layout", async () => {
    const expected: Record<string, string> = {
      "/": "Home",
      "/book": "Book a tee time",
      "/bookings": "My Bookings",
      "/players": "Saved Players",
      "/profile": "Profile",
    };
    for (const [path, title] of Object.entries(expected)) {
      const { unmount } = renderApp(path, { user: member });
      expect(await findPageTitle()).toBe(title);
      expect(screen.getByTestId("tab-bar")).toBeTruthy();
      unmount();
    }
  });

  test("an unknown address shows the not-found page to a signed-in member", async () => {
    renderApp("/nowhere", { user: member });
    expect(await findPageTitle()).toBe("Page not found");
  });
});

describe("session check", () => {
  test("shows a spinner until the status call answers, then routes by its answer", async () => {
    // Status calls wait for the test's answer; once given, it answers calls made later too (the
    // check may start only after the spinner shows, or be asked for more than once).
    const waiting: ((response: Response) => void)[] = [];
    let answered: (() => Response) | null = null;
    const answer = (make: () => Response) => {
      answered = make;
      for (const resolve of waiting.splice(0)) resolve(make());
    };
    mockFetch((call) => {
      if (call.url !== "/v1/auth/status") return undefined;
      return answered ? Promise.resolve(answered()) : new Promise<Response>((resolve) => waiting.push(resolve));
    });
    const { useSessionStore } = await import("../../web/lib/session-store.ts");
    const { render } = await import("@testing-library/react");
    const { createMemoryRouter, RouterProvider } = await import("react-router-dom");
    const { appRoutes } = await import("../../web/router.tsx");
    useSessionStore.setState({ status: "unknown", user: null });
    const router = createMemoryRouter(appRoutes, { initialEntries: ["/profile"] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole("status", { name: "Loading…" })).toBeTruthy();
    answer(() => jsonResponse({ isAuthenticated: true, user: member }));
    expect(await findPageTitle()).toBe("Profile");
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
  });
});
