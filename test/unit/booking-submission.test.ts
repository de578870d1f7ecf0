import { describe, expect, test } from "bun:test";
import type { BookingRule, Course } from "../../src/domain/booking-rules.ts";
import { bookingSubmissionSchema } from "../../src/domain/booking-submission-schema.ts";
import {
  chosenOption,
  flightToSubmissionPlayers,
  submissionToFlight,
  validateBookingSubmission,
  type BookingSubmission,
  type SubmissionContext,
} from "../../src/domain/booking-submission.ts";
import type { FlightPlayer } from "../../src/domain/players.ts";

const WED = "2025-03-05";
const COURSES: Course[] = [
  { id: "masters", name: "Masters", days_active: [1, 2, 3, 4, 5, 6, 7] },
  { id: "parklands", name: "Parklands", days_active: [1, 2, 4, 5] },
];
const RULE: BookingRule = {
  id: 1,
  priority: 1,
  days_of_week: [3],
  applies_on_holidays: false,
  start_time: "05:00",
  end_time: "08:00",
  min_players: 2,
  max_players: 3,
  max_guests: 1,
};
const CTX: SubmissionContext = {
  courses: COURSES,
  rules: [RULE],
  holidays: [],
  windows: {
    DEFAULT: [{ start_time: "05:04", end_time: "16:48" }],
    SATURDAY_MASTERS: [{ start_time: "06:00", end_time: "12:00" }],
    SUNDAY_LEGENDS: [],
  },
  self: { memberId: "M100", name: "Santos" },
  todayIso: "2025-03-04",
};

const memberEntry = {
  type: "Member",
  cartType: { "Rental Cart - Solo": true as const },
  chargeFeesTo: { "Charge to their account": true as const },
  searchLastName: "Reyes",
  searchIdNumber: " m200 ",
};
const guestEntry = { type: "Guest", cartType: { "Rental Cart - Shared": true as const }, chargeFeesTo: { "Charge my guest": true as const }, firstName: "Ana", lastName: "Cruz" };

const submission = (over: Partial<BookingSubmission> = {}): BookingSubmission => ({
  course: "Masters",
  targetDate: WED,
  selectionOrder: [
    { time: "07:04", slotId: "S1" },
    { time: "06:56", slotId: null },
  ],
  memberCartType: "Rental Cart - Solo",
  playerDetails: { players: [memberEntry] },
  ...over,
});

describe("bookingSubmissionSchema", () => {
  test("parses the product's shape; a missing slotId becomes null", () => {
    const parsed = bookingSubmissionSchema.parse({
      course: "Masters",
      targetDate: WED,
      selectionOrder: [{ time: "07:04" }],
      memberCartType: "Rental Cart - Solo",
      playerDetails: { players: [guestEntry] },
      editTarget: 12,
    });
    expect(parsed.selectionOrder).toEqual([{ time: "07:04", slotId: null }]);
    expect(parsed.editTarget).toBe(12);
  });
  test("rejects a choice that is not {name: true} and a bad editTarget", () => {
    expect(bookingSubmissionSchema.safeParse(submission({ playerDetails: { players: [{ ...guestEntry, cartType: { x: false } as never }] } })).success).toBe(false);
    expect(bookingSubmissionSchema.safeParse({ ...submission(), editTarget: 1.5 }).success).toBe(false);
    expect(bookingSubmissionSchema.safeParse({ ...submission(), playerDetails: {} }).success).toBe(false);
  });
});

test("chosenOption takes the single key", () => {
  expect(chosenOption({ A: true })).toBe("A");
  expect(chosenOption({})).toBe("");
  expect(chosenOption({ A: true, B: true })).toBe("");
});

