/**
 * What the booking screens derive from the live data and the wizard's draft. Every rule comes from
 * src/domain; this file only puts the pieces together for the screens.
 */
import { findApplicableLimits, type BookingRule, type Course, type FlightLimits, type Holiday } from "../../../src/domain/booking-rules.ts";
import { flightToSubmissionPlayers, type BookingSubmission } from "../../../src/domain/booking-submission.ts";
import type { ConfirmedBookingView, PendingRequestView } from "../../../src/domain/bookings-view.ts";
import { liveTeeTimes, type DateEntry, type TeeTimeDay } from "../../../src/domain/date-kinds.ts";
import { generateEstimatedSlots, type TeeTime } from "../../../src/domain/estimated-slots.ts";
import { normaliseTime, parseBookingDate } from "../../../src/domain/manila-time.ts";
import {
  canAddToFlight,
  isGuestType,
  isSamePerson,
  normaliseMemberId,
  savedToFlightPlayer,
  validateFlight,
  type FlightPlayer,
  type SavedPlayer,
  type SelfIdentity,
} from "../../../src/domain/players.ts";
import { makeProblem, type DomainProblem } from "../../../src/domain/problem.ts";
import type { AllowedWindows } from "../../../src/domain/windows.ts";
import type { SessionUser } from "../../lib/types.ts";
import type { BookDraft, EditTarget, SlotChoice } from "./book-store.ts";

/** Everything the booking screens read from the live data. */
export interface BookingData {
  dates: DateEntry[];
  teeTimes: TeeTimeDay[];
  courses: Course[];
  rules: BookingRule[];
  holidays: Holiday[];
  windows: AllowedWindows;
  bookings: ConfirmedBookingView[];
  requests: PendingRequestView[];
  savedPlayers: SavedPlayer[];
}

/** Profile defaults for new rows: cart, and the fee by whether the player is a guest. */
export type PlayerDefaults = { cart: string; feeGuest: string; feeMember: string };

export function defaultsOf(user: Pick<SessionUser, "defaultCartType" | "defaultFeeGuest" | "defaultFeeMember">): PlayerDefaults {
  return { cart: user.defaultCartType, feeGuest: user.defaultFeeGuest, feeMember: user.defaultFeeMember };
}

export function defaultFeeFor(type: string, defaults: PlayerDefaults): string {
  return isGuestType(type) ? defaults.feeGuest : defaults.feeMember;
}

export function courseNameOf(courses: readonly Course[], courseId: string): string {
  return courses.find((c) => c.id.toLowerCase() === courseId.toLowerCase())?.name ?? courseId;
}

/** The club's tee sheet when it has one for the date and course, else slots estimated from the windows. */
export function slotsFor(date: string, courseId: string, data: Pick<BookingData, "teeTimes" | "courses" | "windows">): { slots: TeeTime[]; isEstimated: boolean } {
  const live = liveTeeTimes(date, courseId, data.teeTimes);
  if (live) return { slots: [...live].sort((a, b) => a.time.localeCompare(b.time)), isEstimated: false };
  return { slots: generateEstimatedSlots(date, courseNameOf(data.courses, courseId), data.windows), isEstimated: true };
}

