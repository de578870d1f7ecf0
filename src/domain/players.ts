/**
 * Players in a flight and in the saved players list: who may play, with which choices, and how a
 * saved player becomes one of a booking's players.
 */
import type { FlightLimits } from "./booking-rules.ts";
import { makeProblem, type DomainProblem } from "./problem.ts";

/** Player types used when no form options are loaded. */
export const PLAYER_TYPES = ["Member", "Spouse", "Dependent", "Guest", "Senior Care"] as const;
export const GUEST_TYPES = ["Guest", "Senior Care"] as const;
/** Types the booking form shows as last name plus member id only. */
export const LAST_NAME_AND_ID_TYPES = ["Member", "Spouse", "Dependent"] as const;
/** Member id given to Guest and Senior Care players in the saved list. */
export const GUEST_MEMBER_ID = "0000";

export type FlightPlayer = {
  type: string;
  firstName: string;
  lastName: string;
  memberId: string;
  cart: string;
  fee: string;
  /** The form does not let the user edit this player (the first player, saved players). */
  locked?: boolean;
  fromSaved?: boolean;
};

export type SavedPlayer = {
  firstName: string;
  lastName: string;
  type: string;
  memberId: string;
  cartPreference: string;
  feePreference: string;
};

export type SelfIdentity = { memberId: string };

const fold = (value: string | null | undefined) => (value ?? "").trim().toLowerCase();

function isOneOf(type: string, list: readonly string[]): boolean {
  return list.some((t) => fold(t) === fold(type));
}

export function isGuestType(type: string): boolean {
  return isOneOf(type, GUEST_TYPES);
}

export function showsLastNameAndIdOnly(type: string): boolean {
  return isOneOf(type, LAST_NAME_AND_ID_TYPES);
}

export function normaliseMemberId(id: string | null | undefined): string {
  return (id ?? "").trim().toUpperCase();
}

