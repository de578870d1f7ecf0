/**
 * Every table of Teebox. Times are epoch milliseconds (integers); play dates are
 * Manila ISO dates (`YYYY-MM-DD`), tee times `HH:mm`. JSON columns hold small arrays only.
 */
import { sql } from "drizzle-orm";
import { integer, primaryKey, sqliteTable, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import type { FlightPlayer } from "../domain/players.ts";

import { ROLES, USER_STATUSES } from "../domain/session-user.ts";
import { INVITATION_POLICIES, INVITATION_SOURCES, INVITATION_STATUSES } from "../domain/partners.ts";

export { ROLES, USER_STATUSES, type Role, type UserStatus } from "../domain/session-user.ts";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    status: text("status", { enum: USER_STATUSES }).notNull().default("active"),
    name: text("name").notNull().default(""),
    memberId: text("member_id").notNull().default(""),
    clubEmail: text("club_email").notNull().default(""),
    /** AES-256-GCM sealed club-site password (lib/secret-box); never leaves the server. */
    clubPasswordSealed: text("club_password_sealed"),
    defaultCartType: text("default_cart_type").notNull().default(""),
    defaultFeeGuest: text("default_fee_guest").notNull().default(""),
    defaultFeeMember: text("default_fee_member").notNull().default(""),
    /** True while the password is still the one an admin gave (the username); the wizard replaces it. */
    mustSetPassword: integer("must_set_password", { mode: "boolean" }).notNull().default(false),
    /** Whom the member takes playing partners' invitations from (INVITATION_POLICIES, decision 200). */
    invitationsFrom: text("invitations_from", { enum: INVITATION_POLICIES }).notNull().default("anyone"),
    /**
     * When the bookings sync last read this member's bookings page at the club and applied it (our
     * clock, as the read began); null until it first has. What the sync knows is as fresh as this.
     */
    clubBookingsReadAt: integer("club_bookings_read_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("users_username_nocase").on(sql`lower(${t.username})`)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

export const savedPlayers = sqliteTable(
  "saved_players",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull(),
    type: text("type").notNull(),
    memberId: text("member_id").notNull().default(""),
    cartPreference: text("cart_preference").notNull().default(""),
    feePreference: text("fee_preference").notNull().default(""),
  },
  (t) => [index("saved_players_user").on(t.userId)],
);

export const courses = sqliteTable("courses", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Days of week the course runs, 1 = Monday … 7 = Sunday. */
  daysActive: text("days_active", { mode: "json" }).$type<number[]>().notNull(),
  position: integer("position").notNull().default(0),
  /** Other names the club's pages use for this course ('THE MASTERS', 'Championship'). */
  aliases: text("aliases", { mode: "json" }).$type<string[]>().notNull().default([]),
});

export const bookingWindows = sqliteTable("booking_windows", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  ruleKey: text("rule_key").notNull(),
  startTime: text("start_time").notNull(),
  endTime: text("end_time").notNull(),
});

export const holidays = sqliteTable("holidays", {
  date: text("date").primaryKey(),
  name: text("name"),
});

export const bookingRules = sqliteTable("booking_rules", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  priority: integer("priority").notNull().default(10),
  daysOfWeek: text("days_of_week", { mode: "json" }).$type<number[]>().notNull(),
  appliesOnHolidays: integer("applies_on_holidays", { mode: "boolean" }).notNull().default(false),
  startTime: text("start_time").notNull().default("05:00"),
  endTime: text("end_time").notNull().default("17:00"),
  minPlayers: integer("min_players"),
  maxPlayers: integer("max_players"),
  maxGuests: integer("max_guests"),
});

