import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useBookStore } from "../../web/features/book/book-store.ts";
import { failedRequest, heldBooking, openSocket, pendingRequest, renderScreens, resetBookTest, sentActions, serveApi, setLiveData, setViewportWidth } from "./book-fixtures.tsx";
import { jsonResponse, type RecordedCall } from "./support/fetch-mock.ts";

let calls: RecordedCall[] = [];

beforeEach(() => {
  calls = serveApi((call) => {
    if (call.method === "POST" && call.url.startsWith("/v1/bookings/")) return jsonResponse({ booking: heldBooking });
    return undefined;
  });
  setLiveData({ requests: [failedRequest, pendingRequest] });
});

afterEach(resetBookTest);

const button = (name: string | RegExp, within_: HTMLElement = document.body) => within(within_).getByRole("button", { name }) as HTMLButtonElement;
const tableOf = (title: string) => screen.getByRole("heading", { name: title }).parentElement!.querySelector("table")!;
const rowOf = (key: string) => screen.getByTestId(key);
const cells = (row: HTMLElement) => [...row.querySelectorAll("td")].slice(1, 5).map((td) => td.textContent);

describe("desktop tables", () => {
  test("confirmed bookings and pending requests with the product's columns", () => {
    renderScreens("/bookings");
    for (const title of ["Confirmed Bookings", "Pending Requests"]) {
      const headers = [...tableOf(title).querySelectorAll("th")].slice(1).map((th) => th.textContent);
      expect(headers).toEqual(["Play Date", "Course", "Tee Time(s)", "Status / Submitted", "Actions"]);
    }
    expect(cells(rowOf("booking:SW-B-1"))).toEqual(["Nov 23, 2026", "Masters", "06:16", "ConfirmedBooked Nov 21, 2026"]);
  });

  test("a pending request shows when it is released; any other request shows its status", () => {
    renderScreens("/bookings");
    const rows = [...tableOf("Pending Requests").querySelectorAll("tbody tr")].map((r) => r.getAttribute("data-testid"));
    // Ordered by play date: the failed Tuesday request first.
    expect(rows).toEqual(["request:6", "request:5"]);
    expect(cells(rowOf("request:5"))).toEqual(["Dec 5, 2026", "Masters", "07:04", "Releases Nov 28, 2026 07:00Submitted Nov 22, 2026"]);
    expect(cells(rowOf("request:6"))[3]).toStartWith("Failed");
  });

  test("a processing request shows what the club's trouble means for it; one Teebox could not settle needs attention", () => {
    const processing = { ...pendingRequest, status: "Processing", release_at: null };
    setLiveData({
      requests: [
        { ...processing, id: 11, phase: "waiting_for_club" },
        { ...processing, id: 12, phase: "checking_with_club" },
        { ...processing, id: 13, phase: null },
        { ...pendingRequest, id: 14, status: "Needs attention", release_at: null, failureReason: "Teebox could not tell whether the club booked 2026-12-05." },
      ],
    });
    renderScreens("/bookings");
    expect(cells(rowOf("request:11"))[3]).toStartWith("Waiting for the club");
    expect(cells(rowOf("request:12"))[3]).toStartWith("Checking with the club");
    expect(cells(rowOf("request:13"))[3]).toStartWith("Processing");
    expect(cells(rowOf("request:14"))[3]).toStartWith("Needs attention");
    // While the club is being waited for, the request cannot be edited or cancelled.
    expect(button("Edit", rowOf("request:11")).disabled).toBe(true);
    expect(button("Cancel", rowOf("request:14")).disabled).toBe(false);
  });

  test("rows expand to the players and, for requests, what the release engine did", () => {
    renderScreens("/bookings");
    fireEvent.click(button("Show details", rowOf("booking:SW-B-1")));
    const bookingDetails = rowOf("booking:SW-B-1").nextElementSibling as HTMLElement;
    expect(bookingDetails.textContent).toContain("Juan Dela Cruz");
    expect(bookingDetails.textContent).toContain("Maria Santos");

    fireEvent.click(button("Show details", rowOf("request:6")));
    const log = rowOf("request:6").nextElementSibling as HTMLElement;
    const attempts = [...log.querySelectorAll(".attempt")].map((a) => a.textContent);
    expect(attempts[0]).toContain("08:00");
    expect(attempts[0]).toContain("3 ms after release");
    expect(attempts[0]).toContain("taken by someone else");
    expect(attempts[0]).not.toContain("slot_taken");
    expect(attempts[0]).toContain("This tee time has just been taken.");
    expect(attempts[1]).toContain("130 ms after release");
    expect(log.textContent).toContain("Times in order of preference: 08:00, 08:08");
    expect(log.textContent).toContain("Reason: No selected time was available");

    fireEvent.click(button("Hide details", rowOf("request:6")));
    expect(rowOf("request:6").nextElementSibling?.getAttribute("data-testid")).toBe("request:5");
  });

  test("dates read the same in any browser zone, from both date formats", () => {
    setLiveData({
      bookings: [
        { ...heldBooking, date: "2026-11-23" },
        { ...heldBooking, bookingId: "SW-B-2", date: "Tuesday Nov 24, 2026", time: "7:00 AM" },
      ],
    });
    renderScreens("/bookings");
    expect(cells(rowOf("booking:SW-B-1")).slice(0, 3)).toEqual(["Nov 23, 2026", "Masters", "06:16"]);
    expect(cells(rowOf("booking:SW-B-2")).slice(0, 3)).toEqual(["Nov 24, 2026", "Masters", "07:00"]);
  });
});