function isSameCourse(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Times the member already holds on that date and course: confirmed bookings and the times of
 * open requests. What is being edited does not count, so its own times stay selectable.
 */
export function heldTimes(date: string, courseId: string, data: Pick<BookingData, "bookings" | "requests">, editTarget: EditTarget | null): Set<string> {
  const held = new Set<string>();
  for (const booking of data.bookings) {
    if (editTarget?.kind === "booking" && editTarget.bookingId === booking.bookingId) continue;
    const time = normaliseTime(booking.time);
    if (time && parseBookingDate(booking.date) === date && isSameCourse(booking.course, courseId)) held.add(time);
  }
  for (const request of data.requests) {
    if (editTarget?.kind === "request" && editTarget.id === request.id) continue;
    if (!["pending", "processing"].includes(request.status.trim().toLowerCase())) continue;
    if (parseBookingDate(request.play_date) !== date || !isSameCourse(request.course, courseId)) continue;
    for (const t of request.times) {
      const time = normaliseTime(t);
      if (time) held.add(time);
    }
  }
  return held;
}

/** The member's own first row: locked, named from the profile. */
export function memberRow(user: Pick<SessionUser, "name" | "memberId" | "defaultCartType">, memberCart: string | null): FlightPlayer {
  return {
    type: "Member",
    firstName: "",
    lastName: user.name,
    memberId: normaliseMemberId(user.memberId),
    cart: memberCart ?? user.defaultCartType,
    fee: "",
    locked: true,
  };
}

export function flightOf(user: SessionUser, draft: Pick<BookDraft, "players" | "memberCart">): FlightPlayer[] {
  return [memberRow(user, draft.memberCart), ...draft.players];
}

export function selfOf(user: Pick<SessionUser, "memberId">): SelfIdentity {
  return { memberId: user.memberId };
}

/** The rule for the date and the first chosen time; the defaults until both are known. */
export function limitsFor(data: Pick<BookingData, "rules" | "holidays">, draft: Pick<BookDraft, "date" | "selection">): FlightLimits {
  return findApplicableLimits(data.rules, data.holidays, draft.date ?? "", draft.selection[0]?.time ?? "");
}

/**
 * The problem of each extra player, judged against the rows above it with the same rule that
 * decides whether a player may be added, so a message appears on the row that caused it.
 * Index 0 (the member) never has one.
 */
export function rowProblems(flight: readonly FlightPlayer[], limits: FlightLimits, self: SelfIdentity): (DomainProblem | null)[] {
  return flight.map((player, i) => (i === 0 ? null : canAddToFlight(flight.slice(0, i), player, limits, self)));
}

/**
 * The check before sending: a date, a course, a time, complete players and the
 * minimum count, else 'Please complete all required fields.'; any other flight problem is named.
 */
export function checkBeforeSubmit(
  draft: Pick<BookDraft, "date" | "course" | "selection">,
  flight: readonly FlightPlayer[],
  limits: FlightLimits,
  self: SelfIdentity,
): DomainProblem | null {
  if (!draft.date || !draft.course || draft.selection.length === 0) return makeProblem("booking.incomplete");
  const problem = validateFlight(flight, limits, self);
  if (!problem) return null;
  if (problem.errorKey === "booking.min_players") return makeProblem("booking.incomplete");
  return problem;
}

export function buildSubmission(
  draft: Pick<BookDraft, "date" | "course" | "selection"> & { partnersMustAccept?: boolean },
  flight: readonly FlightPlayer[],
  editTarget: EditTarget | null,
): BookingSubmission {
  const isRequestEdit = editTarget?.kind === "request";
  const submission: BookingSubmission = {
    course: draft.course ?? "",
    targetDate: draft.date ?? "",
    selectionOrder: draft.selection.map((s) => ({ time: s.time, slotId: s.slotId })),
    memberCartType: flight[0]?.cart ?? "",
    playerDetails: { players: flightToSubmissionPlayers(flight) },
    // A new request says it only when asked for (a submission without partners stays as it always
    // was); an edit of a request always says it, or the server keeps the request's own setting.
    ...(draft.partnersMustAccept || isRequestEdit ? { partnersMustAccept: draft.partnersMustAccept === true } : {}),
  };
  return isRequestEdit ? { ...submission, editTarget: editTarget.id } : submission;
}

/** A new typed row: type Member, profile cart and fee. */
export function blankPlayer(defaults: PlayerDefaults, type = "Member"): FlightPlayer {
  return { type, firstName: "", lastName: "", memberId: "", cart: defaults.cart, fee: defaultFeeFor(type, defaults), locked: false, fromSaved: false };
}

/** 'Maria  Santos' → first 'Maria', last 'Santos'; one word is a last name. */
function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { firstName: "", lastName: words[0] ?? "" };
  return { firstName: words.slice(0, -1).join(" "), lastName: words.at(-1) ?? "" };
}

/**
 * A listed player of a request or booking as a flight row: the saved player it matches (locked, with
 * its cart and fee), else a typed row with the cart and fee it was booked with (the profile's when unknown).
 */
