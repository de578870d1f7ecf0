import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import type { RequestStory } from "../../src/features/bookings/bookings-responses.schemas.ts";
import { useTextStore } from "../../web/lib/text-store.ts";
import { failedRequest, heldBooking, pendingRequest, renderScreens, resetBookTest, serveApi, setLiveData } from "./book-fixtures.tsx";
import { jsonResponse, type RecordedCall } from "./support/fetch-mock.ts";

const RELEASE = manilaInstant("2026-11-16", "07:00");

const bookedStory: RequestStory = {
  request: {
    id: 41,
    course: "masters",
    playDate: "2026-11-23",
    status: "confirmed",
    releaseAt: RELEASE,
    times: ["06:08", "06:16"],
    bookingRef: "SW-B-1",
    reasonKey: null,
    reasonContext: null,
    reason: null,
  },
  clock: { offsetMs: 1300, uncertaintyMs: 12 },
  attempts: [
    {
      time: "06:08",
      leftAtMs: 0,
      outcome: "slot_taken",
      answerKey: "bookings.reason.club_refused",
      answerContext: { message: "This tee time has just been taken." },
      answer: "This tee time has just been taken.",
      durationMs: 40,
      sheetAfter: { status: "BOOKED", readAt: RELEASE + 120_000 },
    },
    {
      time: "06:16",
      leftAtMs: 47,
      outcome: "confirmed",
      answerKey: "bookings.reason.booked",
      answerContext: { ref: "SW-B-1" },
      answer: "Booked, reference SW-B-1.",
      durationMs: 35,
      sheetAfter: null,
    },
  ],
};

let calls: RecordedCall[] = [];
let storyAnswer: (url: string) => Response = () => jsonResponse(bookedStory);

beforeEach(() => {
  storyAnswer = () => jsonResponse(bookedStory);
  calls = serveApi((call) => (call.url.includes("/story") ? storyAnswer(call.url) : undefined));
  setLiveData({ bookings: [heldBooking], requests: [failedRequest, pendingRequest] });
});

afterEach(() => {
  useTextStore.setState({ overrides: {} });
  resetBookTest();
});

const rowOf = (key: string) => screen.getByTestId(key);
const dialog = () => screen.getByRole("dialog");