describe("cancel", () => {
  test("asks first, then cancels a confirmed booking through the socket", () => {
    const socket = openSocket();
    renderScreens("/bookings");
    fireEvent.click(button("Cancel", rowOf("booking:SW-B-1")));
    const dialog = screen.getByRole("dialog", { name: "Cancel this booking?" });
    expect(dialog.textContent).toContain("Nov 23, 2026 at 06:16 (Masters)");
    fireEvent.click(button("Keep it", dialog));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(sentActions(socket)).toEqual([]);

    fireEvent.click(button("Cancel", rowOf("booking:SW-B-1")));
    fireEvent.click(button("Yes, cancel", screen.getByRole("dialog")));
    expect(sentActions(socket).map(({ action, payload }) => ({ action, payload }))).toEqual([{ action: "CANCEL_CONFIRMED_BOOKING", payload: { bookingId: "SW-B-1" } }]);
    expect(button(/Cancelling/, rowOf("booking:SW-B-1")).disabled).toBe(true);

    // Refused by the server: the row can be used again (the error itself is the app's toast).
    act(() => socket.receive({ type: "error", message: "The club did not answer." }));
    expect(button("Cancel", rowOf("booking:SW-B-1")).disabled).toBe(false);
  });

  test("cancels a pending request by its id", () => {
    const socket = openSocket();
    renderScreens("/bookings");
    fireEvent.click(button("Cancel", rowOf("request:5")));
    const dialog = screen.getByRole("dialog", { name: "Cancel this request?" });
    fireEvent.click(button("Yes, cancel", dialog));
    expect(sentActions(socket).map(({ action, payload }) => ({ action, payload }))).toEqual([{ action: "CANCEL_REQUEST", payload: { id: 5 } }]);
  });
});

describe("mobile", () => {
  test("rows are cards with the same content and actions", () => {
    setViewportWidth(390);
    renderScreens("/bookings");
    expect(document.querySelector("table")).toBeNull();
    const card = rowOf("request:5");
    expect(card.tagName).toBe("LI");
    expect(card.textContent).toContain("Dec 5, 2026 · 07:04");
    expect(card.textContent).toContain("Releases Nov 28, 2026 07:00");
    fireEvent.click(button("Show details", card));
    expect(card.textContent).toContain("Pedro Guest");
    expect(button("Edit", card)).toBeTruthy();
    expect(button("Cancel", card)).toBeTruthy();
  });
});