export function listedPlayerToFlight(
  listed: { name: string; type: string; memberId: string; cart?: string; fee?: string },
  savedPlayers: readonly SavedPlayer[],
  defaults: PlayerDefaults,
): FlightPlayer {
  const name = splitName(listed.name);
  const memberId = isGuestType(listed.type) ? "" : normaliseMemberId(listed.memberId);
  const blank = blankPlayer(defaults, listed.type);
  const row: FlightPlayer = { ...blank, ...name, memberId, cart: listed.cart || blank.cart, fee: listed.fee || blank.fee };
  const saved = savedPlayers.map(savedToFlightPlayer).find((p) => {
    if (p.type.toLowerCase() !== listed.type.toLowerCase()) return false;
    if (!isGuestType(p.type)) return p.memberId !== "" && p.memberId === memberId;
    return isSamePerson(p, row);
  });
  return saved ?? row;
}

function choicesOf(times: readonly string[], teeSheet: readonly TeeTime[]): SlotChoice[] {
  return times
    .map((t) => normaliseTime(t))
    .filter((t): t is string => t !== null)
    .map((time) => ({ time, slotId: teeSheet.find((s) => s.time === time)?.slotId ?? null }));
}

/** A listed request; the engine adds the submitted selection (with slot ids) and the member's cart. */
export type EditableRequest = PendingRequestView & {
  selectionOrder?: SlotChoice[];
  memberCartType?: string;
  partnersMustAccept?: boolean;
};

/** The draft of a pending request being edited. */
export function draftFromRequest(request: EditableRequest, data: BookingData, user: SessionUser): { target: EditTarget; draft: BookDraft } | null {
  const date = parseBookingDate(request.play_date);
  if (!date) return null;
  const defaults = defaultsOf(user);
  const sheet = slotsFor(date, request.course, data).slots;
  const others = request.players.filter((p, i) => !(i === 0 && normaliseMemberId(p.memberId) === normaliseMemberId(user.memberId)));
  return {
    target: { kind: "request", id: request.id, date },
    draft: {
      date,
      course: request.course,
      selection: request.selectionOrder?.length ? request.selectionOrder.map((s) => ({ time: s.time, slotId: s.slotId })) : choicesOf(request.times, sheet),
      players: others.map((p) => listedPlayerToFlight(p, data.savedPlayers, defaults)),
      memberCart: request.memberCartType?.trim() ? request.memberCartType : null,
      partnersMustAccept: request.partnersMustAccept === true,
    },
  };
}

/** The draft of a confirmed booking being edited; the member's own entry in the club's list is left out. */
export function draftFromBooking(booking: ConfirmedBookingView, data: BookingData, user: SessionUser): { target: EditTarget; draft: BookDraft } | null {
  const date = parseBookingDate(booking.date);
  const time = normaliseTime(booking.time);
  if (!date || !time) return null;
  const defaults = defaultsOf(user);
  const sheet = slotsFor(date, booking.course, data).slots;
  const self = normaliseMemberId(user.memberId);
  const others = booking.playersInfo.filter((p) => normaliseMemberId(p.id) !== self);
  return {
    target: { kind: "booking", bookingId: booking.bookingId, date, time, course: booking.course },
    draft: {
      date,
      course: booking.course,
      selection: choicesOf([time], sheet),
      players: others.map((p) => listedPlayerToFlight({ name: p.name, type: p.type, memberId: p.id, cart: p.cart, fee: p.fee }, data.savedPlayers, defaults)),
      memberCart: null,
      partnersMustAccept: false,
    },
  };
}

/** `?edit=request:12` or `?edit=booking:SW-123` */
export type EditQuery = { kind: "request"; id: number } | { kind: "booking"; bookingId: string };

export function parseEditQuery(value: string | null): EditQuery | null {
  if (!value) return null;
  const separator = value.indexOf(":");
  if (separator < 0) return null;
  const kind = value.slice(0, separator);
  const id = value.slice(separator + 1).trim();
  if (kind === "request" && /^\d+$/.test(id)) return { kind, id: Number(id) };
  if (kind === "booking" && id !== "") return { kind, bookingId: id };
  return null;
}

export function editQueryOf(target: EditQuery): string {
  return target.kind === "request" ? `request:${target.id}` : `booking:${target.bookingId}`;
}
