/**
 * Web Push, as rules shared by the server and the web app (decisions 185 and 187): which push
 * services a browser's subscription may point at, how many devices a member keeps, what a push
 * carries, and what a push service's answer means. Pure: no I/O, no clock.
 */
import type { NotificationKind } from "./notifications.ts";

/** Devices (browser subscriptions) kept per member; a new one beyond this drops the oldest. */
export const PUSH_DEVICES_PER_MEMBER = 10;
/** The longest endpoint accepted (the push services' run from 150 to 400 characters). */
export const PUSH_ENDPOINT_MAX = 1000;
/** A push body's title and text are cut to these, so the encrypted push stays far below 4 KB. */
export const PUSH_TITLE_MAX = 120;
export const PUSH_BODY_MAX = 600;

/**
 * The push services of the browsers members use, by host name: Google's (Chrome, Android, Edge on
 * Android, Samsung Internet, Opera), Mozilla's (Firefox), Apple's (Safari on macOS and on iPhone
 * from the home screen) and Microsoft's (Edge on Windows). A subscription must be `https:` on one
 * of them or one of the origins an operator adds (PUSH_SERVICE_ORIGINS): Teebox posts to the
 * endpoint, so an endpoint anywhere else would make it post wherever a member asked.
 */
export const KNOWN_PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com"] as const;

function isHostOf(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** Whether Teebox will post to this endpoint: a known push service over https, or an origin the operator allowed. */
export function isAllowedPushEndpoint(endpoint: string, extraOrigins: readonly string[] = []): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (extraOrigins.includes(url.origin)) return true;
  return url.protocol === "https:" && KNOWN_PUSH_SERVICE_HOSTS.some((domain) => isHostOf(url.hostname.toLowerCase(), domain));
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The bytes of a base64url text (no padding), or null when it is not one. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A subscription's public key: an uncompressed P-256 point (65 bytes, starting with 4). Whether it lies on the curve is checked where it is used. */
export function isP256PublicKeyText(text: string): boolean {
  const bytes = base64UrlBytes(text);
  return bytes !== null && bytes.length === 65 && bytes[0] === 4;
}

/** A subscription's authentication secret: 16 bytes. */
export function isAuthSecretText(text: string): boolean {
  return base64UrlBytes(text)?.length === 16;
}

/** What a push carries, as JSON, for the service worker to show (web/sw.ts). */
export interface PushPayload {
  kind: NotificationKind | string;
  title: string;
  body: string;
  /** The app's page to open, a path on Teebox's own origin. */
  url: string;
  /** Notifications with the same tag replace each other: the same event pushed twice shows once. */
  tag: string;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function pushPayload(fields: PushPayload): PushPayload {
  return { kind: fields.kind, title: cut(fields.title, PUSH_TITLE_MAX), body: cut(fields.body, PUSH_BODY_MAX), url: fields.url, tag: fields.tag };
}

/**
 * A push's payload as the service worker receives it, or null when it is not one of ours. The
 * page is kept only when it is a path on our own origin: a push never opens another site.
 */
export function readPushPayload(data: unknown): PushPayload | null {
  if (typeof data !== "object" || data === null) return null;
  const { kind, title, body, url, tag } = data as Record<string, unknown>;
  if (typeof title !== "string" || title === "") return null;
  const page = typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/";
  return {
    kind: typeof kind === "string" ? kind : "",
    title: cut(title, PUSH_TITLE_MAX),
    body: typeof body === "string" ? cut(body, PUSH_BODY_MAX) : "",
    url: page,
    tag: typeof tag === "string" ? tag : "",
  };
}

/**
 * What a push service's answer means (RFC 8030): taken (201, or any 2xx); the subscription is
 * gone for good (404, 410: remove it); try again later (429, 5xx, and no answer at all); or the
 * push itself was refused and will be refused again (other 4xx: a bad key, too large).
 */
export type PushAnswer = "sent" | "gone" | "retry" | "refused";

export function classifyPushAnswer(status: number): PushAnswer {
  if (status >= 200 && status < 300) return "sent";
  if (status === 404 || status === 410) return "gone";
  if (status === 429 || status >= 500) return "retry";
  return "refused";
}

/** States of a push in the push outbox. */
export const PUSH_STATES = ["queued", "sent", "failed"] as const;
export type PushState = (typeof PUSH_STATES)[number];
