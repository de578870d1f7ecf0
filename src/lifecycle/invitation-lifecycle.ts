/**
 * The one owner of playing partners' invitations (decision 200). Every change of an invitation's
 * status is a conditional write here, so a partner's two tabs answering at once, or an answer
 * racing the organiser's cancel, can never both win:
 *
 *   (named) ──► pending ──► accepted | declined        (the partner answers, while the game is not released)
 *   (named) ──► refused                                 (the partner takes no invitations from the organiser)
 *   (named) ──► unasked                                 (the game is released already: no question, told if booked)
 *   pending | accepted | declined | refused | unasked ──► cancelled   (the organiser drops the partner or cancels the game)
 *   cancelled | declined | unasked ──► pending          (the organiser names the partner again, before the release)
 *
 * Partners are found by membership number among active members other than the organiser.
 */
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { bookingRequests, flightInvitations, savedPlayers, slotWatches, users, type StoredPlayer } from "../db/schema.ts";
import { isGuestType, normaliseMemberId } from "../domain/players.ts";
import { partnerMemberIds, takesInvitationFrom, TOLD_OF_BOOKING, type InvitationAnswer, type InvitationSource, type InvitationStatus } from "../domain/partners.ts";

export type InvitationRow = typeof flightInvitations.$inferSelect;

export interface InvitationSourceRef {
  kind: InvitationSource;
  id: number;
}

export interface FlightSource extends InvitationSourceRef {
  organiserId: number;
  organiserMemberId: string;
  playDate: string;
  /** The game can still be answered (not released): partners newly named are asked; otherwise they are not. */
  isAnswerable: boolean;
}

/** What naming a flight's players changed: the invitations newly sent, and every member whose invitations changed. */
export interface InvitationSync {
  invited: InvitationRow[];
  touchedUserIds: number[];
}

/** The active members (other than the organiser) whose membership numbers the flight names. */
async function membersNamed(db: Db, memberIds: string[], organiserId: number) {
  if (memberIds.length === 0) return [];
  const rows = await db
    .select({ id: users.id, memberId: users.memberId, policy: users.invitationsFrom })
    .from(users)
    .where(and(inArray(sql`upper(trim(${users.memberId}))`, memberIds), eq(users.status, "active"), ne(users.id, organiserId)));
  return rows.map((r) => ({ ...r, memberId: normaliseMemberId(r.memberId) }));
}

async function savedMemberIdsOf(db: Db, userId: number): Promise<string[]> {
  const rows = await db.select({ memberId: savedPlayers.memberId }).from(savedPlayers).where(eq(savedPlayers.userId, userId));
  return rows.map((r) => r.memberId);
}

const sourceIs = (source: InvitationSourceRef) => and(eq(flightInvitations.sourceKind, source.kind), eq(flightInvitations.sourceId, source.id));

/**
 * Brings a source's invitations in line with its flight: the partners it names are invited (or
 * refused, by their setting; or, when the game is released already, stored unasked), those it no
 * longer names are cancelled, those named again invited afresh. A partner's answer stands while
 * the flight keeps naming them.
 */
