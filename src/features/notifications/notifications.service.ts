/**
 * The member's notification calls (list, mark read, channel switches) and the admin's outbox.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { mailOutbox, users } from "../../db/schema.ts";
import { MAIL_STATES, type MailState, type NotificationKind } from "../../domain/notifications.ts";
import { channelsOf, listNotifications, markRead, setChannels, unreadCount, type NotificationPage } from "./notifications.store.ts";
import type { ChannelSwitchesInput, MarkReadInput } from "./notifications.schemas.ts";

/** What the notification calls use of the app. */
export type NotificationsDeps = Pick<AppDeps, "database" | "clock" | "notifier">;

export function notificationPage(deps: NotificationsDeps, userId: number, page: { limit: number; before?: number }): Promise<NotificationPage> {
  return listNotifications(deps.database.db, userId, page);
}

/** Marks the member's notifications read; their other screens refresh when any changed. */
export async function readNotifications(deps: NotificationsDeps, userId: number, which: MarkReadInput): Promise<{ unread: number }> {
  const changed = await markRead(deps.database.db, userId, which, deps.clock.now());
  if (changed > 0) deps.notifier.publish({ type: "notifications_read", userId });
  return { unread: await unreadCount(deps.database.db, userId) };
}

export interface NotificationSettingsView {
  address: string;
  inApp: Record<NotificationKind, boolean>;
  push: Record<NotificationKind, boolean>;
  email: Record<NotificationKind, boolean>;
}

export async function notificationSettings(deps: Pick<AppDeps, "database">, userId: number): Promise<NotificationSettingsView> {
  const db = deps.database.db;
  const [user] = await db.select({ email: users.clubEmail }).from(users).where(eq(users.id, userId));
  const channels = await channelsOf(db, userId);
  const of = (channel: "inApp" | "push" | "email") =>
    Object.fromEntries(Object.entries(channels).map(([kind, switches]) => [kind, switches[channel]])) as Record<NotificationKind, boolean>;
  return { address: user?.email.trim() ?? "", inApp: of("inApp"), push: of("push"), email: of("email") };
}

export async function saveNotificationSettings(deps: Pick<AppDeps, "database">, userId: number, input: ChannelSwitchesInput): Promise<NotificationSettingsView> {
  await setChannels(deps.database.db, userId, input);
  return notificationSettings(deps, userId);
}

const OUTBOX_SHOWN = 50;

/** The newest outbox messages with the counts of each state, and where they are sent. */
export async function outbox(deps: Pick<AppDeps, "database" | "mailSender">) {
  const db = deps.database.db;
  const rows = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(OUTBOX_SHOWN);
  const counted = await db.select({ state: mailOutbox.state, n: sql<number>`count(*)` }).from(mailOutbox).groupBy(mailOutbox.state);
  const counts = Object.fromEntries(MAIL_STATES.map((state) => [state, 0])) as Record<MailState, number>;
  for (const row of counted) counts[row.state] = Number(row.n);
  return {
    smtp: deps.mailSender.describe(),
    counts,
    messages: rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      state: row.state,
      attempts: row.attempts,
      lastError: row.lastError,
      sentAt: row.sentAt,
    })),
  };
}
