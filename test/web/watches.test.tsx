import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { WatchView } from "../../src/features/watches/watches.schemas.ts";
import { useBookStore } from "../../web/features/book/book-store.ts";
import { failedRequest, MONDAY, openSocket, resetBookTest, serveApi, setLiveData } from "./book-fixtures.tsx";
import { emptyResponse, jsonResponse, type RecordedCall } from "./support/fetch-mock.ts";
import { renderPages } from "./watches-fixtures.tsx";

const watching: WatchView = {
  id: 11,
  date: MONDAY,
  course: "masters",
  fromTime: "06:00",
  toTime: "07:00",
  mode: "book",
  upgradeBookingId: null,
  status: "watching",
  reason: null,
  reasonKey: null,
  foundCourse: null,
  foundTime: null,
  bookingId: null,
  createdAt: 1,
  tried: [{ course: "masters", time: "06:08", at: 2, outcome: "slot_taken", answer: "Sorry, this tee time is no longer available." }],
};
const booked: WatchView = {
  ...watching,
  id: 12,
  status: "booked",
  reason: "Booked Masters at 06:16 (SWB-9).",
  reasonKey: "watches.reason.booked",
  bookingId: "SWB-9",
  foundTime: "06:16",
  tried: [],
};

let calls: RecordedCall[] = [];
let watches: WatchView[] = [];
let createAnswer: Response | null = null;

beforeEach(() => {
  watches = [watching, booked];
  createAnswer = null;
  calls = serveApi((call) => {
    if (call.method === "GET" && call.url.startsWith("/v1/my/watches")) return jsonResponse(watches);
    if (call.method === "POST" && call.url === "/v1/my/watches")
      return createAnswer ?? jsonResponse({ watch: { ...watching, id: 13, fromTime: "08:00", toTime: "08:08", tried: [] } }, 201);
    if (call.method === "POST" && call.url === "/v1/my/watches/11/cancel") return emptyResponse(204);
    if (call.method === "POST" && call.url === "/v1/my/requests/check") return jsonResponse({ checked: 2, problems: 1 });
    return undefined;
  });
  setLiveData({ requests: [failedRequest] });
});
afterEach(resetBookTest);

