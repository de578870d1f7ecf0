/**
 * The booking submission payload, sent over the socket
 * (SUBMIT_BOOKING_REQUEST) and to POST /v1/bookings/{id}/edit, and the server's check of it.
 *
 * `playerDetails.players` holds the extra players only: the booking member is the session user,
 * whose cart is `memberCartType`. A flight here is the whole group, the member first.
 */
import { findApplicableLimits, isCourseActiveOn, type BookingRule, type Course, type FlightLimits, type Holiday } from "./booking-rules.ts";
import { generateEstimatedSlots, isTimeInWindows } from "./estimated-slots.ts";
import { isHhMm, isIsoDate } from "./manila-time.ts";
import { isGuestType, normaliseMemberId, validateFlight, type FlightPlayer } from "./players.ts";
import { makeProblem, type DomainProblem } from "./problem.ts";
import type { AllowedWindows } from "./windows.ts";
// Only the types: the zod schema stays on the server (booking-submission-schema.ts).
import type { BookingSubmission, Selection, SubmissionPlayer } from "./booking-submission-schema.ts";

export type { BookingSubmission, Selection, SubmissionPlayer };

/** The booking member as the first row of a flight. */
export type SelfPlayer = { memberId: string; name?: string };

export type NormalisedSubmission = BookingSubmission & {
  courseId: string;
  courseName: string;
  /** The selected times in priority order, 'HH:mm'. */
  times: string[];
  /** The whole flight, the booking member first. */
  flight: FlightPlayer[];
  limits: FlightLimits;
};

export type SubmissionContext = {
  courses: readonly Course[];
  rules: readonly BookingRule[];
  holidays: readonly Holiday[];
  windows: AllowedWindows;
  self: SelfPlayer;
  todayIso: string;
  /** The last bookable date, when the caller limits how far ahead a member may book. */
  maxDate?: string;
  /** The first date offered (tomorrow once the booking roll hour has passed). */
  minDate?: string;
  /** Manila time of day now ('HH:mm'): on today's date, times at or before it are refused. */
  nowTime?: string;
  /** The form-options lists: player types, carts and fees must be among them. */
  options?: SubmissionOptions;
  /**
   * The times of the club's live sheet for the submitted date, per course id (tee_time_slots). A
   * course with times here is checked against them; one without against the estimated grid of the
   * allowed windows. Left out, only the windows are checked (callers that cannot read it).
   */
  liveTimes?: Readonly<Record<string, readonly string[]>>;
};

export type SubmissionOptions = {
  playerTypes: readonly string[];
  carts: readonly string[];
  guestFees: readonly string[];
  memberFees: readonly string[];
};

export type SubmissionOutcome = { ok: true; value: NormalisedSubmission } | { ok: false; problem: DomainProblem };

/** The single chosen key of a `{name: true}` choice; '' when none or several are chosen. */
export function chosenOption(choice: Record<string, true>): string {
  const keys = Object.keys(choice);
  return keys.length === 1 ? keys[0].trim() : "";
}

export function toChoice(option: string): Record<string, true> {
  return option.trim() === "" ? {} : { [option.trim()]: true };
}

function submissionPlayerToFlight(player: SubmissionPlayer): FlightPlayer {
  const isGuest = isGuestType(player.type);
  return {
    type: player.type.trim(),
    firstName: (player.firstName ?? "").trim(),
    lastName: ((isGuest ? player.lastName : (player.searchLastName ?? player.lastName)) ?? "").trim(),
    memberId: isGuest ? "" : normaliseMemberId(player.searchIdNumber),
    cart: chosenOption(player.cartType),
    fee: chosenOption(player.chargeFeesTo),
  };
}

/** The whole flight of a submission: the booking member (locked) first, then the listed players. */
export function submissionToFlight(sub: BookingSubmission, self: SelfPlayer): FlightPlayer[] {
  const member: FlightPlayer = {
    type: "Member",
    firstName: "",
    lastName: self.name ?? "",
    memberId: normaliseMemberId(self.memberId),
    cart: sub.memberCartType.trim(),
    fee: "",
    locked: true,
  };
  return [member, ...sub.playerDetails.players.map(submissionPlayerToFlight)];
}