describe("flight conversion", () => {
  test("submissionToFlight puts the member first", () => {
    expect(submissionToFlight(submission({ playerDetails: { players: [memberEntry, guestEntry] } }), CTX.self)).toEqual([
      { type: "Member", firstName: "", lastName: "Santos", memberId: "M100", cart: "Rental Cart - Solo", fee: "", locked: true },
      { type: "Member", firstName: "", lastName: "Reyes", memberId: "M200", cart: "Rental Cart - Solo", fee: "Charge to their account" },
      { type: "Guest", firstName: "Ana", lastName: "Cruz", memberId: "", cart: "Rental Cart - Shared", fee: "Charge my guest" },
    ]);
  });

  test("flightToSubmissionPlayers drops the member and writes each kind its way", () => {
    const flight: FlightPlayer[] = [
      { type: "Member", firstName: "", lastName: "Santos", memberId: "M100", cart: "Rental Cart - Solo", fee: "", locked: true },
      { type: "Spouse", firstName: "", lastName: "Reyes", memberId: "m201", cart: "Rental Cart - Solo", fee: "Charge to their account" },
      { type: "Junior", firstName: "Leo", lastName: "Reyes", memberId: "J1", cart: "", fee: "Charge to their account" },
      { type: "Senior Care", firstName: "Ana", lastName: "Cruz", memberId: "", cart: "Rental Cart - Shared", fee: "Charge my guest" },
    ];
    expect(flightToSubmissionPlayers(flight)).toEqual([
      { type: "Spouse", cartType: { "Rental Cart - Solo": true }, chargeFeesTo: { "Charge to their account": true }, searchLastName: "Reyes", searchIdNumber: "M201" },
      { type: "Junior", cartType: {}, chargeFeesTo: { "Charge to their account": true }, firstName: "Leo", searchLastName: "Reyes", searchIdNumber: "J1" },
      { type: "Senior Care", cartType: { "Rental Cart - Shared": true }, chargeFeesTo: { "Charge my guest": true }, firstName: "Ana", lastName: "Cruz" },
    ]);
  });

  test("a round trip keeps the players", () => {
    const sub = submission({ playerDetails: { players: [memberEntry, guestEntry] } });
    const back = flightToSubmissionPlayers(submissionToFlight(sub, CTX.self));
    expect(back).toEqual([{ ...memberEntry, searchIdNumber: "M200" }, guestEntry]);
  });
});