describe("edit", () => {
  test("a pending request opens the wizard at step 4 and is re-submitted as its replacement", async () => {
    setViewportWidth(390);
    const socket = openSocket();
    const { router } = renderScreens("/bookings");
    fireEvent.click(button("Edit", rowOf("request:5")));
    await waitFor(() => expect(router.state.location.pathname).toBe("/book"));
    await waitFor(() => expect(useBookStore.getState().step).toBe(4));
    expect(router.state.location.search).toBe("");
    expect(screen.getByRole("status").textContent).toContain("Editing your pending request for Dec 5, 2026.");
    expect(screen.getByRole("listitem", { name: "Player 2" }).textContent).toContain("Pedro Guest");
    expect(useBookStore.getState()).toMatchObject({ date: "2026-12-05", course: "masters", selection: [{ time: "07:04" }, { time: "07:12" }] });

    fireEvent.click(button("Remove", screen.getByRole("listitem", { name: "Player 2" })));
    fireEvent.click(button("Add Maria Santos"));
    fireEvent.click(button("Next"));
    fireEvent.click(button("Save changes"));
    const sent = sentActions(socket).find((m) => m.action === "SUBMIT_BOOKING_REQUEST");
    expect(sent?.payload).toMatchObject({
      editTarget: 5,
      targetDate: "2026-12-05",
      selectionOrder: [{ time: "07:04" }, { time: "07:12" }],
      playerDetails: { players: [{ type: "Member", firstName: "Maria", searchLastName: "Santos", searchIdNumber: "SW-1001" }] },
    });
    act(() =>
      socket.receive({
        type: "submissionResult",
        status: "pending",
        details: { play_date: "2026-12-05", course: "masters", time: "07:04", releaseAt: pendingRequest.release_at },
        requestId: sent?.requestId,
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/bookings"));
    expect(useBookStore.getState().editTarget).toBeNull();
  });

  test("a confirmed booking is edited through POST /v1/bookings/{id}/edit", async () => {
    const { router } = renderScreens("/bookings");
    fireEvent.click(button("Edit", rowOf("booking:SW-B-1")));
    await waitFor(() => expect(useBookStore.getState().editTarget).toMatchObject({ kind: "booking", bookingId: "SW-B-1" }));
    // Its own time stays choosable and chosen, though the club lists it as taken by this member.
    const own = document.querySelector<HTMLButtonElement>('[data-time="06:16"]')!;
    expect(own.disabled).toBe(false);
    expect(own.getAttribute("aria-pressed")).toBe("true");
    // Maria is a saved player: she comes back locked with her own cart.
    const maria = screen.getByRole("listitem", { name: "Player 2" });
    expect(maria.textContent).toContain("Own Cart");

    fireEvent.click(button("Add Pedro Guest"));
    fireEvent.click(button("Save changes"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/bookings"));
    const edit = calls.find((c) => c.method === "POST" && c.url.startsWith("/v1/bookings/"));
    expect(edit?.url).toBe("/v1/bookings/SW-B-1/edit");
    expect(edit?.body).toMatchObject({
      course: "masters",
      targetDate: "2026-11-23",
      selectionOrder: [{ time: "06:16", slotId: "m-0616" }],
      playerDetails: {
        players: [
          { searchLastName: "Santos", searchIdNumber: "SW-1001" },
          { type: "Guest", firstName: "Pedro", lastName: "Guest" },
        ],
      },
    });
    expect(edit).toBeDefined();
    expect((edit?.body as Record<string, unknown> | undefined)?.editTarget).toBeUndefined();
    expect(await screen.findByText("Booking updated.")).toBeTruthy();
  });

  test("an edit link for an item that is not listed says so", async () => {
    renderScreens("/book?edit=request:99");
    expect(await screen.findByText("That booking or request is no longer listed.")).toBeTruthy();
    expect(useBookStore.getState().step).toBe(1);
  });
});