describe("the story of a request", () => {
  test("'How this was booked' on a booking lists each attempt: time, when it left, the answer and the sheet after, with the clock", async () => {
    renderScreens("/bookings");
    fireEvent.click(within(rowOf("booking:SW-B-1")).getByRole("button", { name: "How this was booked" }));
    expect(within(dialog()).getByRole("heading", { name: "How this was booked" })).toBeTruthy();
    await waitFor(() => expect(dialog().querySelectorAll(".story__attempt")).toHaveLength(2));
    expect(calls.filter((c) => c.url.includes("/story")).map((c) => c.url)).toEqual(["/v1/my/bookings/SW-B-1/story"]);
    const rows = [...dialog().querySelectorAll(".story__attempt")].map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent));
    expect(rows).toEqual([
      ["06:08", "at the release instant", "This tee time has just been taken.", "BOOKED (read Nov 16, 2026 07:02)"],
      ["06:16", "47 ms after the release", "Booked, reference SW-B-1.", "The club has shown nothing since"],
    ]);
    expect(screen.getByTestId("story-clock").textContent).toBe("The club's clock ran 1300 ms ahead of ours (measured to ±12 ms).");
    expect(dialog().textContent).toContain("Released Nov 16, 2026 07:00");
  });

  test("answers are rendered from their keys through the editable UI text", async () => {
    useTextStore.setState({ overrides: { "bookings.reason.booked": "Yours: {ref}" } });
    renderScreens("/bookings");
    fireEvent.click(within(rowOf("booking:SW-B-1")).getByRole("button", { name: "How this was booked" }));
    await waitFor(() => expect(dialog().querySelectorAll(".story__attempt")).toHaveLength(2));
    expect(dialog().querySelectorAll(".story__attempt")[1].textContent).toContain("Yours: SW-B-1");
  });

  test("focus stays inside the dialog and Escape closes it, giving focus back", async () => {
    renderScreens("/bookings");
    const opener = within(rowOf("booking:SW-B-1")).getByRole("button", { name: "How this was booked" });
    opener.focus();
    fireEvent.click(opener);
    await waitFor(() => expect(dialog().querySelectorAll(".story__attempt")).toHaveLength(2));
    expect(dialog().contains(document.activeElement)).toBe(true);
    const close = within(dialog()).getByRole("button", { name: "Close" });
    close.focus();
    fireEvent.keyDown(document, { key: "Tab" });
    expect(dialog().contains(document.activeElement)).toBe(true);
    act(() => {
      fireEvent.keyDown(document, { key: "Escape" });
    });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  test("'What was tried' on a request: unmeasured clock, nothing on the sheet, the reason; a failed load says so", async () => {
    storyAnswer = () =>
      jsonResponse({
        ...bookedStory,
        request: {
          ...bookedStory.request!,
          id: failedRequest.id,
          status: "failed",
          bookingRef: null,
          reasonKey: "bookings.reason.no_time_available",
          reasonContext: {},
          reason: "No selected time was available.",
        },
        clock: null,
        attempts: [{ ...bookedStory.attempts[0], sheetAfter: null }],
      });
    renderScreens("/bookings");
    fireEvent.click(within(rowOf(`request:${failedRequest.id}`)).getByRole("button", { name: "What was tried" }));
    await waitFor(() => expect(dialog().querySelectorAll(".story__attempt")).toHaveLength(1));
    expect(calls.some((c) => c.url === `/v1/my/requests/${failedRequest.id}/story`)).toBe(true);
    expect(screen.getByTestId("story-clock").textContent).toBe("Teebox could not read the club's clock for this release, so it went by its own.");
    expect(dialog().textContent).toContain("The club has shown nothing since");
    expect(dialog().textContent).toContain("Outcome: No selected time was available.");
    fireEvent.click(within(dialog()).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();

    storyAnswer = () => jsonResponse({ message: "That request was not found.", errorKey: "bookings.error.request_not_found" }, 404);
    fireEvent.click(within(rowOf(`request:${pendingRequest.id}`)).getByRole("button", { name: "What was tried" }));
    await waitFor(() => expect(within(dialog()).getByRole("alert").textContent).toBe("The story could not be loaded. Please try again."));
  });

  test("a booking made outside a release says there is nothing to show; a waiting request says when it goes out", async () => {
    storyAnswer = (url) =>
      url.includes("/bookings/")
        ? jsonResponse({ request: null, clock: null, attempts: [] })
        : jsonResponse({ request: { ...bookedStory.request!, id: pendingRequest.id, status: "pending", bookingRef: null }, clock: null, attempts: [] });
    renderScreens("/bookings");
    fireEvent.click(within(rowOf("booking:SW-B-1")).getByRole("button", { name: "How this was booked" }));
    await waitFor(() => expect(dialog().textContent).toContain("not made by Teebox at a release"));
    fireEvent.click(within(dialog()).getByRole("button", { name: "Close" }));
    fireEvent.click(within(rowOf(`request:${pendingRequest.id}`)).getByRole("button", { name: "What was tried" }));
    await waitFor(() => expect(dialog().textContent).toContain("Releases Nov 16, 2026 07:00 (Manila). Nothing has been sent to the club yet."));
    expect(screen.queryByTestId("story-clock")).toBeNull();
  });

  test("a booking a slot watch made tells the watch and each post it sent, with the answers in the UI text", async () => {
    const watchStory: RequestStory = {
      request: null,
      clock: null,
      attempts: [],
      watch: {
        id: 11,
        playDate: "2026-11-23",
        course: null,
        fromTime: "12:00",
        toTime: "12:30",
        createdAt: manilaInstant("2026-11-20", "09:15"),
        attempts: [
          {
            course: "legends",
            time: "12:00",
            sentAt: manilaInstant("2026-11-22", "08:01"),
            outcome: "slot_taken",
            answerKey: "bookings.reason.club_refused",
            answerContext: { message: "Already taken." },
            answer: "Already taken.",
          },
          {
            course: "legends",
            time: "12:04",
            sentAt: manilaInstant("2026-11-22", "08:02"),
            outcome: "confirmed",
            answerKey: "watches.reason.booked",
            answerContext: { course: "Legends", time: "12:04", ref: "SW-B-1" },
            answer: "Booked Legends at 12:04 (SW-B-1).",
          },
          { course: "legends", time: "12:08", sentAt: manilaInstant("2026-11-22", "08:03"), outcome: null, answerKey: null, answerContext: null, answer: null },
        ],
      },
    };
    storyAnswer = () => jsonResponse(watchStory);
    renderScreens("/bookings");
    fireEvent.click(within(rowOf("booking:SW-B-1")).getByRole("button", { name: "How this was booked" }));
    await waitFor(() => expect(dialog().querySelectorAll(".story__attempt")).toHaveLength(3));
    expect(dialog().textContent).not.toContain("not made by Teebox");
    expect(dialog().textContent).toContain("Booked by your slot watch for 2026-11-23, 12:00–12:30 on Any course");
    const rows = [...dialog().querySelectorAll(".story__attempt")].map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent));
    expect(rows).toEqual([
      ["12:00", "Legends", "Nov 22, 2026 08:01", "Already taken."],
      ["12:04", "Legends", "Nov 22, 2026 08:02", "Booked Legends at 12:04 (SW-B-1)."],
      ["12:08", "Legends", "Nov 22, 2026 08:03", "waiting for the club's answer"],
    ]);
  });

  test("a story answer of the wrong shape is not shown", async () => {
    storyAnswer = () => jsonResponse({ request: null, attempts: "none" });
    renderScreens("/bookings");
    fireEvent.click(within(rowOf("booking:SW-B-1")).getByRole("button", { name: "How this was booked" }));
    await waitFor(() => expect(within(dialog()).getByRole("alert")).toBeTruthy());
  });
});
