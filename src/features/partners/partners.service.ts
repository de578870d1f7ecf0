/**
 * A member's playing partners (decision 200): the invitations they received and answer, the
 * answers to those they sent, whom they take invitations from, and the overlap check of a flight
 * being composed. A member only ever answers their own invitations.
 */
import { eq, inArray } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { bookingRequests, courses, slotWatches, users } from "../../db/schema.ts";
import { courseNameOf } from "../../domain/booking-rules.ts";
import { manilaDate } from "../../domain/manila-time.ts";
import type { InvitationAnswer, InvitationPolicy } from "../../domain/partners.ts";
import { normaliseMemberId } from "../../domain/players.ts";
import { textError } from "../../lib/errors.ts";
import { answerInvitation, findOwnInvitation, invitationsFrom, invitationsTo, type InvitationRow } from "../../lifecycle/invitation-lifecycle.ts";
import { displayName } from "../../services/club-players.ts";
import { applyDecline, bookingsOfInvitations, namesOf, overlapsOf } from "../../services/partners.ts";
import type { ReceivedInvitation, SentInvitation } from "./partners.schemas.ts";

export type PartnersFeatureDeps = Pick<AppDeps, "database" | "clock" | "notifier" | "logger">;

const OPEN_REQUEST = new Set(["pending", "held", "needs_attention"]);

/** Where and when each invitation's game is, and whether it is still open to answers. */
async function gamesOf(db: Db, invitations: readonly InvitationRow[]) {
  const requestIds = invitations.filter((i) => i.sourceKind === "request").map((i) => i.sourceId);
  const watchIds = invitations.filter((i) => i.sourceKind === "watch").map((i) => i.sourceId);
  const requests =
    requestIds.length === 0
      ? []
      : await db
          .select({
            id: bookingRequests.id,
            courseId: bookingRequests.courseId,
            selection: bookingRequests.selection,
            status: bookingRequests.status,
            players: bookingRequests.players,
          })
          .from(bookingRequests)
          .where(inArray(bookingRequests.id, requestIds));
  const watches =
    watchIds.length === 0
      ? []
      : await db
          .select({ id: slotWatches.id, courseId: slotWatches.courseId, fromTime: slotWatches.fromTime, status: slotWatches.status, players: slotWatches.players })
          .from(slotWatches)
          .where(inArray(slotWatches.id, watchIds));
  return (invitation: InvitationRow) => {
    if (invitation.sourceKind === "request") {
      const r = requests.find((x) => x.id === invitation.sourceId);
      return { courseId: r?.courseId ?? "", time: r?.selection[0]?.time ?? "", isOpen: r !== undefined && OPEN_REQUEST.has(r.status), players: r?.players ?? [] };
    }
    const w = watches.find((x) => x.id === invitation.sourceId);
    return { courseId: w?.courseId ?? "", time: w?.fromTime ?? "", isOpen: w?.status === "watching", players: w?.players ?? [] };
  };
}

/** The received invitations as the member's page shows them. */
async function receivedViews(db: Db, invitations: readonly InvitationRow[]): Promise<ReceivedInvitation[]> {
  const gameOf = await gamesOf(db, invitations);
  const booked = await bookingsOfInvitations(db, invitations);
  const organisers = await namesOf(db, [...new Set(invitations.map((i) => i.organiserId))]);
  const schedule = await db.select({ id: courses.id, name: courses.name }).from(courses);
  return invitations.map((invitation) => {
    const game = gameOf(invitation);
    const booking = booked.get(invitation.id);
    return {
      id: invitation.id,
      status: invitation.status,
      source: invitation.sourceKind,
      organiser: organisers.get(invitation.organiserId) ?? "",
      course: game.courseId === "" ? "" : courseNameOf(booking?.courseId ?? game.courseId, schedule),
      date: booking?.playDate ?? invitation.playDate,
      time: booking?.time ?? game.time,
      isOpen: invitation.status === "pending" && game.isOpen,
      booking: booking
        ? { bookingId: booking.bookingRef, course: courseNameOf(booking.courseId, schedule), date: booking.playDate, time: booking.time, players: booking.players.map(displayName) }
        : null,
    };
  });
}

