import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useBookStore } from "../../web/features/book/book-store.ts";
import { MONDAY, openSocket, renderScreens, resetBookTest, SATURDAY, sentActions, serveApi, setLiveData, setViewportWidth, SUNDAY, TUESDAY } from "./book-fixtures.tsx";

beforeEach(() => {
  serveApi();
  setLiveData();
});

afterEach(resetBookTest);

const button = (name: string | RegExp) => screen.getByRole("button", { name }) as HTMLButtonElement;
const nextButton = () => button("Next");
const dateButton = (date: string) => document.querySelector<HTMLButtonElement>(`[data-date="${date}"]`)!;
const slotButton = (time: string) => document.querySelector<HTMLButtonElement>(`[data-time="${time}"]`)!;
const stepTitle = () => screen.getAllByRole("heading", { level: 2 })[0].textContent;

/** Mobile wizard: Monday, Next, Masters, Next — the time step is on screen. */
function walkToTimeStep() {
  fireEvent.click(dateButton(MONDAY));
  fireEvent.click(nextButton());
  fireEvent.click(button(/^Masters/));
  fireEvent.click(nextButton());
}

function chooseMondayMasters() {
  fireEvent.click(dateButton(MONDAY));
  fireEvent.click(button(/^Masters/));
}

describe("mobile wizard steps", () => {
  beforeEach(() => setViewportWidth(390));

  test("Next waits for a date, then a course, then at least one time", () => {
    renderScreens("/book");
    expect(stepTitle()).toBe("Choose a date");
    expect(nextButton().disabled).toBe(true);
    fireEvent.click(dateButton(MONDAY));
    expect(nextButton().disabled).toBe(false);
    fireEvent.click(nextButton());

    expect(stepTitle()).toBe("Choose a course");
    expect(nextButton().disabled).toBe(true);
    fireEvent.click(button(/^Masters/));
    fireEvent.click(nextButton());

    expect(stepTitle()).toBe("Choose your tee times");
    expect(nextButton().disabled).toBe(true);
    fireEvent.click(slotButton("06:00"));
    expect(nextButton().disabled).toBe(false);
    fireEvent.click(nextButton());
    expect(stepTitle()).toBe("Players");
  });

  test("steps can be clicked back but never forward past the current one", () => {
    renderScreens("/book");
    const steps = () => within(screen.getByRole("navigation", { name: "Booking steps" })).getAllByRole("button") as HTMLButtonElement[];
    expect(steps().map((b) => b.hasAttribute("disabled"))).toEqual([false, true, true, true, true]);
    walkToTimeStep();
    expect(steps().map((b) => b.hasAttribute("disabled"))).toEqual([false, false, false, true, true]);
    fireEvent.click(steps()[4]);
    expect(stepTitle()).toBe("Choose your tee times");

    fireEvent.click(steps()[0]);
    expect(stepTitle()).toBe("Choose a date");
    expect(steps()[0].getAttribute("aria-current")).toBe("step");
    expect(steps()[1].disabled).toBe(true);
    fireEvent.click(nextButton());
    expect(stepTitle()).toBe("Choose a course");
    fireEvent.click(button("Back"));
    expect(stepTitle()).toBe("Choose a date");
  });

  test("a new date or course clears the chosen times", () => {
    renderScreens("/book");
    walkToTimeStep();
    fireEvent.click(slotButton("06:00"));
    expect(useBookStore.getState().selection).toHaveLength(1);

    fireEvent.click(screen.getByRole("button", { name: /1\s*Date/ }));
    fireEvent.click(dateButton(TUESDAY));
    expect(useBookStore.getState().selection).toEqual([]);
    fireEvent.click(nextButton());
    fireEvent.click(nextButton());
    fireEvent.click(slotButton("07:00"));
    fireEvent.click(screen.getByRole("button", { name: /2\s*Course/ }));
    fireEvent.click(button(/^Legends/));
    expect(useBookStore.getState().selection).toEqual([]);
  });

  test("the course step disables a course that does not run on the weekday", () => {
    renderScreens("/book");
    fireEvent.click(dateButton(MONDAY));
    fireEvent.click(nextButton());
    expect(button(/^Legends/).disabled).toBe(true);
    expect(button(/^Legends/).textContent).toContain("Not open on Monday");
    expect(button(/^Masters/).disabled).toBe(false);
  });

  test("a course that does not run on a newly chosen date is unchosen", () => {
    renderScreens("/book");
    fireEvent.click(dateButton(MONDAY));
    fireEvent.click(nextButton());
    fireEvent.click(button(/^Masters/));
    fireEvent.click(screen.getByRole("button", { name: /1\s*Date/ }));
    fireEvent.click(dateButton(SUNDAY));
    expect(useBookStore.getState().course).toBeNull();
  });

  test("review shows date, course, first time and 'n of' the applicable maximum", () => {
    renderScreens("/book");
    walkToTimeStep();
    fireEvent.click(slotButton("12:00"));
    fireEvent.click(slotButton("12:08"));
    fireEvent.click(nextButton());
    fireEvent.click(button("Add Maria Santos"));
    fireEvent.click(nextButton());

    expect(stepTitle()).toBe("Review");
    expect(screen.getByTestId("review-date").textContent).toBe("Monday Nov 23, 2026");
    expect(screen.getByTestId("review-course").textContent).toBe("Masters");
    expect(screen.getByTestId("review-time").textContent).toBe("12:00");
    expect(screen.getByTestId("review-other-times").textContent).toBe("12:08");
    // No rule covers Monday afternoons: the defaults, four players.
    expect(screen.getByTestId("review-players").textContent).toBe("2 of 4");
    expect(button("Submit request").disabled).toBe(false);
  });

  test("review counts against the rule of the first time", () => {
    renderScreens("/book");
    walkToTimeStep();
    fireEvent.click(slotButton("06:00"));
    fireEvent.click(nextButton());
    fireEvent.click(nextButton());
    expect(screen.getByTestId("review-players").textContent).toBe("1 of 3");
  });
});

