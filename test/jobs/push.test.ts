/**
 * Pushes end to end against the demo club and a push service stand-in on loopback
 * (test/helpers/push-service.ts), each decrypted with its device's keys (test/helpers/
 * web-push-decrypt.ts): a request confirmed at the release reaches the member's phone, and how long
 * that took is printed; a device the push service says is gone (404, 410) is removed with its other
 * pushes; 429 and 5xx are tried again after their waits, then given up; a push older than its TTL
 * is not sent; and a push service that does not answer holds up no release.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, pushOutbox, pushSubscriptions } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { createTestApp, type TestApp } from "../helpers/api.ts";
import { startPushService, type PushServiceStandIn } from "../helpers/push-service.ts";
import { createTestDevice, type TestDevice } from "../helpers/web-push-decrypt.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

/** TEST_NOW is Sunday 2026-11-22 09:00 Manila: 2026-11-27 is open, 2026-11-30 opens at the release below. */
const OPEN_DATE = "2026-11-27";
const PLAY = "2026-11-30";
const RELEASE = manilaInstant("2026-11-23", "07:00");
const SUBJECT = "mailto:club@southwoods.test";
const SECOND = 1000;

let service: PushServiceStandIn | null = null;
let f: ReleaseFixture | null = null;
let t: TestApp | null = null;
afterEach(async () => {
  await f?.close();
  await t?.close();
  service?.stop();
  f = null;
  t = null;
  service = null;
});

/** A device of the member, subscribed at the stand-in and turned on through the API as the Profile page does. */
async function turnOnDevice(app: TestApp, cookie: string, name: string): Promise<TestDevice> {
  const device = await createTestDevice(service!.endpointFor(name));
  const res = await app.call("POST", "/v1/my/push/devices", { cookie, body: device.subscription });
  if (res.status !== 200) throw new Error(`turning push on failed: ${res.status} ${await res.text()}`);
  return device;
}

const outbox = (app: TestApp) => app.deps.database.db.select().from(pushOutbox).orderBy(pushOutbox.id);

async function pushApp(): Promise<{ app: TestApp; mariaId: number; maria: string }> {
  service = startPushService();
  const app = await createTestApp({ demo: true, push: { subject: SUBJECT, serviceOrigins: [service.origin] } });
  const maria = await app.signIn("maria", "demo1234");
  const [row] = await app.deps.database.query<{ id: number }>("SELECT id FROM users WHERE username = 'maria'");
  return { app, mariaId: row!.id, maria };
}

const confirmed = (userId: number, ref: string) => ({ type: "booking_confirmed" as const, userId, course: "Masters", date: PLAY, time: "06:08", ref });

describe("a release's confirmation reaches the phone", () => {
  test("booked at the release instant: the push arrives at the push service, decrypts on the device and says what was booked", async () => {
    service = startPushService();
    f = await startReleaseFixture({ push: { subject: SUBJECT, serviceOrigins: [service.origin] } });
    f.t.deps.pushSender.start();
    const cookie = await f.t.signIn("maria", "demo1234");
    const phone = await turnOnDevice(f.t, cookie, "maria-phone");
    const maria = await f.user("maria");
    await f.submit("maria", submission(PLAY, ["06:08"]));

    // The moment the notifier is told of the confirmation (its toast goes out with the event).
    let confirmedAt: number | null = null;
    f.t.deps.hub.onPublish((topic, message) => {
      if (topic === `user:${maria.id}` && message.type === "toast" && message.toast.textKey === "bookings.toast.booked") confirmedAt ??= performance.now();
    });
    await f.moveTo(RELEASE);
    const [push] = await service.waitFor(1);
    expect(confirmedAt).not.toBeNull();
    const latencyMs = push!.receivedAt - confirmedAt!;
    console.log(`push: from the release's confirmation to the push at the push service: ${latencyMs.toFixed(1)} ms`);

    const [booking] = await f.bookingsOf("maria");
    const payload = JSON.parse(await phone.decrypt(push!.body));
    expect(payload).toEqual({
      kind: "request_confirmed",
      title: "Tee time booked",
      body: `Booked: Masters on ${PLAY} at 06:08 (${booking!.bookingRef}).`,
      url: "/bookings",
      tag: `booking_confirmed:${booking!.bookingRef}`,
    });
    expect(push!.headers).toMatchObject({ ttl: "86400", urgency: "high", "content-encoding": "aes128gcm" });
    expect(push!.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(push!.vapid).toMatchObject({ subject: SUBJECT, audience: service.origin, publicKey: (await f.t.deps.pushKeys.get()).publicKey });
    expect(service.rejected).toEqual([]);

    await f.t.deps.pushSender.idle();
    const [row] = await outbox(f.t);
    expect(row).toMatchObject({ state: "sent", attempts: 1, lastError: null, sentAt: RELEASE });
    expect((await f.t.deps.database.db.select().from(pushSubscriptions))[0]!.lastSentAt).toBe(RELEASE);
    const [request] = await f.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.playDate, PLAY));
    expect(request).toMatchObject({ status: "confirmed", latenessMs: 0 });
  });
});

