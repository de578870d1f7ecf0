/**
 * Push over the API (decisions 185–187): the server's key (made once, kept sealed), turning push
 * on and off for a device with every kind of bad input refused in UI text, at most ten devices a
 * member, a device that moves to another member, the channel switches per kind (in the app, push,
 * email) and what they do when a notification is stored: pushes queued per device in the member's
 * wording, and a kind kept out of the list.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { mailOutbox, notifications, notificationSettings, pushKeys, pushOutbox, pushSubscriptions, uiText } from "../../src/db/schema.ts";
import { NOTIFICATION_KINDS } from "../../src/domain/notifications.ts";
import { PUSH_DEVICES_PER_MEMBER } from "../../src/domain/push.ts";
import { createVapidKeyStore } from "../../src/services/push-keys.ts";
import { createTestApp, type TestApp } from "../helpers/api.ts";
import { createTestDevice, fromBase64Url, toBase64Url } from "../helpers/web-push-decrypt.ts";

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const fcm = (id: string) => `https://fcm.googleapis.com/fcm/send/${id}`;

async function twoMembers() {
  const app = await createTestApp();
  const miaId = await app.createUser({ username: "mia", password: "mia-pass-1" });
  const leoId = await app.createUser({ username: "leo", password: "leo-pass-1" });
  return { app, miaId, leoId, mia: await app.signIn("mia", "mia-pass-1"), leo: await app.signIn("leo", "leo-pass-1") };
}

async function addDevice(app: TestApp, cookie: string, endpoint: string) {
  const device = await createTestDevice(endpoint);
  const res = await app.call("POST", "/v1/my/push/devices", { cookie, body: device.subscription });
  return { device, res };
}

describe("GET /v1/my/push: the server's key", () => {
  test("made once, the same on every call and after a restart, its private half sealed; members only", async () => {
    const m = await twoMembers();
    t = m.app;
    expect((await t.call("GET", "/v1/my/push")).status).toBe(401);
    const first = await (await t.call("GET", "/v1/my/push", { cookie: m.mia })).json();
    expect(first.devices).toBe(0);
    const point = fromBase64Url(first.publicKey);
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
    expect((await (await t.call("GET", "/v1/my/push", { cookie: m.leo })).json()).publicKey).toBe(first.publicKey);

    const rows = await t.deps.database.db.select().from(pushKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.publicKey).toBe(first.publicKey);
    expect(rows[0]!.privateKeySealed).toStartWith("v1.");
    const stored = await t.deps.pushKeys.get();
    expect(rows[0]!.privateKeySealed).not.toContain(stored.privateKey);
    // A server started again on the same database (its backup) keeps the keys.
    const again = createVapidKeyStore({ database: t.deps.database, secretBox: t.deps.secretBox, clock: t.clock, logger: t.deps.logger });
    expect(await again.get()).toEqual(stored);
  });

  test("a key sealed under another secret is replaced, and every device must turn push on again", async () => {
    const m = await twoMembers();
    t = m.app;
    const old = await (await t.call("GET", "/v1/my/push", { cookie: m.mia })).json();
    await addDevice(t, m.mia, fcm("mia-phone"));
    await t.deps.database.db.update(pushKeys).set({ privateKeySealed: "v1.AAAA.BBBB" });
    const restarted = createVapidKeyStore({ database: t.deps.database, secretBox: t.deps.secretBox, clock: t.clock, logger: t.deps.logger });
    const fresh = await restarted.get();
    expect(fresh.publicKey).not.toBe(old.publicKey);
    expect(await t.deps.database.db.select().from(pushSubscriptions)).toEqual([]);
    expect(t.logLines.some((line) => line.includes("could not be opened with the current secret key"))).toBe(true);
  });
});

describe("POST /v1/my/push/devices and /remove: push on and off for a device", () => {
  test("a browser's subscription is kept; the same endpoint again is one device; off removes it", async () => {
    const m = await twoMembers();
    t = m.app;
    const { device, res } = await addDevice(t, m.mia, fcm("mia-phone"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ devices: 1 });
    const [row] = await t.deps.database.db.select().from(pushSubscriptions);
    expect(row).toMatchObject({
      userId: m.miaId,
      endpoint: fcm("mia-phone"),
      p256dh: device.subscription.keys.p256dh,
      auth: device.subscription.keys.auth,
      expiresAt: null,
      createdAt: t.clock.now(),
    });
    // Renewed keys, same endpoint: still one device, the new keys kept.
    const renewed = await createTestDevice(fcm("mia-phone"));
    expect(await (await t.call("POST", "/v1/my/push/devices", { cookie: m.mia, body: { ...renewed.subscription, expirationTime: t.clock.now() + 86_400_000 } })).json()).toEqual({
      devices: 1,
    });
    expect((await t.deps.database.db.select().from(pushSubscriptions))[0]).toMatchObject({ p256dh: renewed.subscription.keys.p256dh, expiresAt: t.clock.now() + 86_400_000 });
    expect((await (await t.call("GET", "/v1/my/push", { cookie: m.mia })).json()).devices).toBe(1);

    // Leo cannot turn Mia's device off; Mia can.
    expect(await (await t.call("POST", "/v1/my/push/devices/remove", { cookie: m.leo, body: { endpoint: fcm("mia-phone") } })).json()).toEqual({ devices: 0 });
    expect(await t.deps.database.db.select().from(pushSubscriptions)).toHaveLength(1);
    expect(await (await t.call("POST", "/v1/my/push/devices/remove", { cookie: m.mia, body: { endpoint: fcm("mia-phone") } })).json()).toEqual({ devices: 0 });
    expect(await t.deps.database.db.select().from(pushSubscriptions)).toEqual([]);
    // Off again: nothing to remove, not an error.
    expect((await t.call("POST", "/v1/my/push/devices/remove", { cookie: m.mia, body: { endpoint: fcm("mia-phone") } })).status).toBe(200);
    expect((await t.call("POST", "/v1/my/push/devices", { body: device.subscription })).status).toBe(401);
  });

  test("every kind of bad subscription is refused with a 400 in UI text", async () => {
    const m = await twoMembers();
    t = m.app;
    const good = (await createTestDevice(fcm("x"))).subscription;
    const notOnCurve = toBase64Url(new Uint8Array([4, ...new Array(64).fill(0xff)]));
    const cases: [string, unknown, string][] = [
      ["no keys", { endpoint: good.endpoint }, "validation.required"],
      ["no endpoint", { keys: good.keys }, "validation.required"],
      ["an endpoint that is not a URL", { ...good, endpoint: "push me" }, "push.endpoint_not_allowed"],
      ["plain http", { ...good, endpoint: "http://fcm.googleapis.com/fcm/send/x" }, "push.endpoint_not_allowed"],
      ["an unknown host", { ...good, endpoint: "https://push.evil.example/x" }, "push.endpoint_not_allowed"],
      ["this machine", { ...good, endpoint: "https://127.0.0.1:3000/v1/admin/users" }, "push.endpoint_not_allowed"],
      ["a host that only ends like one", { ...good, endpoint: "https://fcm.googleapis.com.evil.example/x" }, "push.endpoint_not_allowed"],
      ["a very long endpoint", { ...good, endpoint: fcm("x".repeat(1000)) }, "validation.too_long"],
      ["a short public key", { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(4) } }, "push.bad_key"],
      ["a public key off the curve", { ...good, keys: { ...good.keys, p256dh: notOnCurve } }, "push.bad_key"],
      ["a public key that is not base64url", { ...good, keys: { ...good.keys, p256dh: `${good.keys.p256dh.slice(1)}+` } }, "push.bad_key"],
      ["a short auth secret", { ...good, keys: { ...good.keys, auth: "AAAA" } }, "push.bad_key"],
      ["a field Teebox does not know", { ...good, userId: m.leoId }, "validation.unknown_field"],
      ["a key field Teebox does not know", { ...good, keys: { ...good.keys, extra: "x" } }, "validation.unknown_field"],
      ["an expiry that is text", { ...good, expirationTime: "tomorrow" }, "validation.expected_number"],
      ["a list", [good], "validation.expected_object"],
    ];
    for (const [name, body, errorKey] of cases) {
      const res = await t.call("POST", "/v1/my/push/devices", { cookie: m.mia, body });
      const answer = await res.json();
      expect({ name, status: res.status, errorKey: answer.errorKey }).toEqual({ name, status: 400, errorKey });
      expect(answer.message).not.toMatch(/zod|Invalid input|expected/i);
    }
    for (const body of [{}, { endpoint: 5 }, { endpoint: fcm("x"), keys: good.keys }]) {
      expect((await t.call("POST", "/v1/my/push/devices/remove", { cookie: m.mia, body })).status).toBe(400);
    }
    expect(await t.deps.database.db.select().from(pushSubscriptions)).toEqual([]);
  });

  test("at most ten devices: the eleventh drops the oldest, whose queued pushes are not sent", async () => {
    const m = await twoMembers();
    t = m.app;
    for (let i = 1; i <= PUSH_DEVICES_PER_MEMBER; i++) {
      await addDevice(t, m.mia, fcm(`d${i}`));
      await t.clock.advance(1000);
    }
    t.deps.notifier.publish({ type: "booking_confirmed", userId: m.miaId, course: "Masters", date: "2026-11-29", time: "06:00", ref: "SW-1" });
    await t.deps.notifier.settled!();
    expect(await t.deps.database.db.select().from(pushOutbox)).toHaveLength(PUSH_DEVICES_PER_MEMBER);
    const { res } = await addDevice(t, m.mia, fcm("d11"));
    expect(await res.json()).toEqual({ devices: PUSH_DEVICES_PER_MEMBER });
    const endpoints = (await t.deps.database.db.select().from(pushSubscriptions)).map((s) => s.endpoint);
    expect(endpoints).not.toContain(fcm("d1"));
    expect(endpoints).toContain(fcm("d11"));
    const failed = await t.deps.database.db.select().from(pushOutbox).where(eq(pushOutbox.state, "failed"));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ subscriptionId: null, lastError: "not sent: the device was dropped for a newer one" });
  });

  test("a device another member turns on moves to them", async () => {
    const m = await twoMembers();
    t = m.app;
    await addDevice(t, m.mia, fcm("shared-tablet"));
    expect(await (await addDevice(t, m.leo, fcm("shared-tablet"))).res.json()).toEqual({ devices: 1 });
    expect((await (await t.call("GET", "/v1/my/push", { cookie: m.mia })).json()).devices).toBe(0);
    const rows = await t.deps.database.db.select().from(pushSubscriptions);
    expect(rows.map((r) => [r.userId, r.endpoint])).toEqual([[m.leoId, fcm("shared-tablet")]]);
  });
});

describe("the channel switches, and what a stored notification does with them", () => {
  const allOn = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, true]));

  test("each channel of each kind is switched on its own; bad switches are refused", async () => {
    const m = await twoMembers();
    t = m.app;
    const saved = await t.call("PUT", "/v1/my/notification-settings", { cookie: m.mia, body: { push: { watch_found: false }, inApp: { booking_changed: false } } });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ address: "mia@southwoods.demo", email: allOn, push: { ...allOn, watch_found: false }, inApp: { ...allOn, booking_changed: false } });
    await t.call("PUT", "/v1/my/notification-settings", { cookie: m.mia, body: { email: { watch_found: false } } });
    const [row] = await t.deps.database.db
      .select()
      .from(notificationSettings)
      .where(and(eq(notificationSettings.userId, m.miaId), eq(notificationSettings.kind, "watch_found")));
    expect(row).toEqual({ userId: m.miaId, kind: "watch_found", email: false, push: false, inApp: true });
    const cases: [unknown, string][] = [
      [{}, "notifications.settings.nothing_to_change"],
      [{ push: { no_such_kind: true } }, "validation.unknown_field"],
      [{ inApp: { request_failed: "no" } }, "validation.expected_true_false"],
      [{ sms: { request_failed: true } }, "validation.unknown_field"],
      [{ push: null }, "validation.expected_object"],
    ];
    for (const [body, errorKey] of cases) {
      const res = await t.call("PUT", "/v1/my/notification-settings", { cookie: m.mia, body });
      expect({ body, status: res.status, errorKey: (await res.json()).errorKey }).toEqual({ body, status: 400, errorKey });
    }
    expect((await (await t.call("GET", "/v1/my/notification-settings", { cookie: m.leo })).json()).push).toEqual(allOn);
  });

  test("a member's email switches from before push stay as they were, with push and the list on", async () => {
    const m = await twoMembers();
    t = m.app;
    // A row as the earlier schema wrote it: only the email switch named.
    await t.deps.database.execute(`INSERT INTO notification_settings (user_id, kind, email) VALUES (${m.miaId}, 'request_failed', 0)`);
    const read = await (await t.call("GET", "/v1/my/notification-settings", { cookie: m.mia })).json();
    expect(read.email.request_failed).toBe(false);
    expect(read.push.request_failed).toBe(true);
    expect(read.inApp.request_failed).toBe(true);
  });

  test("a notification queues a push per device in the member's wording; push off queues none; the list off keeps it out of the bell", async () => {
    const m = await twoMembers();
    t = m.app;
    await addDevice(t, m.mia, fcm("mia-phone"));
    await addDevice(t, m.mia, fcm("mia-laptop"));
    await addDevice(t, m.leo, fcm("leo-phone"));
    await t.deps.database.db
      .insert(uiText)
      .values({ key: "notifications.push_title.request_confirmed", value: "Naka-book na!" })
      .onConflictDoUpdate({ target: uiText.key, set: { value: "Naka-book na!" } });
    t.deps.notifier.publish({ type: "booking_confirmed", userId: m.miaId, course: "Masters", date: "2026-11-29", time: "06:00", ref: "SW-1", requestId: 4 });
    await t.deps.notifier.settled!();
    const pushes = await t.deps.database.db.select().from(pushOutbox).orderBy(pushOutbox.id);
    expect(pushes).toHaveLength(2);
    expect(pushes.every((p) => p.userId === m.miaId && p.state === "queued" && p.urgency === "high" && p.ttlSeconds === 86_400)).toBe(true);
    expect(JSON.parse(pushes[0]!.payload)).toEqual({
      kind: "request_confirmed",
      title: "Naka-book na!",
      body: "Booked: Masters on 2026-11-29 at 06:00 (SW-1).",
      url: "/bookings",
      tag: "booking_confirmed:SW-1",
    });
    // Raised again: no second push.
    t.deps.notifier.publish({ type: "booking_confirmed", userId: m.miaId, course: "Masters", date: "2026-11-29", time: "06:00", ref: "SW-1", requestId: 4 });
    await t.deps.notifier.settled!();
    expect(await t.deps.database.db.select().from(pushOutbox)).toHaveLength(2);

    // Push off for failures, the list off for freed tee times.
    await t.call("PUT", "/v1/my/notification-settings", { cookie: m.mia, body: { push: { request_failed: false }, inApp: { watch_found: false } } });
    const refreshes = () => t!.published.filter((p) => p.topic === `user:${m.miaId}` && p.message.type === "status").map((p) => p.message);
    let before = refreshes().length;
    t.deps.notifier.publish({
      type: "request_failed",
      userId: m.miaId,
      course: "Masters",
      date: "2026-11-29",
      requestId: 5,
      submittedAt: 1,
      reason: { key: "bookings.reason.no_time_available", context: {} },
    });
    await t.deps.notifier.settled!();
    // One refresh: the event's own resources, and the bell's for its new line.
    expect(refreshes().slice(before)).toEqual([{ type: "status", status: "updated", changed: ["my.requests", "my.notifications"] }]);
    before = refreshes().length;
    t.deps.notifier.publish({ type: "watch_found", userId: m.miaId, watchId: 3, course: "Masters", date: "2026-11-29", time: "07:04" });
    await t.deps.notifier.settled!();
    // Kept out of the list: only the event's own resources.
    expect(refreshes().slice(before)).toEqual([{ type: "status", status: "updated", changed: ["my.watches"] }]);
    const kinds = (await t.deps.database.db.select().from(pushOutbox).orderBy(pushOutbox.id)).map((p) => p.kind);
    expect(kinds).toEqual(["request_confirmed", "request_confirmed", "watch_found", "watch_found"]);
    const list = await (await t.call("GET", "/v1/my/notifications", { cookie: m.mia })).json();
    expect(list.items.map((n: { kind: string }) => n.kind)).toEqual(["request_failed", "request_confirmed"]);
    expect(list.unread).toBe(2);
    // Kept out of the list, still told once, and still emailed.
    const stored = await t.deps.database.db.select().from(notifications).where(eq(notifications.kind, "watch_found"));
    expect(stored).toMatchObject([{ listed: false, readAt: t.clock.now() }]);
    expect((await t.deps.database.db.select().from(mailOutbox)).map((r) => r.subject)).toContain("A tee time came free: Masters on 2026-11-29");
  });
});