/** '  DELA CRUZ, ' → 'Dela Cruz'; "o'neil-smith jr." → "O'neil-smith Jr" (capitalised per space-separated word). */
export function formatPlayerName(name: string | null | undefined): string {
  return (name ?? "")
    .trim()
    .toLowerCase()
    .replace(/[.,]+$/, "")
    .trim()
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Same first name, last name and member id, ignoring case and surrounding spaces. */
export function isSamePerson(a: Pick<FlightPlayer, "firstName" | "lastName" | "memberId">, b: Pick<FlightPlayer, "firstName" | "lastName" | "memberId">): boolean {
  return fold(a.firstName) === fold(b.firstName) && fold(a.lastName) === fold(b.lastName) && fold(a.memberId) === fold(b.memberId);
}

/** Member duplicates need a member id to compare: two blank rows are not the same member. */
function isDuplicateMember(a: FlightPlayer, b: FlightPlayer): boolean {
  return !isGuestType(a.type) && !isGuestType(b.type) && fold(a.memberId) !== "" && isSamePerson(a, b);
}

function isSelf(player: FlightPlayer, self: SelfIdentity): boolean {
  return fold(player.memberId) !== "" && fold(player.memberId) === fold(self.memberId);
}

export function countGuests(flight: readonly FlightPlayer[]): number {
  return flight.filter((p) => isGuestType(p.type)).length;
}

/**
 * Whether `candidate` may join `flight` (whose first player is the booking member). Checks, in
 * order: flight size, guest count, a saved player already added, the member themself, a member
 * duplicate.
 */
export function canAddToFlight(
  flight: readonly FlightPlayer[],
  candidate: FlightPlayer,
  limits: Pick<FlightLimits, "maxPlayers" | "maxGuests">,
  self: SelfIdentity,
): DomainProblem | null {
  if (flight.length >= limits.maxPlayers) {
    return makeProblem("booking.max_players", { maxPlayers: limits.maxPlayers });
  }
  if (isGuestType(candidate.type) && countGuests(flight) >= limits.maxGuests) {
    return makeProblem("booking.max_guests", { maxGuests: limits.maxGuests });
  }
  if (candidate.fromSaved && flight.some((p) => fold(p.type) === fold(candidate.type) && isSamePerson(p, candidate))) {
    return makeProblem("booking.player_in_flight");
  }
  if (flight.length > 0 && isSelf(candidate, self)) return makeProblem("booking.add_self");
  if (flight.some((p) => isDuplicateMember(p, candidate))) return makeProblem("booking.duplicate_player");
  return null;
}

const filled = (value: string | null | undefined) => fold(value) !== "";

/**
 * The first player is the booking member, whose name and id come from the profile: only a cart is
 * needed. Each extra player needs a cart, a fee and a last name; a first name unless the type
 * shows last name and member id only (Member, Spouse, Dependent — the form has no first-name field
 * for them); and a member id unless a guest.
 */
export function isPlayerComplete(player: FlightPlayer, isFirst: boolean): boolean {
  if (!filled(player.type) || !filled(player.cart)) return false;
  if (isFirst) return true;
  if (!filled(player.fee) || !filled(player.lastName)) return false;
  if (!showsLastNameAndIdOnly(player.type) && !filled(player.firstName)) return false;
  return isGuestType(player.type) || filled(player.memberId);
}

/**
 * The first problem of a whole flight (first player = the booking member), or null. Order: size,
 * guests, minimum, the member added again, member duplicates, incomplete players.
 */
export function validateFlight(flight: readonly FlightPlayer[], limits: Pick<FlightLimits, "minPlayers" | "maxPlayers" | "maxGuests">, self: SelfIdentity): DomainProblem | null {
  if (flight.length > limits.maxPlayers) {
    return makeProblem("booking.max_players", { maxPlayers: limits.maxPlayers });
  }
  if (countGuests(flight) > limits.maxGuests) {
    return makeProblem("booking.max_guests", { maxGuests: limits.maxGuests });
  }
  if (flight.length < limits.minPlayers) {
    return makeProblem("booking.min_players", { minPlayers: limits.minPlayers });
  }
  if (flight.slice(1).some((p) => isSelf(p, self))) return makeProblem("booking.add_self");
  const hasDuplicate = flight.some((p, i) => flight.slice(i + 1).some((q) => isDuplicateMember(p, q)));
  if (hasDuplicate) return makeProblem("booking.duplicate_player");
  if (!flight.every((p, i) => isPlayerComplete(p, i === 0))) return makeProblem("booking.incomplete");
  return null;
}

/** Trims names, upper-cases the member id and gives Guest and Senior Care the id '0000'. */
export function normaliseSavedPlayer(player: SavedPlayer): SavedPlayer {
  return {
    firstName: player.firstName.trim(),
    lastName: player.lastName.trim(),
    type: player.type.trim(),
    memberId: isGuestType(player.type) ? GUEST_MEMBER_ID : normaliseMemberId(player.memberId),
    cartPreference: player.cartPreference.trim(),
    feePreference: player.feePreference.trim(),
  };
}

function checkSavedPlayer(player: SavedPlayer, allowedTypes: readonly string[]): DomainProblem | null {
  if (!isOneOf(player.type, allowedTypes)) return makeProblem("players.invalid_type", { type: player.type });
  if (!filled(player.lastName)) return makeProblem("players.incomplete");
  if (!showsLastNameAndIdOnly(player.type) && !filled(player.firstName)) return makeProblem("players.incomplete");
  if (!isGuestType(player.type) && !filled(player.memberId)) return makeProblem("players.member_id_required");
  return null;
}

/**
 * The first problem in a saved players list, checked after normaliseSavedPlayer: a type outside
 * `allowedTypes`, a missing last name (or first name for types that show one), a missing member
 * id for a non-guest, an exact duplicate of an earlier entry.
 */
export function validateSavedPlayers(list: readonly SavedPlayer[], allowedTypes: readonly string[] = PLAYER_TYPES): DomainProblem | null {
  const seen: SavedPlayer[] = [];
  for (const raw of list) {
    const player = normaliseSavedPlayer(raw);
    const problem = checkSavedPlayer(player, allowedTypes);
    if (problem) return problem;
    if (seen.some((p) => isSamePerson(p, player))) return makeProblem("players.duplicate");
    seen.push(player);
  }
  return null;
}

/** A saved player as a locked flight row. */
export function savedToFlightPlayer(player: SavedPlayer): FlightPlayer {
  const p = normaliseSavedPlayer(player);
  return {
    type: p.type,
    firstName: p.firstName,
    lastName: p.lastName,
    memberId: isGuestType(p.type) ? "" : p.memberId,
    cart: p.cartPreference,
    fee: p.feePreference,
    locked: true,
    fromSaved: true,
  };
}