/** One row per setting; `value` is JSON so numbers, strings and arrays keep their type. */
export const appSettings = sqliteTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const uiText = sqliteTable("ui_text", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const FORM_OPTION_CATEGORIES = ["playerType", "cartPreference", "feePreferenceGuest", "feePreferenceMember"] as const;
export type FormOptionCategory = (typeof FORM_OPTION_CATEGORIES)[number];

export const formOptions = sqliteTable(
  "form_options",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    category: text("category", { enum: FORM_OPTION_CATEGORIES }).notNull(),
    value: text("value").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [uniqueIndex("form_options_category_value").on(t.category, t.value)],
);

export const advisories = sqliteTable(
  "advisories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** internal: written by admins (front-page messages); scraped: read from the club site. */
    source: text("source", { enum: ["internal", "scraped"] }).notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    eventDate: text("event_date"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("advisories_source").on(t.source)],
);

export const teeTimeSlots = sqliteTable(
  "tee_time_slots",
  {
    date: text("date").notNull(),
    courseId: text("course_id").notNull(),
    time: text("time").notNull(),
    status: text("status").notNull(),
    slotId: text("slot_id"),
    scrapedAt: integer("scraped_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.date, t.courseId, t.time] })],
);

export const scrapeRuns = sqliteTable("scrape_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  trigger: text("trigger", { enum: ["schedule", "manual", "startup"] }).notNull(),
  startedAt: integer("started_at").notNull(),
  finishedAt: integer("finished_at"),
  status: text("status", { enum: ["running", "ok", "partial", "failed"] }).notNull(),
  pages: integer("pages").notNull().default(0),
  failures: integer("failures").notNull().default(0),
  changed: integer("changed", { mode: "boolean" }).notNull().default(false),
  error: text("error"),
});

/** The states of a booking request; every transition between them is in src/lifecycle/request-lifecycle.ts. */
export const REQUEST_STATUSES = ["pending", "held", "processing", "needs_attention", "confirmed", "failed", "cancelled"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
import { REQUEST_PHASES } from "../domain/bookings-view.ts";
export { REQUEST_PHASES, type RequestPhase } from "../domain/bookings-view.ts";

/** The selected times in priority order, as the member clicked them. */
export interface RequestSelection {
  time: string;
  slotId: string | null;
}
/** A player of a request or booking, as Teebox sends it to the club: a flight row without form state. */
export type StoredPlayer = Omit<FlightPlayer, "locked" | "fromSaved">;

export const bookingRequests = sqliteTable(
  "booking_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull(),
    playDate: text("play_date").notNull(),
    selection: text("selection", { mode: "json" }).$type<RequestSelection[]>().notNull(),
    players: text("players", { mode: "json" }).$type<StoredPlayer[]>().notNull(),
    memberCartType: text("member_cart_type").notNull().default(""),
    status: text("status", { enum: REQUEST_STATUSES }).notNull(),
    /** Only while processing: what the club's trouble means for it now (REQUEST_PHASES), else null. */
    phase: text("phase", { enum: REQUEST_PHASES }),
    /** Epoch ms of the release instant (Manila), on the club's clock. */
    releaseAt: integer("release_at").notNull(),
    /** The failure (or hold) rendered in the default text, for logs and older readers. */
    failureReason: text("failure_reason"),
    /** Why it failed or is held: a UI-text key (src/domain/request-reasons.ts) and its placeholders. */
    reasonKey: text("reason_key"),
    reasonContext: text("reason_context", { mode: "json" }).$type<Record<string, string>>(),
    bookingRef: text("booking_ref"),
    /** How late the first attempt left after the release instant (ms), for the member's record. */
    latenessMs: integer("lateness_ms"),
    /** The club clock minus ours as measured for the release that processed it (null: not measured). */
    clockOffsetMs: integer("clock_offset_ms"),
    /** Half the width of the interval the true offset lay in. */
    clockUncertaintyMs: integer("clock_uncertainty_ms"),
    submittedAt: integer("submitted_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Sent only if every invited partner has accepted by the readiness check (decision 200). */
    partnersMustAccept: integer("partners_must_accept", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("booking_requests_status").on(t.status, t.releaseAt), index("booking_requests_user").on(t.userId)],
);

export const requestAttempts = sqliteTable(
  "request_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: integer("request_id")
      .notNull()
      .references(() => bookingRequests.id, { onDelete: "cascade" }),
    time: text("time").notNull(),
    slotId: text("slot_id"),
    /** Written before the booking post leaves ('sent'), then completed with the answer. */
    state: text("state", { enum: ["sent", "answered"] }).notNull(),
    firedAtClub: integer("fired_at_club").notNull(),
    firedAtLocal: integer("fired_at_local").notNull(),
    outcome: text("outcome"),
    /** The answer rendered in the default text (or the club's own words), for logs and older readers. */
    answer: text("answer"),
    /** The answer as a UI-text key (src/domain/request-reasons.ts) and its placeholders. */
    answerKey: text("answer_key"),
    answerContext: text("answer_context", { mode: "json" }).$type<Record<string, string>>(),
    durationMs: integer("duration_ms"),
  },
  (t) => [index("request_attempts_request").on(t.requestId)],
);

export const bookings = sqliteTable(
  "bookings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The club's booking reference: the bookingId members see. */
    bookingRef: text("booking_ref").notNull(),
    courseId: text("course_id").notNull(),
    playDate: text("play_date").notNull(),
    time: text("time").notNull(),
    players: text("players", { mode: "json" }).$type<StoredPlayer[]>().notNull(),
    requestId: integer("request_id"),
    createdAt: integer("created_at").notNull(),
  },
  // A club reference names a booking of one member: a club that issues a reference again (the demo
  // club restarted from its seed did) must never make one member's booking another's.
  (t) => [uniqueIndex("bookings_user_ref").on(t.userId, t.bookingRef)],
);

/**
 * A member's private calendar address. The token itself is the credential: it is found by its
 * SHA-256 (never stored in the clear) and kept sealed only so the member's Profile page can show
 * it again. One row per member; making a new address replaces it.
 */
export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    tokenSealed: text("token_sealed").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("calendar_feeds_token_hash").on(t.tokenHash)],
);

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    /** Who did it: the admin for admin changes, the member (or null for the system) for club actions. */
    actorUserId: integer("actor_user_id"),
    action: text("action").notNull(),
    target: text("target"),
    outcome: text("outcome").notNull(),
    durationMs: integer("duration_ms"),
    detail: text("detail"),
  },
  (t) => [index("audit_log_at").on(t.at)],
);

