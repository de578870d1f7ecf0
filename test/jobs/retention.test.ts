/**
 * Retention (src/jobs/retention.ts): each table that grows loses what has outlived its keeping and
 * nothing younger; deletes go in small batches; nothing is deleted near a release; the daily pass
 * is planned for the quiet hour.
 */
import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  auditLog,
  bookingRequests,
  bookings,
  editAttempts,
  mailOutbox,
  notifications,
  pushOutbox,
  pushSubscriptions,
  requestAttempts,
  scrapeRuns,
  sessions,
  slotWatches,
  teeTimeSlots,
  watchAttempts,
} from "../../src/db/schema.ts";
import { addDays, DAY_MS, manilaDate, manilaInstant } from "../../src/domain/manila-time.ts";
import { createRetention, RETENTION } from "../../src/jobs/retention.ts";
import { createTestApp, type TestApp } from "../helpers/api.ts";

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const daysAgo = (now: number, days: number) => now - days * DAY_MS;

async function addRequest(
  app: TestApp,
  userId: number,
  fields: { status: "pending" | "cancelled" | "failed" | "confirmed" | "processing"; playDate: string; updatedAt: number; releaseAt?: number },
) {
  const [row] = await app.deps.database.db
    .insert(bookingRequests)
    .values({
      userId,
      courseId: "masters",
      playDate: fields.playDate,
      selection: [{ time: "07:00", slotId: null }],
      players: [],
      status: fields.status,
      releaseAt: fields.releaseAt ?? fields.updatedAt,
      submittedAt: fields.updatedAt,
      updatedAt: fields.updatedAt,
    })
    .returning({ id: bookingRequests.id });
  await app.deps.database.db.insert(requestAttempts).values({ requestId: row.id, time: "07:00", state: "answered", firedAtClub: fields.updatedAt, firedAtLocal: fields.updatedAt });
  return row.id;
}

async function addWatch(app: TestApp, userId: number, status: "watching" | "ended", playDate: string) {
  const now = app.clock.now();
  const [row] = await app.deps.database.db
    .insert(slotWatches)
    .values({ userId, playDate, fromTime: "06:00", toTime: "07:00", players: [], mode: "book", status, createdAt: now, updatedAt: now })
    .returning({ id: slotWatches.id });
  await app.deps.database.db.insert(watchAttempts).values({ watchId: row.id, userId, courseId: "masters", time: "06:00", state: "answered", sentAt: now });
  return row.id;
}

