/**
 * Playing partners (decision 200), shared by the member's calls and the jobs: inviting a flight's
 * partners when a request or a watch names them, what a decline does to the flight before the
 * release, and the readiness findings (a partner who has not accepted a request that asks for
 * every answer; a member in two flights at overlapping times).
 */
import { and, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { bookingRequests, bookings, flightInvitations, slotWatches, users, type StoredPlayer } from "../db/schema.ts";
import { courseNameOf } from "../domain/booking-rules.ts";
import { findOverlaps, flightWithout, missingMinimum, TOLD_OF_BOOKING, type FlightOnDay, type Overlap } from "../domain/partners.ts";
import { isGuestType, normaliseMemberId } from "../domain/players.ts";
import { reason, type RequestReason } from "../domain/request-reasons.ts";
import { flagRequest, type RequestRow } from "../lifecycle/request-lifecycle.ts";
import { dropPartnerFromRequest, dropPartnerFromWatch, invitationsOfSources, syncInvitations, type FlightSource, type InvitationRow } from "../lifecycle/invitation-lifecycle.ts";
import type { DomainEvent } from "../domain/events.ts";
import type { Notifier } from "../realtime/notifier.ts";
import { readRules } from "./booking-config.service.ts";
import { displayName } from "./club-players.ts";

export interface PartnersDeps {
  database: { db: Db };
  notifier: Notifier;
  clock: { now(): number };
}

/** A flight as the invitations need it: where it comes from, when and where it plays, its players. */
export interface NamedFlight {
  source: Omit<FlightSource, "organiserMemberId">;
  courseId: string | null;
  time: string;
  players: readonly StoredPlayer[];
}

async function memberOf(db: Db, userId: number): Promise<{ name: string; memberId: string }> {
  const [row] = await db.select({ name: users.name, username: users.username, memberId: users.memberId }).from(users).where(eq(users.id, userId));
  return { name: row?.name || row?.username || "", memberId: row?.memberId ?? "" };
}

/**
 * Invites the partners a flight names (and cancels those it no longer names), and answers the
 * messages that tell each member whose invitations changed. A game already released asks nobody: an
 * answer could no longer change it, so its partners are stored unasked and told only if it is
 * booked. Written in the caller's transaction, with the flight itself, so the engine and the watch
 * job never see a flight without its invitations; the messages go once it has committed.
 */
export async function storeFlightInvitations(db: Db, flight: NamedFlight, now: number): Promise<DomainEvent[]> {
  const organiser = await memberOf(db, flight.source.organiserId);
  const sync = await syncInvitations(db, { ...flight.source, organiserMemberId: organiser.memberId }, flight.players, now);
  const schedule = (await readRules(db)).courseSchedule;
  const course = flight.courseId === null ? "" : courseNameOf(flight.courseId, schedule);
  const told = new Set(sync.invited.map((i) => i.inviteeId));
  return [
    ...sync.invited.map(
      (invitation): DomainEvent => ({
        type: "invitation_sent",
        userId: invitation.inviteeId,
        invitationId: invitation.id,
        organiser: organiser.name,
        course,
        date: flight.source.playDate,
        time: flight.time,
      }),
    ),
    ...sync.touchedUserIds.filter((userId) => !told.has(userId)).map((userId): DomainEvent => ({ type: "invitations_changed", userId })),
  ];
}

/** Sends the messages a stored change left to send, once it is committed. */
export function publishAll(notifier: Notifier, events: readonly (DomainEvent | null)[]): void {
  for (const event of events) notifier.publish(event);
}

const OPEN_REQUEST: readonly RequestRow["status"][] = ["pending", "held", "needs_attention"];

/**
 * Whether a request's partners can still answer: it waits for its release, and the release has
 * not come (by `now`, the club's clock where the caller reads it). A request stored at or after its
 * release is taken by the engine at once.
 */
export function isRequestAnswerable(request: Pick<RequestRow, "status" | "releaseAt">, now: number): boolean {
  return OPEN_REQUEST.includes(request.status) && request.releaseAt > now;
}

/**
 * The request's invitations brought in line with its flight, in the caller's transaction where it
 * writes the request (`now`: the instant its release is compared with; `writtenAt` stamps what is
 * written). A request already released that is to be sent only if every partner has accepted cannot
 * wait for answers nobody was asked for: it needs attention with the finding the readiness check
 * would make, so it is not sent and the check fails it with that cause. Answers the reason it was
 * held for, if it was (so the member can be told it was not sent), and the messages to send once
 * the transaction has committed.
 */
export async function storeRequestPartners(db: Db, request: RequestRow, now: number, writtenAt: number): Promise<{ heldFor: RequestReason | null; events: DomainEvent[] }> {
  const isAnswerable = isRequestAnswerable(request, now);
  const events = await storeFlightInvitations(
    db,
    {
      source: { kind: "request", id: request.id, organiserId: request.userId, playDate: request.playDate, isAnswerable },
      courseId: request.courseId,
      time: request.selection[0]?.time ?? "",
      players: request.players,
    },
    writtenAt,
  );
  if (isAnswerable || !request.partnersMustAccept || request.status !== "pending") return { heldFor: null, events };
  const why = (await partnerFindings(db, [request])).get(request.id);
  if (!why) return { heldFor: null, events };
  const flagged = await flagRequest(db, request.id, why, writtenAt);
  return flagged ? { heldFor: why, events: [...events, flagged] } : { heldFor: null, events };
}

/**
 * The watch's invitations brought in line with its flight, in the caller's transaction where it
 * writes the watch; asked while it still watches (read now: it may have booked since it was made).
 * The messages to send once committed.
 */
export async function storeWatchPartners(db: Db, watch: typeof slotWatches.$inferSelect, now: number): Promise<DomainEvent[]> {
  const [current] = await db.select({ status: slotWatches.status }).from(slotWatches).where(eq(slotWatches.id, watch.id));
  return storeFlightInvitations(
    db,
    {
      source: { kind: "watch", id: watch.id, organiserId: watch.userId, playDate: watch.playDate, isAnswerable: current?.status === "watching" },
      courseId: watch.courseId,
      time: watch.fromTime,
      players: watch.players,
    },
    now,
  );
}

/**
 * A partner declined: they leave the flight of a request not yet released, and a flight that then
 * falls below the minimum of the rule that applies needs attention with that reason. Slot watches
 * lose the partner too while they watch.
 */
export async function applyDecline(deps: PartnersDeps, invitation: InvitationRow): Promise<void> {
  const { db } = deps.database;
  const now = deps.clock.now();
  if (invitation.sourceKind === "watch") {
    const watch = await dropPartnerFromWatch(db, invitation.sourceId, (players) => flightWithout(players, [invitation.memberId]), now);
    if (watch) deps.notifier.publish({ type: "watch_made", userId: watch.userId, watchId: watch.id });
    return;
  }
  const [request] = await db.select().from(bookingRequests).where(eq(bookingRequests.id, invitation.sourceId));
  if (!request) return;
  const leaving = request.players.find((p) => !isGuestType(p.type) && normaliseMemberId(p.memberId) === invitation.memberId);
  const updated = await dropPartnerFromRequest(db, request.id, flightWithout(request.players, [invitation.memberId]), now);
  if (!updated) return;
  deps.notifier.publish({ type: "request_changed", userId: updated.userId, requestId: updated.id });
  const rules = await readRules(db);
  const minPlayers = missingMinimum(
    updated.players.length,
    { playDate: updated.playDate, time: updated.selection[0]?.time ?? "00:00" },
    rules.bookingRules.rules,
    rules.bookingRules.holidays,
  );
  if (minPlayers === null || updated.status !== "pending") return;
  const why = reason("partners.reason.declined_below_minimum", { name: leaving ? displayName(leaving) : invitation.memberId, minPlayers: String(minPlayers) });
  deps.notifier.publish(await flagRequest(db, updated.id, why, now));
}

/** The members a flight names (the organiser first), by membership number. */
function memberIdsOf(players: readonly StoredPlayer[]): string[] {
  return players.filter((p) => !isGuestType(p.type) && p.memberId.trim() !== "").map((p) => normaliseMemberId(p.memberId));
}

/** Every flight on the dates given that is not over: requests not yet settled, and bookings. */
async function flightsOn(db: Db, dates: string[]): Promise<FlightOnDay[]> {
  if (dates.length === 0) return [];
  const requests = await db
    .select({ id: bookingRequests.id, userId: bookingRequests.userId, playDate: bookingRequests.playDate, selection: bookingRequests.selection, players: bookingRequests.players })
    .from(bookingRequests)
    .where(and(inArray(bookingRequests.playDate, dates), inArray(bookingRequests.status, ["pending", "held", "needs_attention", "processing"])));
  const booked = await db
    .select({ ref: bookings.bookingRef, userId: bookings.userId, playDate: bookings.playDate, time: bookings.time, players: bookings.players })
    .from(bookings)
    .where(inArray(bookings.playDate, dates));
  return [
    ...requests.map((r) => ({ id: `request:${r.id}`, organiserId: r.userId, playDate: r.playDate, time: r.selection[0]?.time ?? "00:00", memberIds: memberIdsOf(r.players) })),
    ...booked.map((b) => ({ id: `booking:${b.userId}:${b.ref}`, organiserId: b.userId, playDate: b.playDate, time: b.time, memberIds: memberIdsOf(b.players) })),
  ];
}

/** The members of a flight being composed who are in another flight that day at an overlapping time. */
export async function overlapsOf(db: Db, organiserId: number, flight: { playDate: string; time: string; memberIds: string[]; requestId?: number }): Promise<Overlap[]> {
  const id = flight.requestId === undefined ? "composing" : `request:${flight.requestId}`;
  return findOverlaps({ id, organiserId, playDate: flight.playDate, time: flight.time, memberIds: flight.memberIds }, await flightsOn(db, [flight.playDate]));
}

/**
 * The readiness findings of partners for each request: a member of its flight in another flight
 * at an overlapping time that day, or (when the request asks for it) a partner who has not accepted.
 */
export async function partnerFindings(db: Db, requests: readonly RequestRow[]): Promise<Map<number, RequestReason | null>> {
  const out = new Map<number, RequestReason | null>();
  if (requests.length === 0) return out;
  const flights = await flightsOn(db, [...new Set(requests.map((r) => r.playDate))]);
  const invitations = await invitationsOfSources(
    db,
    "request",
    requests.filter((r) => r.partnersMustAccept).map((r) => r.id),
  );
  for (const request of requests) {
    const time = request.selection[0]?.time ?? "00:00";
    const [overlap] = findOverlaps(
      { id: `request:${request.id}`, organiserId: request.userId, playDate: request.playDate, time, memberIds: memberIdsOf(request.players) },
      flights,
    );
    if (overlap) {
      const player = request.players.find((p) => normaliseMemberId(p.memberId) === overlap.memberId);
      out.set(request.id, reason("partners.reason.overlap", { member: player ? `${displayName(player)} (${overlap.memberId})` : overlap.memberId, time: overlap.time }));
      continue;
    }
    // Not accepted: still to answer, or never asked (the request was released before they could be).
    const waiting = invitations.filter((i) => i.sourceId === request.id && (i.status === "pending" || i.status === "unasked"));
    if (request.partnersMustAccept && waiting.length > 0) {
      const names = waiting.map((i) => {
        const player = request.players.find((p) => normaliseMemberId(p.memberId) === i.memberId);
        return player ? displayName(player) : i.memberId;
      });
      out.set(request.id, reason("partners.reason.not_accepted", { names: names.join(", ") }));
      continue;
    }
    out.set(request.id, null);
  }
  return out;
}

export type BookingRow = typeof bookings.$inferSelect;

/** The organiser's booking each of a partner's invitations led to (accepted, or unasked as it was released), by invitation id. */
export async function bookingsOfInvitations(db: Db, invitations: readonly InvitationRow[]): Promise<Map<number, BookingRow>> {
  const out = new Map<number, BookingRow>();
  const accepted = invitations.filter((i) => TOLD_OF_BOOKING.includes(i.status));
  const requestIds = accepted.filter((i) => i.sourceKind === "request").map((i) => i.sourceId);
  const byRequest = requestIds.length === 0 ? [] : await db.select().from(bookings).where(inArray(bookings.requestId, requestIds));
  const watchIds = accepted.filter((i) => i.sourceKind === "watch").map((i) => i.sourceId);
  const watches =
    watchIds.length === 0
      ? []
      : await db.select({ id: slotWatches.id, userId: slotWatches.userId, ref: slotWatches.bookingRef }).from(slotWatches).where(inArray(slotWatches.id, watchIds));
  const watchRefs = watches.flatMap((w) => (w.ref ? [w.ref] : []));
  const byWatch = watchRefs.length === 0 ? [] : await db.select().from(bookings).where(inArray(bookings.bookingRef, watchRefs));
  for (const invitation of accepted) {
    const booking =
      invitation.sourceKind === "request"
        ? byRequest.find((b) => b.requestId === invitation.sourceId && b.userId === invitation.organiserId)
        : byWatch.find((b) => {
            const watch = watches.find((w) => w.id === invitation.sourceId);
            return watch !== undefined && b.userId === watch.userId && b.bookingRef === watch.ref;
          });
    if (booking) out.set(invitation.id, booking);
  }
  return out;
}

/** The bookings a member plays in as a partner who accepted (or was not asked as it was released), each with its organiser's name (their calendar feed, their Bookings page). */
export async function partnerBookingsOf(db: Db, userId: number, fromDate: string): Promise<{ booking: BookingRow; organiser: string }[]> {
  const invitations = await db
    .select()
    .from(flightInvitations)
    .where(and(eq(flightInvitations.inviteeId, userId), inArray(flightInvitations.status, [...TOLD_OF_BOOKING]), gte(flightInvitations.playDate, fromDate)));
  const booked = await bookingsOfInvitations(db, invitations);
  const organisers = await namesOf(db, [...new Set(invitations.map((i) => i.organiserId))]);
  return invitations.flatMap((i) => {
    const booking = booked.get(i.id);
    return booking ? [{ booking, organiser: organisers.get(i.organiserId) ?? "" }] : [];
  });
}

/** Members' names (their username when they have none), by user id. */
export async function namesOf(db: Db, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: users.name, username: users.username }).from(users).where(inArray(users.id, userIds));
  return new Map(rows.map((r) => [r.id, r.name || r.username]));
}