describe("what the push service answers", () => {
  test("410 and 404: the device is removed, and its other queued pushes are not sent", async () => {
    const { app, mariaId, maria } = await pushApp();
    t = app;
    await turnOnDevice(app, maria, "gone-phone");
    await turnOnDevice(app, maria, "lost-tablet");
    const laptop = await turnOnDevice(app, maria, "laptop");
    service!.answer("gone-phone", 410);
    service!.answer("lost-tablet", 404);
    app.deps.notifier.publish(confirmed(mariaId, "SW-1"));
    app.deps.notifier.publish(confirmed(mariaId, "SW-2"));
    await app.deps.notifier.settled!();
    expect(await outbox(app)).toHaveLength(6);
    // One at a time, so each device's first answer is seen before its second push would go.
    await createOneAtATime(app).sendDue();

    expect(service!.received.map((p) => [p.device, p.status]).sort()).toEqual([
      ["gone-phone", 410],
      ["laptop", 201],
      ["laptop", 201],
      ["lost-tablet", 404],
    ]);
    const devices = await app.deps.database.db.select().from(pushSubscriptions);
    expect(devices.map((d) => d.endpoint)).toEqual([service!.endpointFor("laptop")]);
    const rows = await outbox(app);
    expect(rows.filter((r) => r.state === "sent")).toHaveLength(2);
    const failed = rows.filter((r) => r.state === "failed").map((r) => r.lastError);
    expect(failed.sort()).toEqual([
      "not sent: the push service said the device is gone (404)",
      "not sent: the push service said the device is gone (410)",
      "the push service says the device is gone (404)",
      "the push service says the device is gone (410)",
    ]);
    expect(rows.every((r) => r.state !== "queued")).toBe(true);
    expect(JSON.parse(await laptop.decrypt(service!.received.find((p) => p.device === "laptop")!.body)).body).toContain("Booked: Masters");
    expect((await (await app.call("GET", "/v1/my/push", { cookie: maria })).json()).devices).toBe(1);
  });

  test("429 with Retry-After and 500 are tried again after their waits; then the push arrives", async () => {
    const { app, mariaId, maria } = await pushApp();
    t = app;
    const phone = await turnOnDevice(app, maria, "phone");
    service!.answer("phone", { status: 429, retryAfter: "120", body: "slow down" }, { status: 500, body: "oops" });
    app.deps.notifier.publish(confirmed(mariaId, "SW-1"));
    await app.deps.notifier.settled!();
    expect(await app.deps.pushSender.sendDue()).toBe(1);
    let [row] = await outbox(app);
    expect(row).toMatchObject({ state: "queued", attempts: 1, lastError: "the push service answered 429 slow down", nextAttemptAt: app.clock.now() + 120 * SECOND });

    await app.clock.advance(119 * SECOND);
    expect(await app.deps.pushSender.sendDue()).toBe(0);
    await app.clock.advance(SECOND);
    expect(await app.deps.pushSender.sendDue()).toBe(1);
    [row] = await outbox(app);
    // The second wait is two minutes.
    expect(row).toMatchObject({ state: "queued", attempts: 2, lastError: "the push service answered 500 oops", nextAttemptAt: app.clock.now() + 120 * SECOND });
    await app.clock.advance(120 * SECOND);
    expect(await app.deps.pushSender.sendDue()).toBe(1);
    [row] = await outbox(app);
    expect(row).toMatchObject({ state: "sent", attempts: 3, lastError: null });
    expect(service!.received.map((p) => p.status)).toEqual([429, 500, 201]);
    // What is left of its time to live goes with the retry.
    expect(service!.received.map((p) => p.headers.ttl)).toEqual(["86400", "86280", "86160"]);
    expect(JSON.parse(await phone.decrypt(service!.received[2]!.body)).title).toBe("Tee time booked");
  });

  test("a push that keeps failing is given up after its attempts; one older than its TTL is not sent at all", async () => {
    const { app, mariaId, maria } = await pushApp();
    t = app;
    await turnOnDevice(app, maria, "phone");
    service!.answer("phone", 503, 503, 503, 503, 503, 503);
    app.deps.notifier.publish(confirmed(mariaId, "SW-1"));
    await app.deps.notifier.settled!();
    for (let i = 0; i < 10 && (await outbox(app)).some((r) => r.state === "queued"); i++) {
      await app.deps.pushSender.sendDue();
      await app.clock.advance(30 * 60 * SECOND);
    }
    let [row] = await outbox(app);
    expect(row).toMatchObject({ state: "failed", attempts: 5, lastError: "the push service answered 503" });
    expect(service!.received).toHaveLength(5);
    // The device stays: the service was busy, not telling that it is gone.
    expect(await app.deps.database.db.select().from(pushSubscriptions)).toHaveLength(1);

    // A freed tee time is news for 30 minutes: the service down that long, it is not sent.
    app.deps.notifier.publish({ type: "watch_found", userId: mariaId, watchId: 7, course: "Masters", date: PLAY, time: "07:04" });
    await app.deps.notifier.settled!();
    await app.deps.pushSender.sendDue();
    await app.clock.advance(31 * 60 * SECOND);
    await app.deps.pushSender.sendDue();
    [, row] = await outbox(app);
    expect(row).toMatchObject({ kind: "watch_found", state: "failed", attempts: 1, lastError: "not sent: older than its 1800 s to live" });
    expect(service!.received).toHaveLength(6);
  });
});