/**
 * The submission players of a whole flight (its first row, the booking member, is left out; its
 * cart travels as memberCartType). Guests send first and last name; everyone else is found at the
 * club by last name and member id, with the first name added when known.
 */
export function flightToSubmissionPlayers(flight: readonly FlightPlayer[]): SubmissionPlayer[] {
  return flight.slice(1).map((p) => {
    const base = { type: p.type, cartType: toChoice(p.cart), chargeFeesTo: toChoice(p.fee) };
    if (isGuestType(p.type)) return { ...base, firstName: p.firstName.trim(), lastName: p.lastName.trim() };
    const named = p.firstName.trim() === "" ? {} : { firstName: p.firstName.trim() };
    return { ...base, ...named, searchLastName: p.lastName.trim(), searchIdNumber: normaliseMemberId(p.memberId) };
  });
}

function findCourse(courses: readonly Course[], wanted: string): Course | undefined {
  const key = wanted.trim().toLowerCase();
  return courses.find((c) => c.id.toLowerCase() === key) ?? courses.find((c) => c.name.toLowerCase() === key);
}

function checkDate(date: string, ctx: SubmissionContext): DomainProblem | null {
  if (!isIsoDate(date)) return makeProblem("booking.invalid_date", { date });
  if (date < ctx.todayIso) return makeProblem("booking.date_past", { date });
  if ((ctx.maxDate && date > ctx.maxDate) || (ctx.minDate && date < ctx.minDate)) return makeProblem("booking.date_not_bookable", { date });
  return null;
}

/**
 * Each time valid, once, inside the windows, and a time that exists: on the club's live sheet
 * when the date has one, else on the estimated grid of the windows, so the engine never asks the
 * club for a time it does not have.
 */
function checkTimes(times: readonly string[], date: string, courseName: string, windows: AllowedWindows, liveTimes: readonly string[] | undefined | null): DomainProblem | null {
  const existing = liveTimes === null ? null : new Set(liveTimes && liveTimes.length > 0 ? liveTimes : generateEstimatedSlots(date, courseName, windows).map((s) => s.time));
  const isLive = !!liveTimes && liveTimes.length > 0;
  for (const [i, time] of times.entries()) {
    if (!isHhMm(time)) return makeProblem("booking.invalid_time", { time });
    if (times.indexOf(time) !== i) return makeProblem("booking.duplicate_time", { time });
    if (!isTimeInWindows(date, courseName, time, windows)) return makeProblem("booking.time_outside_window", { time });
    if (existing && !existing.has(time)) return makeProblem(isLive ? "booking.time_not_on_sheet" : "booking.time_not_on_grid", { time });
  }
  return null;
}

/** Whether a tee time on `date` has already gone by at `nowTime` (today in Manila). */
export function isPastTeeTime(date: string, time: string, todayIso: string, nowTime: string): boolean {
  return date < todayIso || (date === todayIso && time <= nowTime);
}

/** Player type, cart and fee must be values of the form-options lists (an empty one is "incomplete", checked later). */
function checkOptions(sub: BookingSubmission, options: SubmissionOptions): DomainProblem | null {
  const isOption = (list: readonly string[], value: string) => value === "" || list.length === 0 || list.includes(value);
  const refuse = (field: string, value: string) => makeProblem("booking.invalid_option", { field, value: value.slice(0, 60) });
  if (!isOption(options.carts, sub.memberCartType.trim())) return refuse("cart", sub.memberCartType.trim());
  for (const player of sub.playerDetails.players) {
    const type = player.type.trim();
    if (!isOption(options.playerTypes, type)) return refuse("player type", type);
    const cart = chosenOption(player.cartType);
    if (!isOption(options.carts, cart)) return refuse("cart", cart);
    const fee = chosenOption(player.chargeFeesTo);
    if (!isOption(isGuestType(type) ? options.guestFees : options.memberFees, fee)) return refuse("fee", fee);
  }
  return null;
}