describe("watches on the Bookings page", () => {
  test("each watch with its state, what it found and what was tried; Cancel only while watching", async () => {
    renderPages("/bookings");
    const first = await screen.findByTestId("watch:11");
    expect(first.textContent).toContain("Watching");
    expect(first.textContent).toContain("06:00–07:00");
    expect(first.textContent).toContain("Tried: 06:08 Masters: taken by someone else");
    const second = screen.getByTestId("watch:12");
    expect(second.textContent).toContain("Booked");
    expect(second.textContent).toContain("Booked Masters at 06:16 (SWB-9).");
    expect(within(second).queryByRole("button", { name: "Cancel" })).toBeNull();

    watches = [{ ...watching, status: "ended", reason: "Cancelled." }, booked];
    fireEvent.click(within(first).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/v1/my/watches/11/cancel")).toBe(true));
    await waitFor(() => expect(screen.getByTestId("watch:11").textContent).toContain("Ended"));
    expect(await screen.findByText("Watch cancelled.")).toBeTruthy();
  });

  test("the Tried line tells every outcome in the UI text, never its code", async () => {
    const tried = [
      { course: "legends", time: "12:00", at: 2, outcome: "slot_taken", answer: null },
      { course: "legends", time: "12:04", at: 3, outcome: "confirmed", answer: null },
      { course: "legends", time: "12:08", at: 4, outcome: null, answer: null },
      { course: "legends", time: "12:12", at: 5, outcome: "something_new", answer: null },
    ];
    watches = [{ ...watching, tried }];
    renderPages("/bookings");
    const line = (await screen.findByTestId("watch:11")).textContent ?? "";
    expect(line).toContain(
      "Tried: 12:00 Legends: taken by someone else; 12:04 Legends: booked; 12:08 Legends: waiting for the club's answer; 12:12 Legends: another answer from the club",
    );
    for (const code of ["slot_taken", "confirmed", "something_new", "…"]) expect(line).not.toContain(code);
  });

  test("the list reloads when the server says the member's data changed", async () => {
    renderPages("/bookings");
    const socket = openSocket();
    await screen.findByTestId("watch:11");
    watches = [{ ...watching, status: "booked", reason: "Booked Masters at 06:08 (SWB-1)." }];
    act(() => socket.receive({ type: "status", status: "updated" }));
    await waitFor(() => expect(screen.getByTestId("watch:11").textContent).toContain("Booked Masters at 06:08 (SWB-1)."));
    expect(screen.queryByTestId("watch:12")).toBeNull();
  });

  test("'Check my requests now' asks the server and says how many need attention", async () => {
    renderPages("/bookings");
    fireEvent.click(screen.getByRole("button", { name: "Check my requests now" }));
    expect(await screen.findByText("Checked 2 request(s); 1 need attention.")).toBeTruthy();
    expect(calls.filter((c) => c.url === "/v1/my/requests/check")).toHaveLength(1);
  });

  test("a failed request offers 'Watch for a free slot' with its date, course and times", async () => {
    renderPages("/bookings");
    const row = screen.getByTestId("request:6");
    fireEvent.click(within(row).getByRole("button", { name: "Watch for a free slot" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("2026-11-24 · Legends");
    expect((within(dialog).getByLabelText("From") as HTMLInputElement).value).toBe("08:00");
    expect((within(dialog).getByLabelText("To") as HTMLInputElement).value).toBe("08:08");
    fireEvent.click(within(dialog).getByLabelText("Tell me only"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Start watching" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/v1/my/watches")).toBe(true));
    const body = calls.find((c) => c.method === "POST" && c.url === "/v1/my/watches")!.body as Record<string, unknown>;
    expect(body).toMatchObject({ course: "legends", targetDate: "2026-11-24", fromTime: "08:00", toTime: "08:08", mode: "notify", anyCourse: false, upgradeBookingId: null });
    expect(body).not.toHaveProperty("selectionOrder");
    expect(await screen.findByText("Watching 2026-11-23 from 08:00 to 08:08.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  test("a refused watch keeps the dialog open with the server's keyed message", async () => {
    createAnswer = jsonResponse({ message: "You can have at most 3 active watches.", errorKey: "watches.error.too_many" }, 400);
    renderPages("/bookings");
    fireEvent.click(within(screen.getByTestId("request:6")).getByRole("button", { name: "Watch for a free slot" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Start watching" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("You can have at most 3 active watches.");
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  test("a request needing attention shows that status", async () => {
    setLiveData({ requests: [{ ...failedRequest, status: "Needs attention", failureReason: "The club did not accept your stored club login. Update it in your profile." }] });
    renderPages("/bookings");
    await screen.findByTestId("watch:11");
    const row = screen.getByTestId("request:6");
    expect(row.textContent).toContain("Needs attention");
    expect(within(row).queryByRole("button", { name: "Watch for a free slot" })).toBeNull();
  });
});

describe("watch from the Book page", () => {
  test("offered once a date and course are chosen, with the form's players and chosen times", async () => {
    renderPages("/book");
    expect(screen.queryByRole("button", { name: "Watch for a free slot" })).toBeNull();
    act(() => {
      useBookStore.getState().chooseDate(MONDAY);
      useBookStore.getState().chooseCourse("masters");
      useBookStore.getState().toggleSlot({ time: "06:16", slotId: null });
    });
    fireEvent.click(await screen.findByRole("button", { name: "Watch for a free slot" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText("To"), { target: { value: "07:30" } });
    fireEvent.click(within(dialog).getByLabelText("Any course"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Start watching" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/v1/my/watches")).toBe(true));
    const body = calls.find((c) => c.method === "POST" && c.url === "/v1/my/watches")!.body as Record<string, unknown>;
    expect(body).toMatchObject({ course: "masters", targetDate: MONDAY, fromTime: "06:16", toTime: "07:30", anyCourse: true, mode: "book" });
    expect(body.playerDetails).toEqual({ players: [] });
  });
});
