/**
 * What a member is told about, beyond the live screen: the kinds of notification, each recorded in
 * the member's in-app list and, when the member's switch for it is on, sent by email. Pure: the
 * web app reads the kinds for the profile's switches.
 */
export const NOTIFICATION_KINDS = [
  /** A request booked at the release instant. */
  "request_confirmed",
  /** A request that could not be booked, with the reason. */
  "request_failed",
  /** A slot watch booked a freed tee time. */
  "watch_booked",
  /** A slot watch ("tell me only") found a freed tee time. */
  "watch_found",
  /** The readiness check found a problem with a pending request. */
  "needs_attention",
  /** A confirmed booking went from the club's site (cancelled there). */
  "booking_cancelled",
  /** A confirmed booking was moved or its players changed on the club's site. */
  "booking_changed",
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export function isNotificationKind(value: string): value is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

/** The UI-text key of a kind's line in the list (and the body of its email). */
export const notificationTextKey = (kind: NotificationKind) => `notifications.text.${kind}` as const;
/** The UI-text key of a kind's email subject. */
export const notificationSubjectKey = (kind: NotificationKind) => `notifications.subject.${kind}` as const;
/** The UI-text key of a kind's switch on the profile page. */
export const notificationSwitchKey = (kind: NotificationKind) => `notifications.switch.${kind}` as const;

/** Email is on for every kind until the member switches it off. */
export const DEFAULT_EMAIL_SWITCH = true;

/** Newest first, at most this many per page of the list. */
export const NOTIFICATIONS_PAGE_MAX = 50;
export const NOTIFICATIONS_PAGE_DEFAULT = 20;
/** Kept per member; older ones are dropped as new ones arrive. */
export const NOTIFICATIONS_KEPT_PER_MEMBER = 200;

/** States of a message in the outbox. */
export const MAIL_STATES = ["queued", "sent", "failed"] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** The note an outbox message carries while Teebox has no SMTP server to send it through. */
export const NO_SMTP_NOTE = "not sent: no SMTP configured";