/** A member's request that is still open or booked, as the duplicate and count checks see it. */
export type OpenRequest = { id: number; playDate: string; courseId: string; firstTime: string; isOpen: boolean };

/**
 * Identical requests (same member, date, course and first time) are refused, and a member has at
 * most `maxOpen` open requests; the request being edited does not count against itself.
 */
export function checkOpenRequests(
  existing: readonly OpenRequest[],
  candidate: { playDate: string; courseId: string; firstTime: string; editTarget?: number },
  maxOpen: number,
): DomainProblem | null {
  const others = existing.filter((r) => r.id !== candidate.editTarget);
  const same = others.find((r) => r.playDate === candidate.playDate && r.courseId === candidate.courseId && r.firstTime === candidate.firstTime);
  if (same) return makeProblem("booking.duplicate_request", { date: candidate.playDate, time: candidate.firstTime });
  if (others.filter((r) => r.isOpen).length >= maxOpen) return makeProblem("booking.too_many_open", { max: maxOpen });
  return null;
}

function normalisePlayers(players: readonly SubmissionPlayer[]): SubmissionPlayer[] {
  return players.map((p) => ({
    ...p,
    type: p.type.trim(),
    ...(p.searchIdNumber === undefined ? {} : { searchIdNumber: normaliseMemberId(p.searchIdNumber) }),
  }));
}

/**
 * The server's check of a parsed submission, first problem wins: something missing ('Please
 * complete all required fields.'), the date, the course and its weekday, the times (valid,
 * unique, inside the allowed windows, existing on the live sheet or the estimated grid), then the flight against the rule of the first selected
 * time. Member ids come back upper-cased.
 */
export function validateBookingSubmission(sub: BookingSubmission, ctx: SubmissionContext): SubmissionOutcome {
  const fail = (problem: DomainProblem): SubmissionOutcome => ({ ok: false, problem });
  const date = sub.targetDate.trim();
  const times = sub.selectionOrder.map((s) => s.time.trim());
  if (date === "" || sub.course.trim() === "" || times.length === 0) return fail(makeProblem("booking.incomplete"));

  const dateProblem = checkDate(date, ctx);
  if (dateProblem) return fail(dateProblem);
  const course = findCourse(ctx.courses, sub.course);
  if (!course) return fail(makeProblem("booking.unknown_course", { course: sub.course.trim() }));
  if (!isCourseActiveOn(course, date)) return fail(makeProblem("booking.course_closed"));
  const timeProblem = checkTimes(times, date, course.name, ctx.windows, ctx.liveTimes === undefined ? null : ctx.liveTimes[course.id]);
  if (timeProblem) return fail(timeProblem);
  const nowTime = ctx.nowTime;
  const passed = nowTime === undefined ? undefined : times.find((time) => isPastTeeTime(date, time, ctx.todayIso, nowTime));
  if (passed) return fail(makeProblem("booking.time_past", { time: passed }));
  const optionProblem = ctx.options ? checkOptions(sub, ctx.options) : null;
  if (optionProblem) return fail(optionProblem);

  const players = normalisePlayers(sub.playerDetails.players);
  const normalised = { ...sub, targetDate: date, playerDetails: { players } };
  const flight = submissionToFlight(normalised, ctx.self);
  const limits = findApplicableLimits(ctx.rules, ctx.holidays, date, times[0]);
  const flightProblem = validateFlight(flight, limits, ctx.self);
  if (flightProblem) return fail(flightProblem);

  return {
    ok: true,
    value: {
      ...normalised,
      selectionOrder: sub.selectionOrder.map((s, i) => ({ time: times[i], slotId: s.slotId })),
      memberCartType: sub.memberCartType.trim(),
      courseId: course.id,
      courseName: course.name,
      times,
      flight,
      limits,
    },
  };
}
