/**
 * Contracts of the playing partners' answers (decision 200), read by the web app too (zod/mini
 * keeps its bundle small): GET /v1/my/invitations, an answer, the setting, the overlap check.
 */
import * as z from "../../domain/zod-mini.ts";
import { INVITATION_POLICIES, INVITATION_SOURCES, INVITATION_STATUSES } from "../../domain/partners.ts";

/** The organiser's booking a partner plays in, read only for them. */
export const partnerBookingSchema = z.object({
  bookingId: z.string(),
  course: z.string(),
  date: z.string(),
  time: z.string(),
  players: z.array(z.string()),
});

/** An invitation the member received. */
export const receivedInvitationSchema = z.object({
  id: z.number(),
  status: z.enum(INVITATION_STATUSES),
  source: z.enum(INVITATION_SOURCES),
  /** Who invites: the organiser's name. */
  organiser: z.string(),
  course: z.string(),
  date: z.string(),
  /** The first-choice tee time (a watch: the start of its range), or the booked one. */
  time: z.string(),
  /** Whether it can still be answered: pending, and its game not released. */
  isOpen: z.boolean(),
  /** Once the club booked the game, and the member had accepted. */
  booking: z.nullable(partnerBookingSchema),
});
export type ReceivedInvitation = z.infer<typeof receivedInvitationSchema>;

/** An answer to an invitation the member sent, beside the player it names. */
export const sentInvitationSchema = z.object({
  id: z.number(),
  source: z.enum(INVITATION_SOURCES),
  sourceId: z.number(),
  memberId: z.string(),
  /** The player's name as the flight names them (their membership number once they left it). */
  name: z.string(),
  status: z.enum(INVITATION_STATUSES),
  course: z.string(),
  date: z.string(),
  time: z.string(),
});
export type SentInvitation = z.infer<typeof sentInvitationSchema>;

/** GET /v1/my/invitations. */
export const invitationsResponseSchema = z.object({
  /** Whom the member takes invitations from. */
  from: z.enum(INVITATION_POLICIES),
  received: z.array(receivedInvitationSchema),
  sent: z.array(sentInvitationSchema),
});
export type InvitationsResponse = z.infer<typeof invitationsResponseSchema>;

/** POST /v1/my/invitations/{id}/answer. */
export const answerResponseSchema = z.object({ invitation: receivedInvitationSchema });

/** PUT /v1/my/invitations/settings. */
export const invitationSettingResponseSchema = z.object({ from: z.enum(INVITATION_POLICIES) });

/** GET /v1/my/partners/overlaps: the members of a flight being composed already in another flight then. */
export const overlapsResponseSchema = z.object({
  overlaps: z.array(z.object({ memberId: z.string(), time: z.string() })),
});
export type OverlapsResponse = z.infer<typeof overlapsResponseSchema>;