export async function syncInvitations(
  db: Db,
  source: FlightSource,
  players: readonly Pick<StoredPlayer, "type" | "memberId" | "firstName" | "lastName">[],
  now: number,
): Promise<InvitationSync> {
  const named = await membersNamed(db, partnerMemberIds(players, source.organiserMemberId), source.organiserId);
  const existing = await db.select().from(flightInvitations).where(sourceIs(source));
  const invited: InvitationRow[] = [];
  const touched = new Set<number>();
  const nameOf = (memberId: string) => {
    const player = players.find((p) => !isGuestType(p.type) && normaliseMemberId(p.memberId) === memberId);
    return player ? [player.firstName, player.lastName].filter((s) => s.trim() !== "").join(" ") : "";
  };
  for (const member of named) {
    const policy = member.policy;
    const isWelcome = policy === "anyone" || takesInvitationFrom(policy, source.organiserMemberId, policy === "saved" ? await savedMemberIdsOf(db, member.id) : []);
    const status: InvitationStatus = !isWelcome ? "refused" : source.isAnswerable ? "pending" : "unasked";
    const row = existing.find((r) => r.inviteeId === member.id);
    // A question asked or answered before stands (an answer racing the release gets its 409 there).
    const stands = row && (row.status === status || (isWelcome && (row.status === "pending" || row.status === "accepted")));
    if (row && stands) {
      if (row.playDate !== source.playDate) await db.update(flightInvitations).set({ playDate: source.playDate, updatedAt: now }).where(eq(flightInvitations.id, row.id));
      continue;
    }
    const [written] = row
      ? await db
          .update(flightInvitations)
          .set({ status, memberId: member.memberId, playerName: nameOf(member.memberId), playDate: source.playDate, answeredAt: null, updatedAt: now })
          .where(eq(flightInvitations.id, row.id))
          .returning()
      : await db
          .insert(flightInvitations)
          .values({
            sourceKind: source.kind,
            sourceId: source.id,
            organiserId: source.organiserId,
            inviteeId: member.id,
            memberId: member.memberId,
            playerName: nameOf(member.memberId),
            status,
            playDate: source.playDate,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning();
    if (!written) continue;
    touched.add(source.organiserId);
    if (status === "pending") invited.push(written);
    // A refused one is not theirs to see; an unasked one is listed (not asked), so their page follows.
    if (status !== "refused") touched.add(member.id);
  }
  const kept = new Set(named.map((m) => m.id));
  const dropped = existing.filter((r) => !kept.has(r.inviteeId) && r.status !== "cancelled").map((r) => r.id);
  if (dropped.length > 0) {
    const rows = await db
      .update(flightInvitations)
      .set({ status: "cancelled", updatedAt: now })
      .where(inArray(flightInvitations.id, dropped))
      .returning({ inviteeId: flightInvitations.inviteeId });
    for (const r of rows) touched.add(r.inviteeId);
    touched.add(source.organiserId);
  }
  return { invited, touchedUserIds: [...touched] };
}

/** The game was cancelled (or its date withdrawn): every invitation of it is cancelled. The members whose invitations changed. */
export async function cancelInvitationsOf(db: Db, source: InvitationSourceRef, now: number): Promise<number[]> {
  const rows = await db
    .update(flightInvitations)
    .set({ status: "cancelled", updatedAt: now })
    .where(and(sourceIs(source), ne(flightInvitations.status, "cancelled")))
    .returning({ inviteeId: flightInvitations.inviteeId, organiserId: flightInvitations.organiserId });
  return [...new Set(rows.map((r) => r.inviteeId))];
}

/** The game an invitation is for is not released yet: its request waits, or its watch watches. */
const isSourceOpen = sql`(
  (${flightInvitations.sourceKind} = 'request' AND EXISTS (SELECT 1 FROM ${bookingRequests} WHERE ${bookingRequests.id} = ${flightInvitations.sourceId} AND ${bookingRequests.status} IN ('pending', 'held', 'needs_attention')))
  OR (${flightInvitations.sourceKind} = 'watch' AND EXISTS (SELECT 1 FROM ${slotWatches} WHERE ${slotWatches.id} = ${flightInvitations.sourceId} AND ${slotWatches.status} = 'watching'))
)`;

/**
 * pending → accepted | declined: the partner's answer, in one write conditional on the game not
 * being released, so an answer racing the release or another answer never both win. Null when it
 * is not theirs, not pending any more, or its game is released.
 */
export async function answerInvitation(db: Db, id: number, inviteeId: number, answer: InvitationAnswer, now: number): Promise<InvitationRow | null> {
  const [row] = await db
    .update(flightInvitations)
    .set({ status: answer, answeredAt: now, updatedAt: now })
    .where(and(eq(flightInvitations.id, id), eq(flightInvitations.inviteeId, inviteeId), eq(flightInvitations.status, "pending"), isSourceOpen))
    .returning();
  return row ?? null;
}

/** Whether the game an invitation is for is not released yet. */
export async function isInvitationOpen(db: Db, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: flightInvitations.id })
    .from(flightInvitations)
    .where(and(eq(flightInvitations.id, id), isSourceOpen));
  return row !== undefined;
}

