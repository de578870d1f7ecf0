/**
 * Web Push as Teebox builds it (decision 185): the test's own RFC 8291 decryption reads RFC 8291's
 * worked example, then every push Teebox encrypts for a device; the request carries the headers a
 * push service reads and a VAPID token it can verify; the payload a push carries, what the service
 * worker shows of it and where a tap goes; which endpoints Teebox posts to; what a push service's
 * answer means.
 */
import { describe, expect, test } from "bun:test";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import { NOTIFICATION_KINDS, PUSH_DELIVERY } from "../../src/domain/notifications.ts";
import { classifyPushAnswer, isAllowedPushEndpoint, isAuthSecretText, isP256PublicKeyText, pushPayload, readPushPayload } from "../../src/domain/push.ts";
import { retryAfterSeconds } from "../../src/push/transport.ts";
import { buildPushRequest, makeVapidKeys, topicOf } from "../../src/push/web-push-request.ts";
import { clickTarget, notificationOf, windowFor } from "../../web/lib/push-messages.ts";
import { paths } from "../../web/paths.ts";
import { createTestDevice, decryptPushBody, deviceKeysFrom, fromBase64Url } from "../helpers/web-push-decrypt.ts";

/** RFC 8291, Appendix A. */
const RFC8291 = {
  plaintext: "When I grow up, I want to be a watermelon",
  uaPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  uaPublic: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  authSecret: "BTBZMqHH6r4Tts7J_aSIgg",
  body: "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

const ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc123";
const SUBJECT = "mailto:club@example.com";

describe("the test's RFC 8291 decryption", () => {
  test("reads the RFC's worked example", async () => {
    const device = await deviceKeysFrom(RFC8291.uaPrivate, RFC8291.uaPublic, RFC8291.authSecret);
    expect(await decryptPushBody(fromBase64Url(RFC8291.body), device)).toBe(RFC8291.plaintext);
  });

  test("refuses the example with another auth secret or one byte changed", async () => {
    const other = await deviceKeysFrom(RFC8291.uaPrivate, RFC8291.uaPublic, "AAAAAAAAAAAAAAAAAAAAAA");
    await expect(decryptPushBody(fromBase64Url(RFC8291.body), other)).rejects.toThrow();
    const device = await deviceKeysFrom(RFC8291.uaPrivate, RFC8291.uaPublic, RFC8291.authSecret);
    const damaged = fromBase64Url(RFC8291.body);
    damaged[damaged.length - 1] ^= 1;
    await expect(decryptPushBody(damaged, device)).rejects.toThrow();
  });
});

describe("a push request for a device", () => {
  test("its body decrypts with the device's keys to the payload, fresh each time", async () => {
    const device = await createTestDevice(ENDPOINT);
    const vapid = { subject: SUBJECT, ...(await makeVapidKeys()) };
    const payload = JSON.stringify(
      pushPayload({
        kind: "request_confirmed",
        title: "Tee time booked",
        body: "Booked: Masters on 2026-11-27 at 06:00 (SWB-1). Mañana ⛳",
        url: "/bookings",
        tag: "booking_confirmed:SWB-1",
      }),
    );
    const first = await buildPushRequest({ endpoint: ENDPOINT, ...device.subscription.keys }, payload, vapid, { ttlSeconds: 86_400, urgency: "high" });
    const second = await buildPushRequest({ endpoint: ENDPOINT, ...device.subscription.keys }, payload, vapid, { ttlSeconds: 86_400, urgency: "high" });
    expect(await device.decrypt(first.body)).toBe(payload);
    expect(await device.decrypt(second.body)).toBe(payload);
    // A new salt and sender key each time: two pushes of the same text never look alike.
    expect(Buffer.from(first.body.slice(0, 16)).equals(Buffer.from(second.body.slice(0, 16)))).toBe(false);
    expect(Buffer.from(first.body.slice(21, 86)).equals(Buffer.from(second.body.slice(21, 86)))).toBe(false);
    // Another device cannot read it.
    const stranger = await createTestDevice(ENDPOINT);
    await expect(stranger.decrypt(first.body)).rejects.toThrow();
  });

  test("carries the delivery headers and a VAPID token for the push service's origin, signed by the key it names", async () => {
    const device = await createTestDevice(ENDPOINT);
    const vapid = { subject: SUBJECT, ...(await makeVapidKeys()) };
    const request = await buildPushRequest({ endpoint: ENDPOINT, ...device.subscription.keys }, "{}", vapid, {
      ttlSeconds: 1800,
      urgency: "high",
      topic: topicOf("user 3: watch_found:watch 9"),
    });
    expect(request.url).toBe(ENDPOINT);
    expect(request.headers).toMatchObject({ TTL: "1800", Urgency: "high", "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream" });
    expect(request.headers.Topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(request.headers.Topic).toBe(topicOf("user 3: watch_found:watch 9"));
    expect(topicOf("user 3: watch_found:watch 10")).not.toBe(request.headers.Topic);

    const [, token, k] = /^vapid t=([^,]+), k=(.+)$/.exec(request.headers.Authorization!)!;
    expect(k).toBe(vapid.publicKey);
    expect(decodeProtectedHeader(token!)).toEqual({ typ: "JWT", alg: "ES256" });
    const point = fromBase64Url(vapid.publicKey);
    const key = await importJWK(
      { kty: "EC", crv: "P-256", x: Buffer.from(point.slice(1, 33)).toString("base64url"), y: Buffer.from(point.slice(33)).toString("base64url") },
      "ES256",
    );
    const { payload } = await jwtVerify(token!, key, { audience: "https://fcm.googleapis.com" });
    expect(payload.sub).toBe(SUBJECT);
    // At most a day ahead, as RFC 8292 asks (the library's own clock: the push service checks it against the real time).
    expect(payload.exp! * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(decodeJwt(token!).aud).toBe("https://fcm.googleapis.com");
    // Signed by another key, it does not verify.
    const other = fromBase64Url((await makeVapidKeys()).publicKey);
    const otherKey = await importJWK(
      { kty: "EC", crv: "P-256", x: Buffer.from(other.slice(1, 33)).toString("base64url"), y: Buffer.from(other.slice(33)).toString("base64url") },
      "ES256",
    );
    await expect(jwtVerify(token!, otherKey)).rejects.toThrow();
  });

  test("a VAPID key pair is an uncompressed P-256 point and a 32-byte scalar", async () => {
    const keys = await makeVapidKeys();
    expect(fromBase64Url(keys.publicKey)).toHaveLength(65);
    expect(fromBase64Url(keys.publicKey)[0]).toBe(4);
    expect(fromBase64Url(keys.privateKey)).toHaveLength(32);
  });
});

describe("what a push carries, shows and opens", () => {
  test("every kind opens one of the app's pages, urgently or not, kept no longer than a day", () => {
    const pages = new Set<string>(Object.values(paths));
    for (const kind of NOTIFICATION_KINDS) {
      const delivery = PUSH_DELIVERY[kind];
      expect(pages.has(delivery.page)).toBe(true);
      expect(delivery.ttlSeconds).toBeGreaterThan(0);
      expect(delivery.ttlSeconds).toBeLessThanOrEqual(86_400);
    }
    expect(PUSH_DELIVERY.watch_found).toEqual({ page: "/book", urgency: "high", ttlSeconds: 1800 });
    expect(PUSH_DELIVERY.request_confirmed.urgency).toBe("high");
  });

  test("a long text is cut so the encrypted push stays small", () => {
    const payload = pushPayload({ kind: "request_failed", title: "t".repeat(500), body: "b".repeat(5000), url: "/bookings", tag: "x" });
    expect(payload.title).toHaveLength(120);
    expect(payload.body).toHaveLength(600);
    expect(payload.body.endsWith("…")).toBe(true);
    expect(new TextEncoder().encode(JSON.stringify(payload)).length).toBeLessThan(3000);
  });

  test("the service worker shows ours with the app's icon and a tag, and nothing of a stranger's", () => {
    const shown = notificationOf({ kind: "request_confirmed", title: "Tee time booked", body: "Booked: Masters", url: "/bookings", tag: "booking_confirmed:SWB-1" });
    expect(shown).toEqual({
      title: "Tee time booked",
      options: { body: "Booked: Masters", icon: "/icons/icon-192.png", tag: "booking_confirmed:SWB-1", data: { url: "/bookings", kind: "request_confirmed" } },
    });
    expect(notificationOf(null)).toBeNull();
    expect(notificationOf({ body: "no title" })).toBeNull();
    expect(notificationOf("text")).toBeNull();
    // A page on another site is never opened: the home page instead.
    expect(readPushPayload({ title: "x", url: "https://evil.example/" })?.url).toBe("/");
    expect(readPushPayload({ title: "x", url: "//evil.example/" })?.url).toBe("/");
  });

  test("a tap opens the push's page on our own origin, in a focused window of ours first", () => {
    const origin = "https://teebox.example.com";
    expect(clickTarget({ url: "/bookings" }, origin)).toBe("https://teebox.example.com/bookings");
    expect(clickTarget({ url: "https://evil.example/x" }, origin)).toBe("https://teebox.example.com/");
    expect(clickTarget({ url: "//evil.example/x" }, origin)).toBe("https://teebox.example.com/");
    expect(clickTarget(null, origin)).toBe("https://teebox.example.com/");
    const windows = [
      { url: "https://other.example/", focused: true, id: 0 },
      { url: `${origin}/book`, focused: false, id: 1 },
      { url: `${origin}/`, focused: true, id: 2 },
    ];
    expect(windowFor(windows, origin)?.id).toBe(2);
    expect(windowFor(windows.slice(0, 2), origin)?.id).toBe(1);
    expect(windowFor(windows.slice(0, 1), origin)).toBeNull();
  });
});

describe("where Teebox posts pushes, and what the answer means", () => {
  test("only https endpoints of the known push services, or an origin the operator added", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/x",
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://web.push.apple.com/QGx",
      "https://wns2-by3p.notify.windows.com/w/?token=x",
    ]) {
      expect(isAllowedPushEndpoint(endpoint)).toBe(true);
    }
    for (const endpoint of [
      "http://fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com.evil.example/x",
      "https://evilpush.apple.com/x",
      "https://127.0.0.1/x",
      "https://user:pw@fcm.googleapis.com/x",
      "not a url",
      "http://127.0.0.1:9999/push/a",
    ]) {
      expect(isAllowedPushEndpoint(endpoint)).toBe(false);
    }
    expect(isAllowedPushEndpoint("http://127.0.0.1:9999/push/a", ["http://127.0.0.1:9999"])).toBe(true);
    expect(isAllowedPushEndpoint("http://127.0.0.1:9998/push/a", ["http://127.0.0.1:9999"])).toBe(false);
  });

  test("a subscription's keys: a 65-byte point and a 16-byte secret, base64url", () => {
    expect(isP256PublicKeyText(RFC8291.uaPublic)).toBe(true);
    expect(isP256PublicKeyText(RFC8291.uaPublic.slice(1))).toBe(false);
    expect(isP256PublicKeyText(`${RFC8291.uaPublic}=`)).toBe(false);
    expect(isP256PublicKeyText(`C${RFC8291.uaPublic.slice(1)}`)).toBe(false);
    expect(isAuthSecretText(RFC8291.authSecret)).toBe(true);
    expect(isAuthSecretText("AAAA")).toBe(false);
    expect(isAuthSecretText("not base64!")).toBe(false);
  });

  test("taken, gone, try again, or refused for good", () => {
    expect([200, 201, 202].map(classifyPushAnswer)).toEqual(["sent", "sent", "sent"]);
    expect([404, 410].map(classifyPushAnswer)).toEqual(["gone", "gone"]);
    expect([429, 500, 502, 503].map(classifyPushAnswer)).toEqual(["retry", "retry", "retry", "retry"]);
    expect([400, 401, 403, 413, 301].map(classifyPushAnswer)).toEqual(["refused", "refused", "refused", "refused", "refused"]);
    expect(retryAfterSeconds("120", 0)).toBe(120);
    expect(retryAfterSeconds("Thu, 01 Jan 1970 00:01:00 GMT", 0)).toBe(60);
    expect(retryAfterSeconds("soon", 0)).toBeNull();
    expect(retryAfterSeconds(null, 0)).toBeNull();
  });
});
