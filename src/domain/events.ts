/**
 * What happened in Teebox, as the domain says it: each event names what changed. A lifecycle
 * transition returns the event it implies (src/lifecycle), a service or job raises the others, and
 * the notifier (src/realtime/notifier.ts) turns each into what members are told: the resources
 * their screens reload (src/domain/resources.ts), a toast, a notification and its email.
 * Plain types: no I/O.
 */
import type { RequestReason } from "./request-reasons.ts";

/**
 * Which submission of a request an event is about: its id and when it was submitted (an edit
 * submits it again under the same id, so a failure after an edit is a new event).
 */
export interface RequestOccurrence {
  requestId: number;
  submittedAt: number;
}

export type DomainEvent =
  // ── a member's requests ──
  /** The member stored a request, or replaced one of theirs. */
  | { type: "request_submitted"; userId: number; requestId: number }
  /** A request's state changed with nothing to tell the member but the change: held, let go again, its problem gone, its phase. */
  | { type: "request_changed"; userId: number; requestId: number }
  /** An admin moved the release time: `count` of the member's waiting requests follow it. */
  | { type: "requests_moved"; userId: number; count: number }
  /** `partners`: the other members whose invitations to it were cancelled with it. */
  | { type: "request_cancelled"; userId: number; requestId: number; partners?: number[] }
  | ({ type: "request_failed"; userId: number; course: string; date: string; reason: RequestReason } & RequestOccurrence)
  /** A request needs attention (the readiness check found a problem, or a release could not tell): `reason` says which. */
  | ({ type: "needs_attention"; userId: number; course: string; date: string; time?: string; reason?: RequestReason } & RequestOccurrence)
  // ── a member's bookings ──
  /** A request booked (the release engine, or the sync settling one that needed attention). */
  | {
      type: "booking_confirmed";
      userId: number;
      course: string;
      date: string;
      time: string;
      ref: string;
      requestId?: number;
      /** The partners who accepted (or were not asked as it was released), each told they play with the organiser (named here). */
      partners?: { userIds: number[]; organiser: string };
    }
  /** The member cancelled their own booking in Teebox. */
  | { type: "booking_cancelled"; userId: number; ref: string }
  /** An edit changed a booking: its players, or moved it to the booking `ref`. */
  | { type: "booking_edited"; userId: number; ref: string }
  /** The bookings sync applied the club's list of the member's bookings, and it changed theirs. */
  | { type: "club_bookings_synced"; userId: number }
  /** The bookings sync found a confirmed booking gone from the club's list: cancelled on the club's site. */
  | { type: "club_booking_cancelled"; userId: number; ref: string; course: string; date: string; time: string }
  /** The bookings sync found a confirmed booking moved or its players changed on the club's site (read at `readAt`). */
  | { type: "club_booking_changed"; userId: number; ref: string; course: string; date: string; time: string; readAt: number }
  // ── a member's slot watches ──
  | { type: "watch_made"; userId: number; watchId: number }
  /** A watch ended: cancelled, its date gone by, its upgrade's booking gone, its login refused. */
  | { type: "watch_ended"; userId: number; watchId: number; partners?: number[] }
  /** A slot watch booked a freed tee time for the member (a watch books once). */
  | {
      type: "watch_booked";
      userId: number;
      watchId: number;
      course: string;
      date: string;
      time?: string;
      reason?: RequestReason;
      /** The booking's reference, and the partners who accepted or were not asked (each told they play with the organiser). */
      ref?: string;
      partners?: { userIds: number[]; organiser: string };
    }
  /** A slot watch ("tell me only") found a freed tee time (a watch finds once). */
  | { type: "watch_found"; userId: number; watchId: number; course: string; date: string; time?: string; reason?: RequestReason }
  // ── a member's standing requests ──
  /** The member made, changed or ended a standing request, or one of its dates changed (queued, skipped, its own times). */
  | { type: "series_changed"; userId: number; seriesId: number }
  /** A date of a standing request could not be queued (a rule, a closed course, a limit): `reason` (a UI-text key) says why. */
  | { type: "series_needs_attention"; userId: number; seriesId: number; course: string; date: string; reason: { key: string; context: Record<string, string> } }
  // ── playing partners ──
  /** A flight named the member, who takes invitations from its organiser: they are asked to play. */
  | { type: "invitation_sent"; userId: number; invitationId: number; organiser: string; course: string; date: string; time: string }
  /** Invitations the member received or sent changed (answered, cancelled, refused, the flight changed). */
  | { type: "invitations_changed"; userId: number }
  /** A partner who accepted is in a flight the club booked. */
  | { type: "partner_booked"; userId: number; organiser: string; course: string; date: string; time: string; ref: string }
  // ── a member's own records ──
  | { type: "players_saved"; userId: number }
  | { type: "profile_saved"; userId: number }
  /** An admin changed the member's account (name, member id, club email, role). */
  | { type: "account_changed"; userId: number }
  | { type: "notifications_read"; userId: number }
  // ── what every member sees ──
  /** A scrape stored what changed at the club: its tee sheets, its advisories, or both. */
  | { type: "club_read"; sheets: boolean; advisories: boolean }
  /** An admin saved the app settings. */
  | { type: "settings_saved" }
  /** An admin changed the club's configuration: courses, booking windows, holidays, rules, or the announcements. */
  | { type: "club_config_changed"; part: "courses" | "windows" | "holidays" | "rules" | "announcements" }
  /** The editable UI text changed. */
  | { type: "texts_changed" };

export type DomainEventOf<T extends DomainEvent["type"]> = Extract<DomainEvent, { type: T }>;