describe("validateBookingSubmission", () => {
  const problemOf = (sub: BookingSubmission, ctx: SubmissionContext = CTX) => {
    const result = validateBookingSubmission(sub, ctx);
    return result.ok ? null : result.problem;
  };

  test("a valid submission is normalised", () => {
    const result = validateBookingSubmission(submission({ targetDate: ` ${WED} `, course: "masters" }), CTX);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.targetDate).toBe(WED);
    expect(result.value.courseId).toBe("masters");
    expect(result.value.courseName).toBe("Masters");
    expect(result.value.times).toEqual(["07:04", "06:56"]);
    expect(result.value.playerDetails.players[0].searchIdNumber).toBe("M200");
    expect(result.value.flight.map((p) => p.memberId)).toEqual(["M100", "M200"]);
    expect(result.value.limits).toEqual({ minPlayers: 2, maxPlayers: 3, maxGuests: 1, rule: RULE });
  });

  test("missing date, course or times", () => {
    const incomplete = { message: "Please complete all required fields.", errorKey: "booking.incomplete" };
    expect(problemOf(submission({ targetDate: "" }))).toEqual(incomplete);
    expect(problemOf(submission({ course: " " }))).toEqual(incomplete);
    expect(problemOf(submission({ selectionOrder: [] }))).toEqual(incomplete);
  });

  test("dates: invalid, past, beyond the last bookable date; today is fine", () => {
    expect(problemOf(submission({ targetDate: "2025-02-30" }))).toEqual({
      message: "The date 2025-02-30 is not a valid date.",
      errorKey: "booking.invalid_date",
      context: { date: "2025-02-30" },
    });
    expect(problemOf(submission({ targetDate: "2025-03-03" }))?.errorKey).toBe("booking.date_past");
    expect(problemOf(submission(), { ...CTX, maxDate: "2025-03-04" })?.errorKey).toBe("booking.date_not_bookable");
    expect(problemOf(submission(), { ...CTX, todayIso: WED, maxDate: WED })).toBeNull();
  });

  test("course unknown or closed that weekday", () => {
    expect(problemOf(submission({ course: "Nowhere" }))?.message).toBe("Unknown course: Nowhere.");
    expect(problemOf(submission({ course: "parklands" }))).toEqual({
      message: "This course is not open on that day.",
      errorKey: "booking.course_closed",
    });
  });

  test("times: malformed, repeated, outside the windows", () => {
    expect(problemOf(submission({ selectionOrder: [{ time: "7:04", slotId: null }] }))?.message).toBe("The tee time 7:04 is not a valid time.");
    expect(
      problemOf(
        submission({
          selectionOrder: [
            { time: "07:04", slotId: null },
            { time: "07:04", slotId: "x" },
          ],
        }),
      )?.errorKey,
    ).toBe("booking.duplicate_time");
    expect(problemOf(submission({ selectionOrder: [{ time: "17:00", slotId: null }] }))).toEqual({
      message: "The tee time 17:00 is outside the booking windows.",
      errorKey: "booking.time_outside_window",
      context: { time: "17:00" },
    });
  });

  test("a time must exist: on the estimated grid of the windows when the date has no live sheet", () => {
    const noLiveData: SubmissionContext = { ...CTX, liveTimes: {} };
    // Masters' grid: every 8 minutes from 06:00.
    expect(
      problemOf(
        submission({
          selectionOrder: [
            { time: "06:00", slotId: null },
            { time: "11:52", slotId: null },
          ],
        }),
        noLiveData,
      ),
    ).toBeNull();
    expect(
      problemOf(
        submission({
          selectionOrder: [
            { time: "07:04", slotId: null },
            { time: "07:05", slotId: null },
          ],
        }),
        noLiveData,
      ),
    ).toEqual({
      message: "There is no tee time at 07:05. Choose one of the times offered for that date.",
      errorKey: "booking.time_not_on_grid",
      context: { time: "07:05" },
    });
    // Another course on the DEFAULT windows (from 05:04): 05:04 is a tee time, 05:05 is not.
    const legends = { ...noLiveData, courses: [...COURSES, { id: "legends", name: "Legends", days_active: [1, 2, 3, 4, 5, 6, 7] }] };
    expect(problemOf(submission({ course: "legends", selectionOrder: [{ time: "05:04", slotId: null }] }), legends)).toBeNull();
    expect(problemOf(submission({ course: "legends", selectionOrder: [{ time: "05:05", slotId: null }] }), legends)?.errorKey).toBe("booking.time_not_on_grid");
  });

  test("a time must exist: on the club's live sheet when the date has one, even if the grid has it", () => {
    const live: SubmissionContext = { ...CTX, liveTimes: { masters: ["06:00", "06:10", "07:04"] } };
    // 06:10 is off the estimated grid but on the club's sheet: accepted.
    expect(
      problemOf(
        submission({
          selectionOrder: [
            { time: "07:04", slotId: null },
            { time: "06:10", slotId: null },
          ],
        }),
        live,
      ),
    ).toBeNull();
    // 06:56 is on the grid, but the club's sheet does not have it.
    expect(problemOf(submission(), live)).toEqual({
      message: "The club has no tee time at 06:56 on that date. Choose one of the times it lists.",
      errorKey: "booking.time_not_on_sheet",
      context: { time: "06:56" },
    });
    // Another course's sheet says nothing about this one: its grid applies.
    const otherCourse: SubmissionContext = { ...CTX, liveTimes: { parklands: ["06:10"] } };
    expect(problemOf(submission({ selectionOrder: [{ time: "06:10", slotId: null }] }), otherCourse)?.errorKey).toBe("booking.time_not_on_grid");
  });

  test("Masters uses the SATURDAY_MASTERS windows even on a weekday", () => {
    expect(problemOf(submission({ selectionOrder: [{ time: "05:04", slotId: null }] }))?.errorKey).toBe("booking.time_outside_window");
  });

  test("limits follow the rule of the first selected time", () => {
    const alone = submission({ playerDetails: { players: [] } });
    expect(problemOf(alone)?.message).toBe("Minimum of 2 players required.");
    // First time 09:04 is outside the rule: defaults allow playing alone.
    expect(
      problemOf({
        ...alone,
        selectionOrder: [
          { time: "09:04", slotId: null },
          { time: "07:04", slotId: null },
        ],
      }),
    ).toBeNull();
  });

  test("flight problems: too many, guests, self, duplicate, incomplete", () => {
    const players = (list: BookingSubmission["playerDetails"]["players"]) => submission({ playerDetails: { players: list } });
    expect(problemOf(players([memberEntry, guestEntry, { ...guestEntry, firstName: "Bea" }]))?.message).toBe("Maximum of 3 players allowed.");
    expect(problemOf(players([guestEntry, { ...guestEntry, firstName: "Bea" }]))?.message).toBe("Maximum of 1 guest(s) allowed.");
    expect(problemOf(players([{ ...memberEntry, searchIdNumber: "m100" }]))?.message).toBe("You cannot add yourself as another player.");
    expect(problemOf(players([memberEntry, { ...memberEntry, searchIdNumber: "M200" }]))?.message).toBe("This player is already in the flight.");
    expect(problemOf(players([{ ...memberEntry, chargeFeesTo: {} }]))?.message).toBe("Please complete all required fields.");
    expect(problemOf(players([{ ...guestEntry, firstName: undefined }]))?.message).toBe("Please complete all required fields.");
  });

  test("the member's own cart is required", () => {
    expect(problemOf(submission({ memberCartType: "" }))?.errorKey).toBe("booking.incomplete");
  });
});