/** The partners told of a source's booking (those who accepted, and those not asked as it was released), and the organiser's name they play with (undefined: none). */
export async function partnersToTellOf(db: Db, source: InvitationSourceRef, organiserId: number): Promise<{ userIds: number[]; organiser: string } | undefined> {
  const told = await db
    .select({ inviteeId: flightInvitations.inviteeId })
    .from(flightInvitations)
    .where(and(sourceIs(source), inArray(flightInvitations.status, [...TOLD_OF_BOOKING])));
  if (told.length === 0) return undefined;
  const [organiser] = await db.select({ name: users.name, username: users.username }).from(users).where(eq(users.id, organiserId));
  return { userIds: told.map((i) => i.inviteeId), organiser: organiser?.name || organiser?.username || "" };
}

/** A partner's own invitation (null: none of theirs by that id). */
export async function findOwnInvitation(db: Db, id: number, inviteeId: number): Promise<InvitationRow | null> {
  const [row] = await db
    .select()
    .from(flightInvitations)
    .where(and(eq(flightInvitations.id, id), eq(flightInvitations.inviteeId, inviteeId)));
  return row ?? null;
}

export async function invitationsOfSources(db: Db, kind: InvitationSource, ids: number[]): Promise<InvitationRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(flightInvitations)
    .where(and(eq(flightInvitations.sourceKind, kind), inArray(flightInvitations.sourceId, ids)))
    .orderBy(asc(flightInvitations.id));
}

/** The invitations a member received for games on or after `fromDate`, not cancelled, oldest game first. */
export async function invitationsTo(db: Db, inviteeId: number, fromDate: string): Promise<InvitationRow[]> {
  return db
    .select()
    .from(flightInvitations)
    .where(and(eq(flightInvitations.inviteeId, inviteeId), sql`${flightInvitations.playDate} >= ${fromDate}`, ne(flightInvitations.status, "cancelled")))
    .orderBy(asc(flightInvitations.playDate), asc(flightInvitations.id));
}

/** The invitations a member sent for games on or after `fromDate`, not cancelled. */
export async function invitationsFrom(db: Db, organiserId: number, fromDate: string): Promise<InvitationRow[]> {
  return db
    .select()
    .from(flightInvitations)
    .where(and(eq(flightInvitations.organiserId, organiserId), sql`${flightInvitations.playDate} >= ${fromDate}`, ne(flightInvitations.status, "cancelled")))
    .orderBy(asc(flightInvitations.playDate), asc(flightInvitations.id));
}

/** A partner who declined leaves the request's flight while it is not released (pending, held or needing attention). The request as it now is. */
export async function dropPartnerFromRequest(db: Db, requestId: number, players: StoredPlayer[], now: number) {
  const [row] = await db
    .update(bookingRequests)
    .set({ players, updatedAt: now })
    .where(and(eq(bookingRequests.id, requestId), inArray(bookingRequests.status, ["pending", "held", "needs_attention"])))
    .returning();
  return row ?? null;
}

/** A partner who declined leaves the flight of a watch that still watches. The watch as it now is. */
export async function dropPartnerFromWatch(db: Db, watchId: number, without: (players: StoredPlayer[]) => StoredPlayer[], now: number) {
  const [watch] = await db.select().from(slotWatches).where(eq(slotWatches.id, watchId));
  if (watch?.status !== "watching") return null;
  const [row] = await db
    .update(slotWatches)
    .set({ players: without(watch.players), updatedAt: now })
    .where(and(eq(slotWatches.id, watchId), eq(slotWatches.status, "watching")))
    .returning();
  return row ?? null;
}