/** The states of a slot watch; every change between them is in src/lifecycle/watch-lifecycle.ts. */
export const WATCH_STATUSES = ["watching", "booked", "found", "ended"] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

/**
 * A member's watch for a freed tee time: a date, a course (null = any course), a time range and
 * the players of a request. "book" books the first free slot found; "notify" only tells.
 */
export const slotWatches = sqliteTable(
  "slot_watches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    playDate: text("play_date").notNull(),
    /** null: any course open that day. */
    courseId: text("course_id"),
    fromTime: text("from_time").notNull(),
    toTime: text("to_time").notNull(),
    players: text("players", { mode: "json" }).$type<StoredPlayer[]>().notNull(),
    memberCartType: text("member_cart_type").notNull().default(""),
    mode: text("mode", { enum: ["book", "notify"] }).notNull(),
    /** An upgrade: the member's booking that day, cancelled once the better one is confirmed. */
    upgradeRef: text("upgrade_ref"),
    status: text("status", { enum: WATCH_STATUSES }).notNull(),
    /** Why it ended, or what was found: a UI-text key and its placeholders. */
    reasonKey: text("reason_key"),
    reasonContext: text("reason_context", { mode: "json" }).$type<Record<string, string>>(),
    foundCourseId: text("found_course_id"),
    foundTime: text("found_time"),
    bookingRef: text("booking_ref"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("slot_watches_status").on(t.status, t.playDate), index("slot_watches_user").on(t.userId)],
);

/** Each booking post a watch made: written 'sent' before it leaves, completed with the answer. */
export const watchAttempts = sqliteTable(
  "watch_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    watchId: integer("watch_id")
      .notNull()
      .references(() => slotWatches.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    courseId: text("course_id").notNull(),
    time: text("time").notNull(),
    slotId: text("slot_id"),
    state: text("state", { enum: ["sent", "answered"] }).notNull(),
    sentAt: integer("sent_at").notNull(),
    outcome: text("outcome"),
    answerKey: text("answer_key"),
    answerContext: text("answer_context", { mode: "json" }).$type<Record<string, string>>(),
    durationMs: integer("duration_ms"),
  },
  (t) => [index("watch_attempts_watch").on(t.watchId), index("watch_attempts_user_state").on(t.userId, t.state)],
);

/**
 * Each booking post an edit of a confirmed booking made for its new slot: written 'sent' before it
 * leaves, so a crash mid-post is reconciled on the next start (decision 175), completed with the
 * answer. It carries what completing the edit needs: the booking it replaces and the new flight.
 */
export const editAttempts = sqliteTable(
  "edit_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The club reference of the booking the edit replaces (cancelled once the new one stands). */
    replacesRef: text("replaces_ref").notNull(),
    courseId: text("course_id").notNull(),
    playDate: text("play_date").notNull(),
    time: text("time").notNull(),
    slotId: text("slot_id"),
    players: text("players", { mode: "json" }).$type<StoredPlayer[]>().notNull(),
    state: text("state", { enum: ["sent", "answered"] }).notNull(),
    sentAt: integer("sent_at").notNull(),
    outcome: text("outcome"),
    answerKey: text("answer_key"),
    answerContext: text("answer_context", { mode: "json" }).$type<Record<string, string>>(),
    /** The booking it made, once known. */
    bookingRef: text("booking_ref"),
    durationMs: integer("duration_ms"),
  },
  (t) => [index("edit_attempts_user_state").on(t.userId, t.state)],
);