test("each growing table loses what has outlived its keeping, and nothing younger", async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  const now = t.clock.now();
  const today = manilaDate(now);
  const maria = await t.createUser({ username: "maria" });
  const old = (days: number) => daysAgo(now, days + 1);
  const young = (days: number) => daysAgo(now, days - 1);

  await db.insert(auditLog).values([
    { at: old(RETENTION.auditDays), action: "club.login", outcome: "ok" },
    { at: young(RETENTION.auditDays), action: "club.login", outcome: "ok" },
  ]);
  await db.insert(scrapeRuns).values([
    { trigger: "schedule", startedAt: old(RETENTION.scrapeRunDays), status: "ok" },
    { trigger: "schedule", startedAt: young(RETENTION.scrapeRunDays), status: "ok" },
  ]);
  const kept = [
    await addRequest(t, maria, { status: "cancelled", playDate: today, updatedAt: young(RETENTION.cancelledRequestDays) }),
    await addRequest(t, maria, { status: "failed", playDate: addDays(today, -(RETENTION.failedRequestDays - 1)), updatedAt: now }),
    await addRequest(t, maria, { status: "confirmed", playDate: addDays(today, -(RETENTION.bookingDays - 1)), updatedAt: now }),
    // A pending request is never old, whatever its dates say.
    await addRequest(t, maria, { status: "pending", playDate: addDays(today, -400), updatedAt: old(400), releaseAt: old(400) }),
  ];
  const gone = [
    await addRequest(t, maria, { status: "cancelled", playDate: today, updatedAt: old(RETENTION.cancelledRequestDays) }),
    await addRequest(t, maria, { status: "failed", playDate: addDays(today, -(RETENTION.failedRequestDays + 1)), updatedAt: now }),
    await addRequest(t, maria, { status: "confirmed", playDate: addDays(today, -(RETENTION.bookingDays + 1)), updatedAt: now }),
  ];
  await db.insert(bookings).values([
    { userId: maria, bookingRef: "OLD-1", courseId: "masters", playDate: addDays(today, -(RETENTION.bookingDays + 1)), time: "07:00", players: [], createdAt: now },
    { userId: maria, bookingRef: "NEW-1", courseId: "masters", playDate: addDays(today, -(RETENTION.bookingDays - 1)), time: "07:00", players: [], createdAt: now },
  ]);
  const oldWatch = await addWatch(t, maria, "ended", addDays(today, -(RETENTION.watchDays + 1)));
  const youngWatch = await addWatch(t, maria, "ended", addDays(today, -(RETENTION.watchDays - 1)));
  const liveWatch = await addWatch(t, maria, "watching", addDays(today, -(RETENTION.watchDays + 1)));
  const editAttempt = (time: string, state: "sent" | "answered", playDate: string) => ({
    userId: maria,
    replacesRef: "OLD-1",
    courseId: "masters",
    playDate,
    time,
    players: [],
    state,
    sentAt: now,
  });
  await db.insert(editAttempts).values([
    editAttempt("06:00", "answered", addDays(today, -(RETENTION.editAttemptDays + 1))),
    editAttempt("06:08", "answered", addDays(today, -(RETENTION.editAttemptDays - 1))),
    // One whose outcome is still to be read is never old.
    editAttempt("06:16", "sent", addDays(today, -(RETENTION.editAttemptDays + 1))),
  ]);
  await db.insert(notifications).values([
    { userId: maria, kind: "request_confirmed", textKey: "x", context: {}, eventId: "old", createdAt: old(RETENTION.notificationDays) },
    { userId: maria, kind: "request_confirmed", textKey: "x", context: {}, eventId: "young", createdAt: young(RETENTION.notificationDays) },
  ]);
  await db.insert(mailOutbox).values([
    { recipient: "a@b.c", subject: "s", body: "b", eventId: "old", nextAttemptAt: now, createdAt: old(RETENTION.outboxDays) },
    { recipient: "a@b.c", subject: "s", body: "b", eventId: "young", nextAttemptAt: now, createdAt: young(RETENTION.outboxDays) },
  ]);
  const devices = await db
    .insert(pushSubscriptions)
    .values([
      { userId: maria, endpoint: "https://fcm.googleapis.com/fcm/send/ended", p256dh: "k", auth: "a", expiresAt: now - 1, createdAt: old(10) },
      { userId: maria, endpoint: "https://fcm.googleapis.com/fcm/send/lasting", p256dh: "k", auth: "a", expiresAt: now + DAY_MS, createdAt: old(400) },
      { userId: maria, endpoint: "https://fcm.googleapis.com/fcm/send/no-end", p256dh: "k", auth: "a", expiresAt: null, createdAt: old(400) },
    ])
    .returning({ id: pushSubscriptions.id });
  const push = (eventId: string, createdAt: number, subscriptionId: number) => ({
    userId: maria,
    subscriptionId,
    eventId,
    kind: "request_confirmed",
    payload: "{}",
    urgency: "high",
    ttlSeconds: 60,
    nextAttemptAt: now,
    createdAt,
  });
  await db
    .insert(pushOutbox)
    .values([
      push("old", old(RETENTION.pushOutboxDays), devices[1]!.id),
      push("young", young(RETENTION.pushOutboxDays), devices[1]!.id),
      push("of the ended device", now, devices[0]!.id),
    ]);
  await db.insert(sessions).values([
    { id: "expired", userId: maria, createdAt: old(30), lastSeenAt: old(30), expiresAt: now - 1 },
    { id: "live", userId: maria, createdAt: now, lastSeenAt: now, expiresAt: now + DAY_MS },
  ]);
  await db.insert(teeTimeSlots).values([
    { date: addDays(today, -1), courseId: "masters", time: "07:00", status: "AVAILABLE", slotId: "a", scrapedAt: now },
    { date: today, courseId: "masters", time: "07:00", status: "AVAILABLE", slotId: "b", scrapedAt: now },
  ]);

  const summary = await t.deps.retention.runOnce();
  expect(summary.isPutOff).toBe(false);

  expect((await db.select().from(auditLog)).map((r) => r.at)).toEqual([young(RETENTION.auditDays)]);
  expect((await db.select().from(scrapeRuns)).map((r) => r.startedAt)).toEqual([young(RETENTION.scrapeRunDays)]);
  expect((await db.select({ id: bookingRequests.id }).from(bookingRequests)).map((r) => r.id).sort()).toEqual(kept.sort());
  // A request's attempts (its story) go with it.
  expect((await db.select().from(requestAttempts)).map((r) => r.requestId).sort()).toEqual(kept.sort());
  expect(gone.length).toBe(3);
  expect((await db.select().from(bookings)).map((r) => r.bookingRef)).toEqual(["NEW-1"]);
  expect((await db.select({ id: slotWatches.id }).from(slotWatches)).map((r) => r.id).sort()).toEqual([youngWatch, liveWatch].sort());
  expect((await db.select().from(watchAttempts).where(eq(watchAttempts.watchId, oldWatch))).length).toBe(0);
  expect((await db.select().from(editAttempts)).map((r) => r.time)).toEqual(["06:08", "06:16"]);
  expect((await db.select().from(notifications)).map((r) => r.eventId)).toEqual(["young"]);
  expect((await db.select().from(mailOutbox)).map((r) => r.eventId)).toEqual(["young"]);
  // A device whose browser said it ends goes then, with its pushes; the others stay whatever their age.
  expect((await db.select().from(pushSubscriptions)).map((r) => r.endpoint.split("/").at(-1))).toEqual(["lasting", "no-end"]);
  expect((await db.select().from(pushOutbox)).map((r) => r.eventId)).toEqual(["young"]);
  expect((await db.select().from(sessions)).map((r) => r.id)).toEqual(["live"]);
  expect((await db.select().from(teeTimeSlots)).map((r) => r.date)).toEqual([today]);

  // A second pass finds nothing more.
  expect((await t.deps.retention.runOnce()).deleted).toEqual({});
});

