/**
 * One Web Push request for one device (decision 185): the payload encrypted for the browser's keys
 * as RFC 8291 says (aes128gcm, RFC 8188), a VAPID token (RFC 8292) signed with the server's key for
 * the push service's origin, and the delivery headers of RFC 8030 (TTL, Urgency, Topic). The
 * cryptography is the web-push library's (its `encrypt` and `getVapidHeaders`); the request is sent
 * by push/transport.ts, not by the library, so it goes through fetch with a timeout and an abort.
 *
 * The library (a tenth of the server's code) is loaded when push is first needed, the first key pair
 * or the first push, not at every start (decision 194).
 */
import type { PushUrgency } from "../domain/notifications.ts";

/** Where a push goes and whom it is encrypted for: a browser's push subscription. */
export interface PushTarget {
  endpoint: string;
  /** The browser's P-256 public key and authentication secret, base64url. */
  p256dh: string;
  auth: string;
}

/** The server's VAPID identity: its key pair (base64url, as browsers take the public key) and a contact. */
export interface VapidIdentity {
  /** `mailto:` or `https:`: whom the push service's operator can reach about these pushes. */
  subject: string;
  publicKey: string;
  privateKey: string;
}

export interface PushRequest {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
}

export interface PushOptions {
  ttlSeconds: number;
  urgency: PushUrgency;
  /** Pushes with the same topic replace each other while the push service still holds them. */
  topic?: string;
}

let library: Promise<typeof import("web-push")> | null = null;
const webPush = () => (library ??= import("web-push"));

/** A fresh VAPID key pair (made once per installation and kept: services/push-keys.ts). */
export async function makeVapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
  return (await webPush()).generateVAPIDKeys();
}

/** A push topic for an event: at most 32 base64url characters (RFC 8030), the same for the same event. */
export function topicOf(eventId: string): string {
  return new Bun.CryptoHasher("sha256").update(eventId).digest("base64url").slice(0, 32);
}

export async function buildPushRequest(target: PushTarget, payload: string, vapid: VapidIdentity, options: PushOptions): Promise<PushRequest> {
  const { encrypt, getVapidHeaders } = await webPush();
  const { cipherText } = encrypt(target.p256dh, target.auth, payload, "aes128gcm");
  // The token names the push service's origin; its expiry (12 hours) is the library's, on the
  // real clock, which is the one the push service checks it against.
  const { Authorization } = getVapidHeaders(new URL(target.endpoint).origin, vapid.subject, vapid.publicKey, vapid.privateKey, "aes128gcm");
  const headers: Record<string, string> = {
    TTL: String(Math.max(0, Math.round(options.ttlSeconds))),
    Urgency: options.urgency,
    "Content-Encoding": "aes128gcm",
    "Content-Type": "application/octet-stream",
    Authorization,
  };
  if (options.topic) headers.Topic = options.topic;
  return { url: target.endpoint, headers, body: new Uint8Array(cipherText) };
}
