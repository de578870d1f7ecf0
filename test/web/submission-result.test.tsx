import "../helpers/dom.ts";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import type { ServerMessage } from "../../web/lib/types.ts";
import { openSocket, renderResultDialog, resetBookTest, setLiveData } from "./book-fixtures.tsx";

beforeEach(() => setLiveData());
afterEach(resetBookTest);

type SubmissionResultMessage = Extract<ServerMessage, { type: "submissionResult" }>;

/** Renders the dialog and has the socket deliver one submission result. */
function receiveResult(result: Omit<SubmissionResultMessage, "type">): void {
  const socket = openSocket();
  renderResultDialog();
  act(() => socket.receive({ type: "submissionResult", ...result }));
}

function details(dialog: HTMLElement): Record<string, string> {
  const terms = [...dialog.querySelectorAll("dt")].map((d) => d.textContent ?? "");
  const values = [...dialog.querySelectorAll("dd")].map((d) => d.textContent ?? "");
  return Object.fromEntries(terms.map((term, i) => [term, values[i]]));
}

test("a pending result is 'Request Scheduled' with the release time as 'Scheduled For'", () => {
  const socket = openSocket();
  renderResultDialog();
  expect(screen.queryByRole("dialog")).toBeNull();
  act(() =>
    socket.receive({
      type: "submissionResult",
      status: "pending",
      details: { play_date: "2026-12-05", course: "masters", time: "07:04", releaseAt: manilaInstant("2026-11-28", "07:00") },
    }),
  );
  const dialog = screen.getByRole("dialog", { name: "Request Scheduled" });
  expect(dialog.textContent).toContain("Your request will be submitted automatically at the earliest possible time.");
  expect(details(dialog)).toEqual({
    Course: "Masters",
    Date: "Saturday Dec 5, 2026",
    Time: "07:04",
    "Scheduled For": "Nov 28, 2026 07:00",
  });
  fireEvent.click(within(dialog).getByRole("button", { name: "OK" }));
  expect(screen.queryByRole("dialog")).toBeNull();
});

test("any other status is 'Request Submitted' without a scheduled time", () => {
  receiveResult({
    status: "submitted",
    details: { play_date: "2026-11-23", course: "legends", time: "12:08", releaseAt: null },
  });
  const dialog = screen.getByRole("dialog", { name: "Request Submitted" });
  expect(dialog.textContent).toContain("Your request was sent for immediate processing. The result will appear in 'My Bookings'.");
  expect(details(dialog)).toEqual({ Course: "Legends", Date: "Monday Nov 23, 2026", Time: "12:08" });
  fireEvent.keyDown(document, { key: "Escape" });
  expect(screen.queryByRole("dialog")).toBeNull();
});

test("a request saved but held because not every partner has accepted says so, with the reason, not 'Request Submitted'", () => {
  receiveResult({
    status: "needs_attention",
    details: { play_date: "2026-11-23", course: "masters", time: "06:00", releaseAt: null },
    reason: { key: "partners.reason.not_accepted", context: { names: "Reyes" } },
  });
  expect(screen.queryByRole("dialog", { name: "Request Submitted" })).toBeNull();
  const dialog = screen.getByRole("dialog", { name: "Request Not Sent" });
  expect(dialog.textContent).toContain(
    "Your request was saved but not sent, because not every partner has accepted yet: the game is already released, so they could not be asked. Follow it in 'My Bookings'.",
  );
  expect(details(dialog)).toEqual({ Course: "Masters", Date: "Monday Nov 23, 2026", Time: "06:00", Reason: "Not every partner has accepted: Reyes." });
  fireEvent.click(within(dialog).getByRole("button", { name: "OK" }));
  expect(screen.queryByRole("dialog")).toBeNull();
});

test("a request held for another reason says it was saved but not sent, and why", () => {
  receiveResult({
    status: "needs_attention",
    details: { play_date: "2026-11-23", course: "masters", time: "06:00", releaseAt: null },
    reason: { key: "partners.reason.overlap", context: { member: "Reyes (SW-1002)", time: "07:00" } },
  });
  const dialog = screen.getByRole("dialog", { name: "Request Not Sent" });
  expect(dialog.textContent).toContain("Your request was saved but not sent. Follow it in 'My Bookings'.");
  expect(dialog.textContent).not.toContain("not every partner has accepted");
  expect(details(dialog).Reason).toBe("Reyes (SW-1002) is in another flight at 07:00 that day.");
});