/** The answers to the invitations the member sent, each beside the player the flight names (a declined one has left it: named by number). */
async function sentViews(db: Db, invitations: readonly InvitationRow[]): Promise<SentInvitation[]> {
  const gameOf = await gamesOf(db, invitations);
  const schedule = await db.select({ id: courses.id, name: courses.name }).from(courses);
  return invitations.map((i) => {
    const game = gameOf(i);
    return {
      id: i.id,
      source: i.sourceKind,
      sourceId: i.sourceId,
      memberId: i.memberId,
      name: i.playerName || i.memberId,
      status: i.status,
      course: game.courseId ? courseNameOf(game.courseId, schedule) : "",
      date: i.playDate,
      time: game.time,
    };
  });
}

/** GET /v1/my/invitations: from today (Manila) on; invitations the member refused by their setting are not theirs to see. */
export async function listInvitations(deps: PartnersFeatureDeps, userId: number) {
  const { db } = deps.database;
  const today = manilaDate(deps.clock.now());
  const [user] = await db.select({ from: users.invitationsFrom }).from(users).where(eq(users.id, userId));
  const received = (await invitationsTo(db, userId, today)).filter((i) => i.status !== "refused");
  return {
    from: user?.from ?? "anyone",
    received: await receivedViews(db, received),
    sent: await sentViews(db, await invitationsFrom(db, userId, today)),
  };
}

/** Why an answer was not taken: the invitation as it stands says so. */
function refusalOf(current: InvitationRow) {
  if (current.status === "cancelled") return textError(409, "partners.error.cancelled");
  if (current.status === "refused") return textError(409, "partners.error.refused");
  if (current.status === "accepted" || current.status === "declined") return textError(409, "partners.error.answered");
  return textError(409, "partners.error.released");
}

/**
 * POST /v1/my/invitations/{id}/answer. Another member's invitation is not found (404); one
 * answered, withdrawn or whose game is released is a conflict (409). A decline takes the partner
 * out of the flight before the release.
 */
export async function answerOwnInvitation(deps: PartnersFeatureDeps, userId: number, id: number, answer: InvitationAnswer): Promise<ReceivedInvitation> {
  const { db } = deps.database;
  const own = await findOwnInvitation(db, id, userId);
  if (!own) throw textError(404, "partners.error.not_found");
  const answered = await answerInvitation(db, id, userId, answer, deps.clock.now());
  if (!answered) {
    const current = await findOwnInvitation(db, id, userId);
    throw current ? refusalOf(current) : textError(404, "partners.error.not_found");
  }
  deps.logger.info("invitation answered", { invitationId: id, userId, answer });
  if (answer === "declined") await applyDecline(deps, answered);
  deps.notifier.publish({ type: "invitations_changed", userId });
  deps.notifier.publish({ type: "invitations_changed", userId: answered.organiserId });
  const [view] = await receivedViews(db, [answered]);
  return view;
}

/** PUT /v1/my/invitations/settings: applies to invitations from now on. */
export async function saveInvitationSetting(deps: PartnersFeatureDeps, userId: number, from: InvitationPolicy): Promise<{ from: InvitationPolicy }> {
  await deps.database.db.update(users).set({ invitationsFrom: from, updatedAt: deps.clock.now() }).where(eq(users.id, userId));
  deps.notifier.publish({ type: "invitations_changed", userId });
  return { from };
}

/** GET /v1/my/partners/overlaps: the members named (the member themself among them) already in another member's flight then. */
export async function flightOverlaps(deps: PartnersFeatureDeps, userId: number, query: { date: string; time: string; memberIds: string[]; requestId?: number }) {
  const memberIds = [...new Set(query.memberIds.map(normaliseMemberId))];
  const found = await overlapsOf(deps.database.db, userId, { playDate: query.date, time: query.time, memberIds, requestId: query.requestId });
  // Which flight it is stays private to its organiser: the member learns only that and when.
  return found.map(({ memberId, time }) => ({ memberId, time }));
}
