/**
 * Notifications as stored: the recorder the notifier hands each notification to (the member's
 * list, an outbox message when the member's email for its kind is on, and a push for each of the
 * member's devices when its push is on), and the member's reads of their list. Sending is the mail
 * and push jobs' (src/jobs/mail-sender.ts, src/jobs/push-sender.ts), never this.
 */
import { and, desc, eq, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import type { AppDatabase, Db } from "../../db/client.ts";
import { preparedQuery } from "../../db/prepared.ts";
import { mailOutbox, notifications, notificationSettings, users } from "../../db/schema.ts";
import {
  type ChannelSwitches,
  DEFAULT_CHANNELS,
  NO_SMTP_NOTE,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  NOTIFICATIONS_KEPT_PER_MEMBER,
  type NotificationChannel,
  notificationSubjectKey,
  isNotificationKind,
  type NotificationKind,
} from "../../domain/notifications.ts";
import type { Clock } from "../../lib/clock.ts";
import type { NotificationRecord } from "../../realtime/notifier.ts";
import { addressOf } from "../../mail/transport.ts";
import { renderNotification, textKeysOf } from "./notification-text.ts";
import { readTexts } from "../../services/options-and-texts.service.ts";
import { queuePushes } from "./push-queue.ts";

export interface RecorderDeps {
  database: AppDatabase;
  clock: Clock;
  /** The mail job: whether it can send, and a poke when a message is queued. */
  mail: { readonly isConfigured: boolean; wake(): void };
  /** The push job: a poke when a push is queued. */
  push: { wake(): void };
}

export type ChannelsByKind = Record<NotificationKind, ChannelSwitches>;

// What storing each notification reads (a release's instant stores one per request): prepared once (decision 205).
const switchesOf = preparedQuery((db) =>
  db
    .select()
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, sql.placeholder("userId")))
    .prepare(),
);
const oldestKeptOf = preparedQuery((db) =>
  db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, sql.placeholder("userId")))
    .orderBy(desc(notifications.id))
    .limit(1)
    .offset(NOTIFICATIONS_KEPT_PER_MEMBER - 1)
    .prepare(),
);
const emailOf = preparedQuery((db) =>
  db
    .select({ email: users.clubEmail })
    .from(users)
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare(),
);
// And what it writes: building an insert's SQL costs as much again as running it (about 55 µs).
const insertNotification = preparedQuery((db) =>
  db
    .insert(notifications)
    .values({
      userId: sql.placeholder("userId"),
      kind: sql.placeholder("kind"),
      textKey: sql.placeholder("textKey"),
      context: sql.placeholder("context"),
      eventId: sql.placeholder("eventId"),
      createdAt: sql.placeholder("createdAt"),
      readAt: sql.placeholder("readAt"),
      listed: sql.placeholder("listed"),
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id })
    .prepare(),
);
const insertMail = preparedQuery((db) =>
  db
    .insert(mailOutbox)
    .values({
      userId: sql.placeholder("userId"),
      recipient: sql.placeholder("recipient"),
      subject: sql.placeholder("subject"),
      body: sql.placeholder("body"),
      eventId: sql.placeholder("eventId"),
      state: "queued",
      attempts: 0,
      nextAttemptAt: sql.placeholder("nextAttemptAt"),
      lastError: sql.placeholder("lastError"),
      createdAt: sql.placeholder("createdAt"),
    })
    .onConflictDoNothing()
    .returning({ id: mailOutbox.id })
    .prepare(),
);

/** The member's switches, every kind and channel present (what was never switched is on). */
export async function channelsOf(db: Db, userId: number): Promise<ChannelsByKind> {
  const rows = await switchesOf(db).all({ userId });
  const channels = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, { ...DEFAULT_CHANNELS }])) as ChannelsByKind;
  for (const row of rows) if (isNotificationKind(row.kind)) channels[row.kind] = { inApp: row.inApp, push: row.push, email: row.email };
  return channels;
}

export type ChannelChanges = Partial<Record<NotificationChannel, Partial<Record<NotificationKind, boolean>>>>;

/** Sets the switches named (others keep their value); a kind's row holds all its channels. */
export async function setChannels(db: Db, userId: number, changes: ChannelChanges): Promise<void> {
  const current = await channelsOf(db, userId);
  const changed = new Set<NotificationKind>();
  for (const channel of NOTIFICATION_CHANNELS) {
    for (const [kind, isOn] of Object.entries(changes[channel] ?? {})) {
      if (!isNotificationKind(kind) || typeof isOn !== "boolean") continue;
      current[kind][channel] = isOn;
      changed.add(kind);
    }
  }
  for (const kind of changed) {
    const switches = current[kind];
    await db
      .insert(notificationSettings)
      .values({ userId, kind, ...switches })
      .onConflictDoUpdate({ target: [notificationSettings.userId, notificationSettings.kind], set: switches });
  }
}

