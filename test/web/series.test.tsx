import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import type { SeriesView } from "../../src/features/series/series.schemas.ts";
import { useBookStore } from "../../web/features/book/book-store.ts";
import { MONDAY, openSocket, pendingRequest, resetBookTest, serveApi, setLiveData } from "./book-fixtures.tsx";
import { emptyResponse, jsonResponse, type RecordedCall } from "./support/fetch-mock.ts";
import { renderPages } from "./watches-fixtures.tsx";

const occurrence = {
  requestId: null,
  course: "masters",
  times: ["06:00", "06:08"],
  isChangedAlone: false,
  releaseAt: null,
  queuesAt: null,
  reason: null,
  reasonKey: null,
  line: null,
};
const weekly: SeriesView = {
  id: 4,
  status: "active",
  course: "masters",
  times: ["06:00", "06:08"],
  fromTime: null,
  toTime: null,
  weekdays: [1, 3],
  startDate: MONDAY,
  endDate: null,
  skipDates: [],
  playerNames: ["Maria Santos"],
  players: [{ type: "Spouse", cartType: { "Rental Cart - Solo": true }, chargeFeesTo: { "Charge to their account": true }, searchLastName: "Santos", searchIdNumber: "SW-1001-S" }],
  memberCartType: "Rental Cart - Solo",
  partnersMustAccept: false,
  createdAt: 1,
  next: [
    { ...occurrence, date: "2026-11-30", state: "pending", requestId: 9, releaseAt: manilaInstant("2026-11-23", "07:00"), line: { place: 2, of: 3 } },
    { ...occurrence, date: "2026-12-02", state: "needs_attention", reason: "This course is not open on that day.", reasonKey: "booking.course_closed" },
    { ...occurrence, date: "2026-12-07", state: "scheduled", queuesAt: manilaInstant("2026-11-23", "18:00") },
  ],
};

let calls: RecordedCall[] = [];
let series: SeriesView[] = [];
let createAnswer: Response | null = null;

beforeEach(() => {
  series = [weekly];
  createAnswer = null;
  calls = serveApi((call) => {
    if (call.method === "GET" && call.url.startsWith("/v1/my/series")) return jsonResponse(series);
    if (call.method === "GET" && call.url.startsWith("/v1/my/watches")) return jsonResponse([]);
    if (call.method === "POST" && call.url === "/v1/my/series") return createAnswer ?? jsonResponse({ series: { ...weekly, id: 5 } }, 201);
    if (call.method === "POST" && call.url.startsWith("/v1/my/series/4/")) return emptyResponse(204);
    if (call.method === "PUT" && call.url === "/v1/my/series/4") return jsonResponse({ series: weekly });
    return undefined;
  });
  setLiveData({ requests: [pendingRequest] });
});
afterEach(resetBookTest);

/** The Bookings page's "Repeat weekly" dialog for pending request 5. */
async function openRepeatDialog(): Promise<HTMLElement> {
  renderPages("/bookings");
  fireEvent.click(within(await screen.findByTestId("request:5")).getByRole("button", { name: "Repeat weekly" }));
  return screen.findByRole("dialog");
}

/** Sets the standing request the dialog holds; the body it posted. */
async function setStandingRequest(dialog: HTMLElement): Promise<Record<string, unknown>> {
  fireEvent.click(within(dialog).getByRole("button", { name: "Set standing request" }));
  await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/v1/my/series")).toBe(true));
  return calls.find((c) => c.method === "POST" && c.url === "/v1/my/series")!.body as Record<string, unknown>;
}

