/**
 * A notification's pushes: one per device the member turned push on for, written to the push
 * outbox for the push job (src/jobs/push-sender.ts) to encrypt and send. The payload is the
 * notification in the member's wording (the kind's push title, its line as the body), the page a
 * tap opens, and a tag made of the event, so the same event shown twice replaces itself.
 */
import type { AppDatabase } from "../../db/client.ts";
import { pushOutbox } from "../../db/schema.ts";
import { notificationPushTitleKey, PUSH_DELIVERY } from "../../domain/notifications.ts";
import { pushPayload } from "../../domain/push.ts";
import type { NotificationRecord } from "../../realtime/notifier.ts";
import { devicesOf } from "../../services/push-subscriptions.ts";
import { renderNotification, textKeysOf } from "./notification-text.ts";
import { readTexts } from "../../services/options-and-texts.service.ts";

/** Queues the notification's push for each of its member's devices; how many were queued. */
export async function queuePushes(database: AppDatabase, notification: NotificationRecord, now: number): Promise<number> {
  const db = database.db;
  const devices = await devicesOf(db, notification.userId);
  if (devices.length === 0) return 0;
  const titleKey = notificationPushTitleKey(notification.kind);
  const text = await readTexts(db, [...textKeysOf(notification), titleKey]);
  const delivery = PUSH_DELIVERY[notification.kind];
  const payload = pushPayload({
    kind: notification.kind,
    title: renderNotification(titleKey, notification.context, text),
    body: renderNotification(notification.textKey, notification.context, text),
    url: delivery.page,
    tag: notification.eventId,
  });
  const inserted = await db
    .insert(pushOutbox)
    .values(
      devices.map((device) => ({
        userId: notification.userId,
        subscriptionId: device.id,
        // Event ids name an occurrence for its member (as the mail outbox's do).
        eventId: `user ${notification.userId}: ${notification.eventId}`,
        kind: notification.kind,
        payload: JSON.stringify(payload),
        urgency: delivery.urgency,
        ttlSeconds: delivery.ttlSeconds,
        state: "queued" as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: pushOutbox.id });
  return inserted.length;
}