/** Drops the member's oldest notifications beyond the number kept. */
async function prune(db: Db, userId: number): Promise<void> {
  const [oldestKept] = await oldestKeptOf(db).all({ userId });
  if (oldestKept) await db.delete(notifications).where(and(eq(notifications.userId, userId), lt(notifications.id, oldestKept.id)));
}

/** The outbox message of a notification, when the member has an email. */
async function queueEmail(d: RecorderDeps, notification: NotificationRecord, now: number): Promise<void> {
  const db = d.database.db;
  const [user] = await emailOf(db).all({ userId: notification.userId });
  const recipient = user?.email.trim() ?? "";
  if (!addressOf(recipient)) return;
  const subjectKey = notificationSubjectKey(notification.kind);
  const text = await readTexts(db, [...textKeysOf(notification), subjectKey, "notifications.email_footer"]);
  const subject = renderNotification(subjectKey, notification.context, text);
  const body = `${renderNotification(notification.textKey, notification.context, text)}\n\n--\n${text("notifications.email_footer")}\n`;
  const inserted = await insertMail(db).all({
    userId: notification.userId,
    recipient,
    subject,
    body,
    // Event ids name an occurrence for its member; two members sharing an address get one each.
    eventId: `user ${notification.userId}: ${notification.eventId}`,
    nextAttemptAt: now,
    lastError: d.mail.isConfigured ? null : NO_SMTP_NOTE,
    createdAt: now,
  });
  if (inserted.length === 0) return;
  d.mail.wake();
  // Now and then, not on every message: the outbox keeps a month.
  if (inserted[0].id % 100 === 0) await pruneOutbox(db, now);
}

/**
 * Stores one notification (once per event) and sends it down the member's channels for its kind
 * as switched when it is stored: listed under the bell as unread, or kept out of the list (stored
 * read and not listed, so the event is still told once); emailed; pushed to each device. True when
 * the member's list gained a line, which the notifier refreshes the bell for. The notifier calls
 * this after the event's raiser has moved on.
 */
export function createNotificationRecorder(d: RecorderDeps): (notification: NotificationRecord) => Promise<boolean> {
  return async (notification) => {
    const now = d.clock.now();
    const db = d.database.db;
    const channels = (await channelsOf(db, notification.userId))[notification.kind];
    const inserted = await insertNotification(db).all({
      userId: notification.userId,
      kind: notification.kind,
      textKey: notification.textKey,
      context: notification.context,
      eventId: notification.eventId,
      createdAt: now,
      readAt: channels.inApp ? null : now,
      listed: channels.inApp,
    });
    if (inserted.length === 0) return false;
    await prune(db, notification.userId);
    if (channels.push && (await queuePushes(d.database, notification, now)) > 0) d.push.wake();
    if (channels.email) await queueEmail(d, notification, now);
    return channels.inApp;
  };
}

export interface NotificationView {
  id: number;
  kind: NotificationKind;
  /** The line in the member's current wording. */
  text: string;
  textKey: string;
  context: Record<string, string>;
  createdAt: number;
  readAt: number | null;
}

export interface NotificationPage {
  items: NotificationView[];
  /** All the member's unread notifications, not only this page's. */
  unread: number;
  /** True when older notifications follow (ask with `before` = the last id). */
  hasMore: boolean;
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.listed, true), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** The member's notifications, newest first, `limit` at a time, older than id `before` when given. */
export async function listNotifications(db: Db, userId: number, page: { limit: number; before?: number }): Promise<NotificationPage> {
  const mine = and(eq(notifications.userId, userId), eq(notifications.listed, true));
  const where = page.before === undefined ? mine : and(mine, lt(notifications.id, page.before));
  const rows = await db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const text = await readTexts(db, shown.flatMap(textKeysOf));
  const items = shown.map((row) => ({
    id: row.id,
    kind: (isNotificationKind(row.kind) ? row.kind : "request_confirmed") as NotificationKind,
    text: renderNotification(row.textKey, row.context, text),
    textKey: row.textKey,
    context: row.context,
    createdAt: row.createdAt,
    readAt: row.readAt,
  }));
  return { items, unread: await unreadCount(db, userId), hasMore: rows.length > page.limit };
}

/** Marks the member's own notifications read (all, or those of `ids`); the number newly read. */
export async function markRead(db: Db, userId: number, which: { all: true } | { ids: number[] }, now: number): Promise<number> {
  const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  const where = "all" in which ? mine : and(mine, inArray(notifications.id, which.ids));
  const rows = await db.update(notifications).set({ readAt: now }).where(where).returning({ id: notifications.id });
  return rows.length;
}

/** Messages older than this leave the outbox, whatever became of them. */
export const OUTBOX_KEPT_MS = 30 * 24 * 60 * 60_000;

async function pruneOutbox(db: Db, now: number): Promise<void> {
  await db.delete(mailOutbox).where(lte(mailOutbox.createdAt, now - OUTBOX_KEPT_MS));
}