/**
 * A member's notification list: what happened, as a UI-text key with its placeholders,
 * rendered in the member's wording when read. One row per (member, event), also for a kind the
 * member keeps out of the list (not `listed`): the row is how each event is told once on every
 * channel (decision 186).
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** One of NOTIFICATION_KINDS (src/domain/notifications.ts). */
    kind: text("kind").notNull(),
    textKey: text("text_key").notNull(),
    context: text("context", { mode: "json" }).$type<Record<string, string>>().notNull(),
    /** Names the event it records, so one event is one notification. */
    eventId: text("event_id").notNull(),
    createdAt: integer("created_at").notNull(),
    readAt: integer("read_at"),
    /** Shown under the bell: false when the member switched the kind's "in the app" off (stored read). */
    listed: integer("listed", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [uniqueIndex("notifications_user_event").on(t.userId, t.eventId), index("notifications_user_id").on(t.userId, t.id)],
);

/** A member's channel switches per notification kind; a kind with no row has every channel on. */
export const notificationSettings = sqliteTable(
  "notification_settings",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    email: integer("email", { mode: "boolean" }).notNull(),
    push: integer("push", { mode: "boolean" }).notNull().default(true),
    inApp: integer("in_app", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/**
 * Every email Teebox sends, written when the notification is stored and sent by the mail job
 * (src/jobs/mail-sender.ts) with retries; one message per (event, recipient).
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    eventId: text("event_id").notNull(),
    /** queued, sent or failed (MAIL_STATES). */
    state: text("state", { enum: ["queued", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** When the mail job may try it next (a claim moves it on, so a crashed send is tried again later). */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    /** Why it is not sent yet, or why it failed. */
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [uniqueIndex("mail_outbox_event_recipient").on(t.eventId, t.recipient), index("mail_outbox_due").on(t.state, t.nextAttemptAt)],
);

/**
 * The server's VAPID key pair (decision 185): made once, kept with the data so a backup carries
 * it; the private key sealed with the secret box like club passwords. One row.
 */
export const pushKeys = sqliteTable("push_keys", {
  /** Always 1. */
  id: integer("id").primaryKey(),
  /** The public key browsers subscribe with (base64url, an uncompressed P-256 point). */
  publicKey: text("public_key").notNull(),
  privateKeySealed: text("private_key_sealed").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * A device a member turned push on for: the browser's push subscription (decision 187). At most
 * PUSH_DEVICES_PER_MEMBER per member; an endpoint belongs to one member (the last who turned it on).
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    /** The browser's public key and authentication secret (base64url), which each push is encrypted for. */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** When the browser said the subscription ends, if it did. */
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
    /** When a push service last took a push for it. */
    lastSentAt: integer("last_sent_at"),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint").on(t.endpoint), index("push_subscriptions_user").on(t.userId, t.id)],
);

/**
 * Every push Teebox sends, written when the notification is stored and sent by the push job
 * (src/jobs/push-sender.ts) with retries; one per (event, device). The payload is kept as JSON
 * and encrypted for its device when sent (each attempt afresh, as RFC 8291 asks).
 */
export const pushOutbox = sqliteTable(
  "push_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null once the device was removed (the push service answered 404 or 410, or the member turned it off). */
    subscriptionId: integer("subscription_id").references(() => pushSubscriptions.id, { onDelete: "set null" }),
    eventId: text("event_id").notNull(),
    kind: text("kind").notNull(),
    payload: text("payload").notNull(),
    urgency: text("urgency").notNull(),
    ttlSeconds: integer("ttl_seconds").notNull(),
    /** queued, sent or failed (PUSH_STATES). */
    state: text("state", { enum: ["queued", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [
    uniqueIndex("push_outbox_event_device").on(t.eventId, t.subscriptionId),
    index("push_outbox_due").on(t.state, t.nextAttemptAt),
    index("push_outbox_created").on(t.createdAt),
  ],
);

/**
 * Who runs the jobs against a libSQL server (src/jobs/engine-lease.ts): one row, taken atomically
 * by the instance that starts first and renewed by it on a timer; another instance waits until it
 * is released or expires. A file database is guarded by its lock file instead and leaves it empty.
 */
export const engineLease = sqliteTable("engine_lease", {
  /** Always 1: there is one engine per database. */
  id: integer("id").primaryKey(),
  /** Which instance holds it: host, process id and a random tag, as its log lines name it. */
  holder: text("holder").notNull(),
  takenAt: integer("taken_at").notNull(),
  renewedAt: integer("renewed_at").notNull(),
  /** Past this instant (the holder's clock) the lease is free for another instance to take. */
  expiresAt: integer("expires_at").notNull(),
});

export const SERIES_STATUSES = ["active", "ended"] as const;
export type SeriesStatus = (typeof SERIES_STATUSES)[number];

/**
 * A member's standing request (decision 180): a weekly game on some weekdays, from which Teebox
 * makes the dated request of each occurrence as soon as its date can be queued.
 */
export const standingSeries = sqliteTable(
  "standing_series",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** null: any course open that day (the first of the schedule whose rules allow it). */
    courseId: text("course_id"),
    /** The times in priority order, or null when a range is given. */
    times: text("times", { mode: "json" }).$type<string[]>(),
    fromTime: text("from_time"),
    toTime: text("to_time"),
    /** The extra players as a submission lists them (checked again for each date). */
    players: text("players", { mode: "json" }).$type<unknown[]>().notNull(),
    memberCartType: text("member_cart_type").notNull().default(""),
    /** Each date's request is sent only if every partner has accepted by the readiness check (decision 200). */
    partnersMustAccept: integer("partners_must_accept", { mode: "boolean" }).notNull().default(false),
    /** 1 = Monday … 7 = Sunday. */
    weekdays: text("weekdays", { mode: "json" }).$type<number[]>().notNull(),
    startDate: text("start_date").notNull(),
    endDate: text("end_date"),
    skipDates: text("skip_dates", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: SERIES_STATUSES }).notNull(),
    /** The release instant of the last occurrence it led in a rotation (decision 181). */
    ledAt: integer("led_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    endedAt: integer("ended_at"),
  },
  (t) => [index("standing_series_user").on(t.userId, t.status), index("standing_series_status").on(t.status)],
);

export const OCCURRENCE_STATES = ["waiting", "queued", "needs_attention", "skipped", "cancelled"] as const;
export type OccurrenceState = (typeof OCCURRENCE_STATES)[number];

/**
 * One date of a series: at most one row (and so one request) per series and date, whatever
 * crashes or passes overlap. 'waiting' is a date changed ahead of its queueing; 'queued' has its
 * request (whose status says the rest); 'needs_attention' could not be queued, for the reason.
 */
export const seriesOccurrences = sqliteTable(
  "series_occurrences",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    seriesId: integer("series_id")
      .notNull()
      .references(() => standingSeries.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    playDate: text("play_date").notNull(),
    state: text("state", { enum: OCCURRENCE_STATES }).notNull(),
    /** The dated request (no foreign key: retention removes old requests on its own). */
    requestId: integer("request_id"),
    /** The times of this date alone, when the member changed it on its own. */
    times: text("times", { mode: "json" }).$type<string[]>(),
    reasonKey: text("reason_key"),
    reasonContext: text("reason_context", { mode: "json" }).$type<Record<string, string>>(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("series_occurrences_series_date").on(t.seriesId, t.playDate),
    index("series_occurrences_state").on(t.state, t.playDate),
    index("series_occurrences_request").on(t.requestId),
  ],
);

/**
 * A playing partner's invitation (decision 200): one per (source, invited member), written only by
 * src/lifecycle/invitation-lifecycle.ts. The source is a request (a standing request's date is one)
 * or a slot watch, by id, with no foreign key: retention removes old requests and watches on its own
 * and these after INVITATIONS_KEPT_DAYS.
 */
export const flightInvitations = sqliteTable(
  "flight_invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sourceKind: text("source_kind", { enum: INVITATION_SOURCES }).notNull(),
    sourceId: integer("source_id").notNull(),
    organiserId: integer("organiser_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    inviteeId: integer("invitee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The membership number the flight names the partner by, and the name it gives them. */
    memberId: text("member_id").notNull(),
    playerName: text("player_name").notNull().default(""),
    status: text("status", { enum: INVITATION_STATUSES }).notNull(),
    /** The game's date, for the lists and for retention. */
    playDate: text("play_date").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    answeredAt: integer("answered_at"),
  },
  (t) => [
    uniqueIndex("flight_invitations_source_invitee").on(t.sourceKind, t.sourceId, t.inviteeId),
    index("flight_invitations_invitee").on(t.inviteeId, t.playDate),
    index("flight_invitations_organiser").on(t.organiserId, t.playDate),
    index("flight_invitations_play_date").on(t.playDate),
  ],
);