describe("date and time pickers", () => {
  test("dates are grouped as live availability and estimated tee times", () => {
    renderScreens("/book");
    const live = screen.getByRole("group", { name: "Live Availability" });
    const estimated = screen.getByRole("group", { name: "Estimated Tee Times" });
    expect([...live.querySelectorAll("[data-date]")].map((b) => b.getAttribute("data-date"))).toEqual([MONDAY, TUESDAY]);
    expect([...estimated.querySelectorAll("[data-date]")].map((b) => b.getAttribute("data-date"))).toEqual([SATURDAY, SUNDAY]);
  });

  test("chosen times are numbered in click order and a second click removes one", () => {
    renderScreens("/book");
    chooseMondayMasters();
    fireEvent.click(slotButton("12:00"));
    fireEvent.click(slotButton("06:00"));
    fireEvent.click(slotButton("06:24"));
    expect(slotButton("12:00").textContent).toBe("12:00 1");
    expect(slotButton("06:00").textContent).toBe("06:00 2");
    expect(slotButton("06:24").textContent).toBe("06:24 3");

    fireEvent.click(slotButton("06:00"));
    expect(slotButton("06:00").getAttribute("aria-pressed")).toBe("false");
    expect(slotButton("12:00").textContent).toBe("12:00 1");
    expect(slotButton("06:24").textContent).toBe("06:24 2");
    expect(useBookStore.getState().selection).toEqual([
      { time: "12:00", slotId: "m-1200" },
      { time: "06:24", slotId: "m-0624" },
    ]);
  });

  test("taken slots and slots the member already holds are disabled and struck through", () => {
    renderScreens("/book");
    chooseMondayMasters();
    expect(slotButton("06:08").disabled).toBe(true);
    expect(slotButton("06:08").className).toContain("is-unavailable");
    expect(slotButton("06:16").disabled).toBe(true);
    expect(slotButton("06:16").getAttribute("title")).toBe("You already hold this time");
    expect(slotButton("06:00").disabled).toBe(false);
    fireEvent.click(slotButton("06:08"));
    expect(useBookStore.getState().selection).toEqual([]);
  });

  test("morning and afternoon groups collapse", () => {
    renderScreens("/book");
    chooseMondayMasters();
    const afternoon = button("Afternoon");
    expect(afternoon.getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(afternoon);
    expect(slotButton("12:00")).toBeNull();
    expect(slotButton("06:00")).not.toBeNull();
    expect(afternoon.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(afternoon);
    expect(slotButton("12:00")).not.toBeNull();
  });

  test("live tee times show no estimate warning; generated ones do", () => {
    renderScreens("/book");
    chooseMondayMasters();
    expect(screen.queryByText(/These tee times are estimated/)).toBeNull();
    fireEvent.click(dateButton(SATURDAY));
    fireEvent.click(button(/^Masters/));
    expect(screen.getByText(/These tee times are estimated/)).toBeTruthy();
    // Saturday on Masters: the SATURDAY_MASTERS window 06:00–07:52, every 8 minutes.
    const times = [...document.querySelectorAll("[data-time]")].map((b) => b.getAttribute("data-time"));
    expect(times[0]).toBe("06:00");
    expect(times.at(-1)).toBe("07:52");
    expect(times).toHaveLength(15);
  });
});

describe("submit", () => {
  test("sends SUBMIT_BOOKING_REQUEST, shows the result dialog and starts over at step 1", async () => {
    setViewportWidth(390);
    const socket = openSocket();
    renderScreens("/book");
    walkToTimeStep();
    fireEvent.click(slotButton("06:24"));
    fireEvent.click(slotButton("06:00"));
    fireEvent.click(nextButton());
    fireEvent.click(button("Add Pedro Guest"));
    fireEvent.click(nextButton());
    fireEvent.click(button("Submit request"));

    const sent = sentActions(socket).filter((m) => m.action === "SUBMIT_BOOKING_REQUEST");
    expect(sent).toHaveLength(1);
    expect(sent[0].payload).toEqual({
      course: "masters",
      targetDate: MONDAY,
      selectionOrder: [
        { time: "06:24", slotId: "m-0624" },
        { time: "06:00", slotId: "m-0600" },
      ],
      memberCartType: "Rental Cart - Solo",
      playerDetails: {
        players: [{ type: "Guest", cartType: { Walking: true }, chargeFeesTo: { "Charge my guest": true }, firstName: "Pedro", lastName: "Guest" }],
      },
    });

    act(() =>
      socket.receive({
        type: "submissionResult",
        status: "submitted",
        details: { play_date: MONDAY, course: "masters", time: "06:24", releaseAt: null },
        requestId: sent[0].requestId,
      }),
    );
    expect(await screen.findByRole("dialog", { name: "Request Submitted" })).toBeTruthy();
    await waitFor(() => expect(useBookStore.getState().step).toBe(1));
    expect(useBookStore.getState().date).toBeNull();
    expect(stepTitle()).toBe("Choose a date");
  });

  test("anything missing answers 'Please complete all required fields.' and sends nothing", () => {
    const socket = openSocket();
    renderScreens("/book");
    chooseMondayMasters();
    fireEvent.click(slotButton("06:00"));
    // The Monday morning rule needs two players; only the member is listed.
    fireEvent.click(button("Submit request"));
    const error = screen.getAllByRole("alert").map((e) => e.textContent);
    expect(error).toContain("Please complete all required fields.");
    expect(sentActions(socket).filter((m) => m.action === "SUBMIT_BOOKING_REQUEST")).toHaveLength(0);
  });

  test("a refusal shows the keyed text, else 'Failed to submit booking.'", async () => {
    const socket = openSocket();
    renderScreens("/book");
    chooseMondayMasters();
    fireEvent.click(slotButton("12:00"));

    fireEvent.click(button("Submit request"));
    act(() => socket.receive({ type: "error", message: "Maximum of 1 guest(s) allowed.", errorKey: "booking.max_guests", requestId: sentActions(socket).at(-1)?.requestId }));
    await waitFor(() => expect(document.querySelector(".submit-bar__error")?.textContent).toBe("Maximum of 1 guest(s) allowed."));

    fireEvent.click(button("Submit request"));
    act(() => socket.receive({ type: "error", message: "The club did not answer.", errorKey: "club.unavailable", requestId: sentActions(socket).at(-1)?.requestId }));
    await waitFor(() => expect(document.querySelector(".submit-bar__error")?.textContent).toBe("Failed to submit booking."));
    // Nothing was booked: the choices stay for another try.
    expect(useBookStore.getState().selection).toHaveLength(1);
  });

  test("an answer to another request is not taken for ours", async () => {
    const socket = openSocket();
    renderScreens("/book");
    chooseMondayMasters();
    fireEvent.click(slotButton("12:00"));
    fireEvent.click(button("Submit request"));
    act(() => socket.receive({ type: "error", message: "Request not found.", errorKey: "x", requestId: "someone-else" }));
    expect(button(/Submitting/).disabled).toBe(true);
    act(() =>
      socket.receive({
        type: "submissionResult",
        status: "pending",
        details: { play_date: MONDAY, course: "masters", time: "12:00", releaseAt: 1 },
        requestId: sentActions(socket).at(-1)?.requestId,
      }),
    );
    await waitFor(() => expect(useBookStore.getState().step).toBe(1));
  });

  test("with the socket down the member is told, and nothing is lost", async () => {
    renderScreens("/book");
    chooseMondayMasters();
    fireEvent.click(slotButton("12:00"));
    fireEvent.click(button("Submit request"));
    await waitFor(() => expect(document.querySelector(".submit-bar__error")?.textContent).toBe("Not connected to the server. Please wait a moment and try again."));
    expect(useBookStore.getState().selection).toHaveLength(1);
  });
});

describe("the slot grid from the keyboard", () => {
  const tabbableSlots = () => [...document.querySelectorAll<HTMLButtonElement>(".slot")].filter((b) => b.tabIndex === 0).map((b) => b.dataset.time);
  const key = (k: string) => fireEvent.keyDown(document.activeElement!, { key: k });
  const focusedTime = () => (document.activeElement as HTMLElement | null)?.dataset.time;

  test("each group of times is one tab stop; the arrow keys move between usable times, skipping taken ones", () => {
    renderScreens("/book");
    chooseMondayMasters();
    // Morning and afternoon: one time each takes the tab stop, the first usable one.
    expect(tabbableSlots()).toEqual(["06:00", "12:00"]);
    slotButton("06:00").focus();
    key("ArrowRight");
    // 06:08 is booked and 06:16 the member's own booking: both skipped.
    expect(focusedTime()).toBe("06:24");
    key("ArrowRight");
    expect(focusedTime()).toBe("06:24");
    key("Home");
    expect(focusedTime()).toBe("06:00");
    key("ArrowLeft");
    expect(focusedTime()).toBe("06:00");
    // The time last moved to keeps the tab stop; choosing it is a click (Space or Enter on a button).
    key("ArrowRight");
    fireEvent.click(document.activeElement!);
    expect(useBookStore.getState().selection.map((s) => s.time)).toEqual(["06:24"]);
    expect(tabbableSlots()).toEqual(["06:24", "12:00"]);
    key("End");
    key("Home");
    expect(focusedTime()).toBe("06:00");
    // The grid tells a screen reader how to move in it.
    const grid = screen.getByRole("group", { name: "Morning" });
    expect(document.getElementById(grid.getAttribute("aria-describedby")!)?.textContent).toBe("Use the arrow keys to move between the times; Space chooses one.");
  });
});