test("rows go in batches of a few hundred, and the audit log keeps at most its newest rows", async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  const now = t.clock.now();
  const retention = createRetention({ ...t.deps }, { keep: { auditMaxRows: 300 } });
  // Written oldest first, as a log is.
  const rows = Array.from({ length: 1200 }, (_, i) => ({ at: now - (1199 - i), action: "club.book", outcome: "ok" }));
  for (let i = 0; i < rows.length; i += 400) await db.insert(auditLog).values(rows.slice(i, i + 400));
  const summary = await retention.runOnce();
  expect(summary.deleted["audit log (count)"]).toBe(900);
  const left = await db.select({ at: auditLog.at }).from(auditLog);
  expect(left.length).toBe(300);
  // The newest are the ones kept.
  expect(Math.min(...left.map((r) => r.at))).toBe(now - 299);
});

test("nothing is deleted while a release is near or under way; the pass is put off", async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  const now = t.clock.now();
  const maria = await t.createUser({ username: "maria" });
  await db.insert(auditLog).values({ at: daysAgo(now, 400), action: "club.login", outcome: "ok" });
  const soon = await addRequest(t, maria, { status: "pending", playDate: addDays(manilaDate(now), 7), updatedAt: now, releaseAt: now + 5 * 60_000 });
  expect(await t.deps.retention.runOnce()).toEqual({ deleted: {}, isPutOff: true });
  await db
    .update(bookingRequests)
    .set({ status: "processing", releaseAt: now - 60 * 60_000 })
    .where(eq(bookingRequests.id, soon));
  expect((await t.deps.retention.runOnce()).isPutOff).toBe(true);
  await db.update(bookingRequests).set({ status: "confirmed" }).where(eq(bookingRequests.id, soon));
  expect((await t.deps.retention.runOnce()).deleted).toEqual({ "audit log (age)": 1 });
});

test("the running job passes at the quiet hour, daily", async () => {
  t = await createTestApp();
  const retention = createRetention({ ...t.deps }, { firstPassDelayMs: 1000 });
  retention.start();
  await t.clock.advance(1000);
  for (let i = 0; i < 200 && !t.deps.jobs.get("retention")?.passes; i++) await Bun.sleep(5);
  const status = t.deps.jobs.get("retention");
  expect(status?.passes).toBe(1);
  // The helper's now is 09:00 Manila: the next pass is tomorrow at 03:30.
  expect(status?.nextRunAt).toBe(manilaInstant(addDays(manilaDate(t.clock.now()), 1), "03:30"));
  await retention.stop();
});