describe("a push service that does not answer delays nothing else", () => {
  test("the push job waits on a held push while the release's post leaves on the instant", async () => {
    service = startPushService();
    f = await startReleaseFixture({ push: { subject: SUBJECT, serviceOrigins: [service.origin] } });
    f.t.deps.pushSender.start();
    const phone = await turnOnDevice(f.t, await f.t.signIn("maria", "demo1234"), "maria-phone");
    const release = service.hold();
    try {
      // Maria's booking now: its push goes to the push service, which keeps it without an answer.
      await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
      await f.submit("jose", submission(PLAY, ["06:08"]));
      await f.t.deps.notifier.settled!();
      const deadline = performance.now() + 5000;
      while (service.waiting() === 0 && performance.now() < deadline) await Bun.sleep(5);
      expect(service.waiting()).toBe(1);

      await f.moveTo(RELEASE);
      const jose = f.sim.attempts().filter((a) => a.email === "jose@southwoods.demo" && !a.isRival);
      expect(jose).toHaveLength(1);
      expect(jose[0]).toMatchObject({ outcome: "confirmed", arrivedClubMs: RELEASE });
      const [request] = await f.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.playDate, PLAY));
      expect(request).toMatchObject({ status: "confirmed", latenessMs: 0 });
      // Still held: the push job has not had its answer.
      expect(service.waiting()).toBe(1);
      expect(service.received).toHaveLength(0);
    } finally {
      release();
    }
    const [push] = await service.waitFor(1);
    expect(JSON.parse(await phone.decrypt(push!.body)).body).toStartWith(`Booked: Masters on ${OPEN_DATE} at 06:00`);
  });
});

describe("a slow push service holds up only its own push", () => {
  test("a push for another device, queued while one waits for its answer, goes at once", async () => {
    const { app, mariaId, maria } = await pushApp();
    t = app;
    app.deps.pushSender.start();
    await turnOnDevice(app, maria, "slow-phone");
    const leo = await createTestDevice(service!.endpointFor("leo-phone"));
    const leoId = await app.createUser({ username: "leo", password: "leo-pass-1" });
    expect((await app.call("POST", "/v1/my/push/devices", { cookie: await app.signIn("leo", "leo-pass-1"), body: leo.subscription })).status).toBe(200);
    const release = service!.hold("slow-phone");
    try {
      app.deps.notifier.publish(confirmed(mariaId, "SW-1"));
      const deadline = performance.now() + 5000;
      while (service!.waiting() === 0 && performance.now() < deadline) await Bun.sleep(5);
      expect(service!.waiting()).toBe(1);
      app.deps.notifier.publish(confirmed(leoId, "SW-2"));
      const [push] = await service!.waitFor(1);
      expect(push!.device).toBe("leo-phone");
      expect(JSON.parse(await leo.decrypt(push!.body)).tag).toBe("booking_confirmed:SW-2");
      expect(service!.waiting()).toBe(1);
    } finally {
      release();
    }
    await service!.waitFor(2);
  });
});

/** The app's push job with one push in flight at a time (the order of answers matters to the test). */
function createOneAtATime(app: TestApp) {
  return createPushSenderLike(app, 1);
}

import { createPushSender } from "../../src/jobs/push-sender.ts";

function createPushSenderLike(app: TestApp, concurrency: number) {
  return createPushSender(
    { database: app.deps.database, clock: app.clock, logger: app.deps.logger, jobs: app.deps.jobs, keys: app.deps.pushKeys },
    { subject: SUBJECT, concurrency },
  );
}
