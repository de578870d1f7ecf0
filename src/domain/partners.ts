/**
 * Playing partners (decision 200): the flight players who are Teebox members, found by membership
 * number, are invited to the game a request or a slot watch names them in, and answer. Pure rules
 * shared by the server and the web: who is invited, who takes invitations from whom, what a
 * decline leaves of a flight, and when two flights of one member overlap.
 */
import { findApplicableLimits, type BookingRule, type Holiday } from "./booking-rules.ts";
import { minutesOf } from "./manila-time.ts";
import { isGuestType, normaliseMemberId } from "./players.ts";

/** What names the partners: a dated request (a standing request's date is one too), or a slot watch. */
export const INVITATION_SOURCES = ["request", "watch"] as const;
export type InvitationSource = (typeof INVITATION_SOURCES)[number];

/**
 * pending: waiting for the partner's answer; accepted, declined: answered; refused: not sent, the
 * partner takes no invitations from this organiser; unasked: not sent, the game was released
 * before the partner could answer (a late request, an edit as the release runs, a watch that
 * booked meanwhile): they are told if it is booked; cancelled: the organiser dropped the partner,
 * or cancelled the game.
 */
export const INVITATION_STATUSES = ["pending", "accepted", "declined", "refused", "unasked", "cancelled"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** The partners told when the game is booked, and who see it read only: those who accepted, and those it was released before they could be asked. */
export const TOLD_OF_BOOKING: readonly InvitationStatus[] = ["accepted", "unasked"];

/** A partner's answer, as the invitation routes take it. */
export const INVITATION_ANSWERS = ["accepted", "declined"] as const;
export type InvitationAnswer = (typeof INVITATION_ANSWERS)[number];

/** Whom a member takes invitations from (a Profile setting): anyone, only members on their saved players list, nobody. */
export const INVITATION_POLICIES = ["anyone", "saved", "nobody"] as const;
export type InvitationPolicy = (typeof INVITATION_POLICIES)[number];
export const DEFAULT_INVITATION_POLICY: InvitationPolicy = "anyone";

export function isInvitationPolicy(value: unknown): value is InvitationPolicy {
  return typeof value === "string" && (INVITATION_POLICIES as readonly string[]).includes(value);
}

/**
 * How long a round keeps a member on the course: two tee times of one member on one day closer
 * than this are two places at once. An 18-hole round at the club takes four and a half to five
 * hours; five hours is the bound (docs/limits.md).
 */
export const ROUND_LENGTH_MINUTES = 300;

/** The players of a flight the invitation rules need. */
export interface PartnerPlayer {
  type: string;
  memberId: string;
}

/**
 * The membership numbers of the flight's players a request invites: every player but the first
 * (the organiser) who is not a guest and has a membership number other than the organiser's, each once.
 */
export function partnerMemberIds(players: readonly PartnerPlayer[], organiserMemberId: string): string[] {
  const self = normaliseMemberId(organiserMemberId);
  const out: string[] = [];
  for (const player of players.slice(1)) {
    if (isGuestType(player.type)) continue;
    const id = normaliseMemberId(player.memberId);
    if (id === "" || id === self || out.includes(id)) continue;
    out.push(id);
  }
  return out;
}

/** Whether a member with `policy` takes an invitation from the organiser (their saved players' membership numbers given). */
export function takesInvitationFrom(policy: InvitationPolicy, organiserMemberId: string, savedMemberIds: readonly string[]): boolean {
  if (policy === "anyone") return true;
  if (policy === "nobody") return false;
  const organiser = normaliseMemberId(organiserMemberId);
  return organiser !== "" && savedMemberIds.some((id) => normaliseMemberId(id) === organiser);
}

/** The flight without the players who declined (the organiser, first, always stays). */
export function flightWithout<P extends PartnerPlayer>(players: readonly P[], declinedMemberIds: readonly string[]): P[] {
  const declined = new Set(declinedMemberIds.map(normaliseMemberId));
  return players.filter((player, i) => i === 0 || isGuestType(player.type) || !declined.has(normaliseMemberId(player.memberId)));
}

/**
 * The minimum of players the rule applying to the date and time asks for, when a flight of
 * `count` players falls short of it; null when it does not.
 */
export function missingMinimum(count: number, at: { playDate: string; time: string }, rules: readonly BookingRule[], holidays: readonly Holiday[]): number | null {
  const { minPlayers } = findApplicableLimits(rules, holidays, at.playDate, at.time);
  return count < minPlayers ? minPlayers : null;
}

/** Whether two tee times on one day are closer than a round (ROUND_LENGTH_MINUTES). */
export function teeTimesOverlap(a: string, b: string, roundMinutes = ROUND_LENGTH_MINUTES): boolean {
  return Math.abs(minutesOf(a) - minutesOf(b)) < roundMinutes;
}

/** A flight as the overlap rule sees it: its date, its (first-choice) tee time and its members. */
export interface FlightOnDay {
  /** What it is, for the finding: `request:12`, `booking:AB12`, `watch:3`. */
  id: string;
  playDate: string;
  time: string;
  /** Who organised it (their user id): one organiser's own flights are not compared. */
  organiserId: number;
  memberIds: readonly string[];
}

export interface Overlap {
  memberId: string;
  /** The other flight, and its tee time. */
  otherId: string;
  time: string;
}

/**
 * The members of `flight` who are in another of `others` on the same day at an overlapping time,
 * each with the first such flight. A flight is never its own overlap, and flights of one organiser
 * are not compared: a member may queue a fallback beside a request, or an upgrade beside a booking.
 */
export function findOverlaps(flight: FlightOnDay, others: readonly FlightOnDay[]): Overlap[] {
  const out: Overlap[] = [];
  for (const raw of flight.memberIds) {
    const memberId = normaliseMemberId(raw);
    if (memberId === "") continue;
    const other = others.find(
      (o) =>
        o.id !== flight.id &&
        o.organiserId !== flight.organiserId &&
        o.playDate === flight.playDate &&
        teeTimesOverlap(o.time, flight.time) &&
        o.memberIds.some((id) => normaliseMemberId(id) === memberId),
    );
    if (other && !out.some((o) => o.memberId === memberId)) out.push({ memberId, otherId: other.id, time: other.time });
  }
  return out;
}

/** The invitation kept this long after its game's date (or its last change), then the retention pass removes it. */
export const INVITATIONS_KEPT_DAYS = 60;
