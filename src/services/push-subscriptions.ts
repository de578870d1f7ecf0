/**
 * Members' devices for push (decision 187): each a browser's push subscription, saved when the
 * member turns push on for the device, removed when they turn it off, when a push service says it
 * is gone (404, 410), when it moves to another member, or when it is the oldest of more than
 * PUSH_DEVICES_PER_MEMBER. A removed device's queued pushes are marked failed, never sent.
 *
 * Used by the push routes, the notification recorder and the push job alike; every removal goes
 * through `removeDevices`, which does not count on the database's foreign keys (a libSQL server
 * may not apply them).
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { AppDatabase, Db } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { pushOutbox, pushSubscriptions } from "../db/schema.ts";
import { PUSH_DEVICES_PER_MEMBER } from "../domain/push.ts";

export type PushDevice = typeof pushSubscriptions.$inferSelect;

export interface DeviceSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  /** When the browser says the subscription ends (epoch ms), if it does. */
  expiresAt: number | null;
}

/** Removes devices and fails their queued pushes with `reason`; the number removed. */
export async function removeDevices(database: AppDatabase, ids: number[], reason: string): Promise<number> {
  if (ids.length === 0) return 0;
  return database.transaction(async (tx) => {
    await tx
      .update(pushOutbox)
      .set({ state: "failed", lastError: reason })
      .where(and(inArray(pushOutbox.subscriptionId, ids), eq(pushOutbox.state, "queued")));
    await tx.update(pushOutbox).set({ subscriptionId: null }).where(inArray(pushOutbox.subscriptionId, ids));
    const removed = await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids)).returning({ id: pushSubscriptions.id });
    return removed.length;
  });
}

/** Read for every notification a member is sent: prepared once (decision 205). */
const devicesOfMember = preparedQuery((db) =>
  db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, sql.placeholder("userId")))
    .orderBy(asc(pushSubscriptions.id))
    .prepare(),
);

export async function devicesOf(db: Db, userId: number): Promise<PushDevice[]> {
  return await devicesOfMember(db).all({ userId });
}

export async function deviceCount(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  return Number(row?.n ?? 0);
}

/**
 * Saves the member's device (again: the same endpoint is one device, its keys renewed). An endpoint
 * another member had turned on moves to this one (a shared phone: the last member who turned push
 * on gets the pushes), and the member's oldest devices beyond the limit are removed.
 */
export async function saveDevice(database: AppDatabase, userId: number, subscription: DeviceSubscription, now: number): Promise<void> {
  const db = database.db;
  const [existing] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint));
  if (existing && existing.userId !== userId) await removeDevices(database, [existing.id], "not sent: the device was turned on by another member");
  const keys = { p256dh: subscription.p256dh, auth: subscription.auth, expiresAt: subscription.expiresAt };
  if (existing && existing.userId === userId) {
    await db.update(pushSubscriptions).set(keys).where(eq(pushSubscriptions.id, existing.id));
  } else {
    await db
      .insert(pushSubscriptions)
      .values({ userId, endpoint: subscription.endpoint, ...keys, createdAt: now })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, ...keys } });
  }
  const devices = await devicesOf(db, userId);
  const beyond = devices.slice(0, Math.max(0, devices.length - PUSH_DEVICES_PER_MEMBER)).map((d) => d.id);
  await removeDevices(database, beyond, "not sent: the device was dropped for a newer one");
}

/** Removes the member's own device with this endpoint; false when the member had none. */
export async function removeOwnDevice(database: AppDatabase, userId: number, endpoint: string): Promise<boolean> {
  const [device] = await database.db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  if (!device) return false;
  return (await removeDevices(database, [device.id], "not sent: push was turned off on the device")) > 0;
}
