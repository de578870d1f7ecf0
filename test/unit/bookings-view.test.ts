import { describe, expect, test } from "bun:test";
import { attemptOutcomeKey } from "../../src/domain/attempt-outcomes.ts";
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { CLUB_ERROR_KINDS } from "../../src/club/errors.ts";
import { countUpcoming, findNextUp, type ConfirmedBookingView, type PendingRequestView } from "../../src/domain/bookings-view.ts";

const TODAY = "2025-03-05";
const booking = (over: Partial<ConfirmedBookingView>): ConfirmedBookingView => ({
  bookingId: "B1",
  course: "Masters",
  date: "2025-03-06",
  time: "07:04",
  createdAt: 0,
  playersInfo: [],
  ...over,
});
const request = (over: Partial<PendingRequestView>): PendingRequestView => ({
  id: 1,
  course: "Legends",
  play_date: "2025-03-06",
  times: ["06:00"],
  status: "Pending",
  release_at: null,
  players: [],
  ...over,
});

describe("findNextUp", () => {
  test("nothing upcoming gives null", () => {
    expect(findNextUp([booking({ date: "2025-03-04" })], [request({ play_date: "2025-03-01" })], TODAY)).toBeNull();
  });

  test("the earliest by date then time across bookings and requests", () => {
    const b = booking({ date: "Thursday Mar 6, 2025", time: "07:04 AM" });
    const r = request({ times: ["06:56", "07:12"] });
    expect(findNextUp([b], [r], TODAY)).toEqual({
      kind: "request",
      status: "Pending",
      date: "2025-03-06",
      time: "06:56",
      course: "Legends",
      request: r,
    });
    const later = request({ play_date: "2025-03-07", times: ["05:00"] });
    expect(findNextUp([b], [later], TODAY)).toEqual({
      kind: "booking",
      status: "Confirmed",
      date: "2025-03-06",
      time: "07:04",
      course: "Masters",
      booking: b,
    });
  });

  test("12-hour times sort correctly", () => {
    const pm = booking({ bookingId: "PM", time: "1:12 PM" });
    const am = booking({ bookingId: "AM", time: "11:52 AM" });
    const next = findNextUp([pm, am], [], TODAY);
    expect(next?.kind === "booking" && next.booking.bookingId).toBe("AM");
  });

  test("items dated today count", () => {
    expect(findNextUp([booking({ date: TODAY, time: "05:00" })], [], TODAY)?.date).toBe(TODAY);
  });

  test("a failed request shows as Failed; other request statuses are left out", () => {
    expect(findNextUp([], [request({ status: "Failed" })], TODAY)?.status).toBe("Failed");
    expect(findNextUp([], [request({ status: "Cancelled" })], TODAY)).toBeNull();
  });

  test("a booking wins a tie with a request", () => {
    expect(findNextUp([booking({ time: "06:00" })], [request({})], TODAY)?.kind).toBe("booking");
  });

  test("unreadable dates are skipped", () => {
    expect(findNextUp([booking({ date: "soon" })], [], TODAY)).toBeNull();
  });
});

test("countUpcoming counts bookings and open requests dated today or later", () => {
  const bookings = [booking({ date: TODAY }), booking({ date: "Tuesday Mar 4, 2025" }), booking({ date: "2025-04-01" })];
  const requests = [request({}), request({ status: "Failed" }), request({ play_date: "2025-03-04" }), request({ status: "Cancelled" })];
  expect(countUpcoming(bookings, requests, TODAY)).toBe(4);
  expect(countUpcoming([], [], TODAY)).toBe(0);
});

describe("attempt outcomes a member reads", () => {
  test("every outcome Teebox stores has its own UI text; an unknown code and a post still waiting have theirs", () => {
    for (const code of [...CLUB_ERROR_KINDS, "confirmed", "refused", "unknown", "not_booked"]) {
      const key = attemptOutcomeKey(code);
      expect({ code, key }).toEqual({ code, key: `attempts.outcome.${code}` as typeof key });
      expect(DEFAULT_UI_TEXT[key]).not.toMatch(/_/);
    }
    expect(attemptOutcomeKey(null)).toBe("attempts.outcome.waiting");
    expect(attemptOutcomeKey("no_such_code")).toBe("attempts.outcome.other");
    expect(attemptOutcomeKey("constructor")).toBe("attempts.outcome.other");
  });
});
