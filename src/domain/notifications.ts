/**
 * What a member is told about, beyond the live screen: the kinds of notification, and how each
 * reaches the member (the channels: the in-app list, a push to their devices, an email), each
 * switched per kind by the member. Pure: the web app reads the kinds for the profile's switches.
 *
 * A new kind is one line in NOTIFICATION_KINDS, its delivery in PUSH_DELIVERY, and its texts
 * (src/domain/ui-text/notifications.ts); the type check names each place it is missing from.
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
  /** Another member named the member as a playing partner and asks for an answer. */
  "partner_invited",
  /** A game the member accepted was booked: they play with its organiser. */
  "partner_booked",
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

/** The UI-text key of a kind's push title (its body is the kind's line). */
export const notificationPushTitleKey = (kind: NotificationKind) => `notifications.push_title.${kind}` as const;

/**
 * The ways a notification reaches its member, each switched per kind (decision 186): listed under
 * the bell as unread, pushed to the devices where the member turned push on, emailed.
 */
export const NOTIFICATION_CHANNELS = ["inApp", "push", "email"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type ChannelSwitches = Record<NotificationChannel, boolean>;

/**
 * Every channel is on for every kind until the member switches it off. Push on by default reaches
 * nothing until the member turns push on for a device, which is the choice that counts.
 */
export const DEFAULT_CHANNELS: Readonly<ChannelSwitches> = { inApp: true, push: true, email: true };

/**
 * How urgent a push is for the phone (the Web Push `Urgency`): `high` wakes a sleeping phone at
 * once, `normal` may wait for it to wake.
 */
export type PushUrgency = "very-low" | "low" | "normal" | "high";

export interface PushDelivery {
  /** The app's page a tap on the notification opens. */
  page: "/bookings" | "/book";
  urgency: PushUrgency;
  /** How long a push service keeps it for a phone that is off (the Web Push `TTL`); Teebox stops retrying then too. */
  ttlSeconds: number;
}

const HOUR = 3600;

/**
 * Each kind's push: a booking or a failure is news the member waits for (urgent, kept a day); a
 * freed tee time is worth something only while it is free (urgent, kept 30 minutes); what happened
 * on the club's site and a problem found before a release can wait for the phone to wake.
 */
export const PUSH_DELIVERY: Readonly<Record<NotificationKind, PushDelivery>> = {
  request_confirmed: { page: "/bookings", urgency: "high", ttlSeconds: 24 * HOUR },
  request_failed: { page: "/bookings", urgency: "high", ttlSeconds: 24 * HOUR },
  watch_booked: { page: "/bookings", urgency: "high", ttlSeconds: 24 * HOUR },
  watch_found: { page: "/book", urgency: "high", ttlSeconds: HOUR / 2 },
  needs_attention: { page: "/bookings", urgency: "normal", ttlSeconds: 12 * HOUR },
  booking_cancelled: { page: "/bookings", urgency: "normal", ttlSeconds: 24 * HOUR },
  booking_changed: { page: "/bookings", urgency: "normal", ttlSeconds: 24 * HOUR },
  // The Bookings page is where the partner answers; an answer matters until the release.
  partner_invited: { page: "/bookings", urgency: "normal", ttlSeconds: 24 * HOUR },
  partner_booked: { page: "/bookings", urgency: "normal", ttlSeconds: 24 * HOUR },
};

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
