/** The admin's Club connection panel: runs the club check and shows each page's result. */
import "../helpers/dom.ts";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { fireEvent, render, within } from "@testing-library/react";
import { ClubConnection } from "../../web/features/admin/club-connection.tsx";
import { useSessionStore } from "../../web/lib/session-store.ts";
import { jsonResponse, mockFetch, restoreFetch, type RecordedCall } from "./support/fetch-mock.ts";
import { makeUser } from "./support/users.ts";

const REPORT = {
  clubUrl: "http://127.0.0.1:5555",
  startedAt: 1,
  ok: false,
  clockOffsetMs: 7000,
  pages: [
    { page: "login", path: "/login", ok: true, summary: "login form found", problems: [], html: "<form></form>" },
    { page: "advisories", path: "/advisories", ok: false, summary: "advisory entries not found", problems: ["advisory 2 skipped: it has no title"], html: "" },
  ],
};

let calls: RecordedCall[];
beforeEach(() => useSessionStore.setState({ status: "authenticated", user: makeUser({ role: "admin", id: 1, username: "admin" }) }));
afterEach(() => restoreFetch());

test("runs the check on request and shows what each page gave, with a saved page to download", async () => {
  calls = mockFetch((call) => (call.url.startsWith("/v1/admin/club-check") ? jsonResponse(REPORT) : undefined));
  const view = within(render(<ClubConnection />).container);
  expect(calls).toHaveLength(0);
  fireEvent.click(view.getByRole("button", { name: "Check the club" }));
  expect(await view.findByText("Some pages could not be read.")).toBeTruthy();
  expect(calls.filter((c) => c.url.includes("club-check")).map((c) => [c.method, c.url])).toEqual([["POST", "/v1/admin/club-check"]]);
  expect(view.getByText("Club clock offset: 7.0 s")).toBeTruthy();
  expect(view.getByText("Not read").className).toContain("admin-status--bad");
  expect(view.getByText("advisory 2 skipped: it has no title")).toBeTruthy();
  expect(view.getAllByText("Save page")).toHaveLength(1);
  expect(view.getByText("Save page").getAttribute("download")).toBe("login.html");
});

test("shows the server's reason when the check cannot run", async () => {
  mockFetch((call) =>
    call.url.startsWith("/v1/admin/club-check") ? jsonResponse({ message: "A club check is already running.", errorKey: "admin.club_check.error_running" }, 409) : undefined,
  );
  const view = within(render(<ClubConnection />).container);
  fireEvent.click(view.getByRole("button", { name: "Check the club" }));
  expect(await view.findByText("A club check is already running.")).toBeTruthy();
});