describe("standing requests on the Bookings page", () => {
  test("each series with its days, course, times, players and next dates: state, release, place in line, reason", async () => {
    renderPages("/bookings");
    const card = await screen.findByTestId("series:4");
    expect(card.textContent).toContain("Mon, Wed · Masters · 06:00 06:08");
    expect(card.textContent).toContain("Players: Maria Santos");
    const pending = screen.getByTestId("occurrence:4:2026-11-30");
    expect(pending.textContent).toContain("Pending");
    expect(pending.textContent).toContain("Releases Nov 23, 2026 07:00");
    expect(pending.textContent).toContain("In line 2 of 3 for this release");
    expect(screen.getByTestId("occurrence:4:2026-12-02").textContent).toContain("Needs attention");
    expect(screen.getByTestId("occurrence:4:2026-12-02").textContent).toContain("This course is not open on that day.");
    expect(screen.getByTestId("occurrence:4:2026-12-07").textContent).toContain("Not queued yet");
    expect(screen.getByTestId("occurrence:4:2026-12-07").textContent).toContain("Queues Nov 23, 2026 18:00");
  });

  test("Skip skips one date; End asks first, then ends the series; the list reloads when told", async () => {
    renderPages("/bookings");
    const socket = openSocket();
    const date = await screen.findByTestId("occurrence:4:2026-12-07");
    series = [{ ...weekly, next: weekly.next.map((o) => (o.date === "2026-12-07" ? { ...o, state: "skipped" as const } : o)) }];
    fireEvent.click(within(date).getByRole("button", { name: "Skip" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/v1/my/series/4/occurrences/2026-12-07/skip")).toBe(true));
    expect(await screen.findByText("2026-12-07 skipped.")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("occurrence:4:2026-12-07").textContent).toContain("Skipped"));

    fireEvent.click(within(screen.getByTestId("series:4")).getByRole("button", { name: "End series" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("Dates not yet released are cancelled.");
    expect(calls.some((c) => c.url === "/v1/my/series/4/end")).toBe(false);
    series = [{ ...weekly, status: "ended", next: [] }];
    fireEvent.click(within(dialog).getByRole("button", { name: "End series" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/v1/my/series/4/end")).toBe(true));
    await waitFor(() => expect(screen.getByTestId("series:4").textContent).toContain("Ended"));

    series = [];
    act(() => socket.receive({ type: "status", status: "updated" }));
    expect(await screen.findByText("No standing requests.")).toBeTruthy();
  });

  test("a change of the member's requests (a date booked at its release) reloads the list; a change of others does not", async () => {
    renderPages("/bookings");
    const socket = openSocket();
    await screen.findByTestId("occurrence:4:2026-11-30");
    const loads = () => calls.filter((c) => c.method === "GET" && c.url === "/v1/my/series").length;
    const before = loads();
    act(() => socket.receive({ type: "status", status: "updated", changed: ["my.players"] }));
    series = [{ ...weekly, next: weekly.next.map((o) => (o.date === "2026-11-30" ? { ...o, state: "booked" as const, line: null } : o)) }];
    act(() => socket.receive({ type: "status", status: "updated", changed: ["my.requests", "my.bookings"] }));
    await waitFor(() => expect(screen.getByTestId("occurrence:4:2026-11-30").textContent).toContain("Booked"));
    expect(loads() - before).toBe(1);
  });

  test("a member without a standing request does not load the list again when their requests change", async () => {
    series = [];
    renderPages("/bookings");
    const socket = openSocket();
    expect(await screen.findByText("No standing requests.")).toBeTruthy();
    const loads = () => calls.filter((c) => c.method === "GET" && c.url === "/v1/my/series").length;
    const before = loads();
    // The handlers run within the act, and a reload would have asked by the time it settles.
    await act(async () => socket.receive({ type: "status", status: "updated", changed: ["my.requests", "my.bookings"] }));
    expect(loads() - before).toBe(0);
  });

  test("Change opens the series' own form and saves it; Change times gives one date its own times", async () => {
    renderPages("/bookings");
    const card = await screen.findByTestId("series:4");
    fireEvent.click(within(card).getByRole("button", { name: "Change" }));
    const dialog = await screen.findByRole("dialog", { name: "Change standing request" });
    expect((within(dialog).getByLabelText("Mon") as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText("Wed") as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText("Fri") as HTMLInputElement).checked).toBe(false);
    fireEvent.click(within(dialog).getByLabelText("Wed"));
    fireEvent.change(within(dialog).getByLabelText("Until (optional)"), { target: { value: "2027-03-01" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT" && c.url === "/v1/my/series/4")).toBe(true));
    const body = calls.find((c) => c.method === "PUT")!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      course: "masters",
      times: ["06:00", "06:08"],
      weekdays: [1],
      startDate: MONDAY,
      endDate: "2027-03-01",
      playerDetails: { players: weekly.players },
    });
    expect(await screen.findByText("Standing request changed; its dates not yet released follow it.")).toBeTruthy();

    fireEvent.click(within(screen.getByTestId("occurrence:4:2026-11-30")).getByRole("button", { name: "Change times" }));
    const times = await screen.findByRole("dialog", { name: "Times for 2026-11-30" });
    fireEvent.change(within(times).getByLabelText("Times in order (HH:MM, comma-separated)"), { target: { value: "06:16, 06:24" } });
    fireEvent.click(within(times).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.some((c) => c.url === "/v1/my/series/4/occurrences/2026-11-30/change")).toBe(true));
    expect(calls.find((c) => c.url.endsWith("/change"))!.body).toEqual({ times: ["06:16", "06:24"] });
    expect(await screen.findByText("2026-11-30 changed.")).toBeTruthy();
  });

  test("Change keeps 'send only if every partner has accepted' as the series has it, or as the member changes the box", async () => {
    series = [{ ...weekly, partnersMustAccept: true }];
    renderPages("/bookings");
    fireEvent.click(within(await screen.findByTestId("series:4")).getByRole("button", { name: "Change" }));
    const dialog = await screen.findByRole("dialog", { name: "Change standing request" });
    const option = within(dialog).getByLabelText("Send only if every partner has accepted by the readiness check") as HTMLInputElement;
    expect(option.checked).toBe(true);
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")!.body).toMatchObject({ partnersMustAccept: true });

    fireEvent.click(within(await screen.findByTestId("series:4")).getByRole("button", { name: "Change" }));
    const again = await screen.findByRole("dialog", { name: "Change standing request" });
    fireEvent.click(within(again).getByLabelText("Send only if every partner has accepted by the readiness check"));
    fireEvent.click(within(again).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(2));
    expect(calls.filter((c) => c.method === "PUT")[1].body).toMatchObject({ partnersMustAccept: false });
  });

  test("a pending request that asks every partner to accept repeats with it", async () => {
    setLiveData({
      requests: [
        { ...pendingRequest, players: [{ name: "Reyes", type: "Member", memberId: "SW-1002", cart: "Walking", fee: "Charge to their account" }], partnersMustAccept: true },
      ],
    });
    const dialog = await openRepeatDialog();
    expect((within(dialog).getByLabelText("Send only if every partner has accepted by the readiness check") as HTMLInputElement).checked).toBe(true);
    expect(await setStandingRequest(dialog)).toMatchObject({ partnersMustAccept: true });
  });

  test("a pending request offers 'Repeat weekly' with its date, course, times and players", async () => {
    const dialog = await openRepeatDialog();
    expect((within(dialog).getByLabelText("Sat") as HTMLInputElement).checked).toBe(true);
    const body = await setStandingRequest(dialog);
    expect(body).toMatchObject({ course: "masters", times: ["07:04", "07:12"], weekdays: [6], startDate: "2026-12-05", endDate: null });
    expect((body.playerDetails as { players: { lastName?: string }[] }).players[0]).toMatchObject({ type: "Guest" });
  });
});

describe("repeat weekly from the Book page", () => {
  test("offered once a time is chosen; the weekdays, dates, skips and the chosen times go to the server", async () => {
    renderPages("/book");
    act(() => {
      useBookStore.getState().chooseDate(MONDAY);
      useBookStore.getState().chooseCourse("masters");
    });
    expect(screen.queryByRole("button", { name: "Repeat weekly" })).toBeNull();
    act(() => {
      useBookStore.getState().toggleSlot({ time: "06:16", slotId: null });
      useBookStore.getState().toggleSlot({ time: "06:08", slotId: null });
    });
    fireEvent.click(await screen.findByRole("button", { name: "Repeat weekly" }));
    const dialog = await screen.findByRole("dialog");
    expect((within(dialog).getByLabelText("Mon") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByLabelText("Wed"));
    fireEvent.change(within(dialog).getByLabelText("Until (optional)"), { target: { value: "2027-02-22" } });
    fireEvent.change(within(dialog).getByLabelText("Dates to skip (comma-separated, YYYY-MM-DD)"), { target: { value: "2026-12-28, 2027-01-04" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Set standing request" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url === "/v1/my/series")).toBe(true));
    const body = calls.find((c) => c.method === "POST" && c.url === "/v1/my/series")!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      course: "masters",
      times: ["06:16", "06:08"],
      fromTime: null,
      toTime: null,
      anyCourse: false,
      weekdays: [1, 3],
      startDate: MONDAY,
      endDate: "2027-02-22",
      skipDates: ["2026-12-28", "2027-01-04"],
      playerDetails: { players: [] },
    });
    expect(body).not.toHaveProperty("selectionOrder");
    expect(await screen.findByText("Standing request set: Mon, Wed from 2026-11-23.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  test("a range and any course; a refusal keeps the dialog open with the server's keyed message", async () => {
    createAnswer = jsonResponse({ message: "The last date 2026-11-01 is before the first date 2026-11-23.", errorKey: "series.error.end_before_start" }, 400);
    renderPages("/book");
    act(() => {
      useBookStore.getState().chooseDate(MONDAY);
      useBookStore.getState().chooseCourse("masters");
      useBookStore.getState().toggleSlot({ time: "06:16", slotId: null });
    });
    fireEvent.click(await screen.findByRole("button", { name: "Repeat weekly" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByLabelText("Any course"));
    fireEvent.click(within(dialog).getByLabelText("Any time in a range"));
    fireEvent.change(within(dialog).getByLabelText("To"), { target: { value: "07:00" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Set standing request" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("The last date 2026-11-01 is before the first date 2026-11-23.");
    const body = calls.find((c) => c.method === "POST" && c.url === "/v1/my/series")!.body as Record<string, unknown>;
    expect(body).toMatchObject({ anyCourse: true, times: [], fromTime: "06:16", toTime: "07:00" });
    expect(screen.getByRole("dialog")).toBeTruthy();
  });
});
