/**
 * Push on this device (decision 187): whether the browser can have it, and turning it on (the
 * notification permission, a push subscription made with the server's VAPID key, sent to the
 * server) or off (the subscription removed on the server and in the browser). Kept in lib/ because
 * signing out turns it off too (web/lib/session-store.ts): a shared phone stops showing the
 * member's news once they leave.
 *
 * An iPhone or iPad gets push only in the app added to the home screen (a standalone window), so
 * there the switch explains how instead of asking.
 */
import { base64UrlBytes } from "../../src/domain/push.ts";
import { pushDevicesSchema, pushStatusSchema, type PushDevices, type PushStatus } from "../../src/features/push/push.schemas.ts";
import { api, getJson, withCacheBuster } from "./api.ts";
import { apiPaths } from "./api-paths.ts";

/** What this browser allows: push can be turned on (`ready`), or why not. */
export type PushSupport = "ready" | "unsupported" | "insecure" | "install-first" | "denied";

/** The parts of the browser this reads, so tests can give their own. */
export interface PushBrowser {
  isSecureContext: boolean;
  userAgent: string;
  maxTouchPoints: number;
  platform: string;
  /** True when the app runs from the home screen (display-mode standalone, or iOS's navigator.standalone). */
  isStandalone: boolean;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  /** Notification.permission, or null when the browser has no notifications. */
  permission: NotificationPermission | null;
}

export function currentBrowser(): PushBrowser {
  const nav = globalThis.navigator as (Navigator & { standalone?: boolean }) | undefined;
  return {
    isSecureContext: globalThis.isSecureContext ?? false,
    userAgent: nav?.userAgent ?? "",
    maxTouchPoints: nav?.maxTouchPoints ?? 0,
    platform: nav?.platform ?? "",
    isStandalone: Boolean(globalThis.matchMedia?.("(display-mode: standalone)").matches || nav?.standalone),
    hasServiceWorker: Boolean(nav?.serviceWorker),
    hasPushManager: typeof globalThis.PushManager === "function",
    permission: typeof globalThis.Notification === "function" ? globalThis.Notification.permission : null,
  };
}

/** An iPhone, iPod or iPad (which calls itself a Mac with a touch screen). */
export function isAppleMobile(browser: Pick<PushBrowser, "userAgent" | "maxTouchPoints" | "platform">): boolean {
  return /iPhone|iPad|iPod/.test(browser.userAgent) || (browser.platform === "MacIntel" && browser.maxTouchPoints > 1);
}

export function pushSupport(browser: PushBrowser = currentBrowser()): PushSupport {
  if (isAppleMobile(browser) && !browser.isStandalone) return "install-first";
  if (!browser.isSecureContext) return "insecure";
  if (!browser.hasServiceWorker || !browser.hasPushManager || browser.permission === null) return "unsupported";
  if (browser.permission === "denied") return "denied";
  return "ready";
}

/** The member asked for push and the browser's permission was not given. */
export class PushPermissionError extends Error {
  constructor(readonly permission: NotificationPermission) {
    super(`notification permission: ${permission}`);
    this.name = "PushPermissionError";
  }
}

export const pushApi = {
  status: (): Promise<PushStatus> => getJson(withCacheBuster(apiPaths.my.push), pushStatusSchema),
  add: (subscription: PushSubscriptionJSON): Promise<PushDevices> =>
    api.postFor(
      apiPaths.my.pushDevices,
      {
        endpoint: subscription.endpoint ?? "",
        expirationTime: subscription.expirationTime ?? null,
        keys: { p256dh: subscription.keys?.p256dh ?? "", auth: subscription.keys?.auth ?? "" },
      },
      pushDevicesSchema,
    ),
  remove: (endpoint: string): Promise<PushDevices> => api.postFor(apiPaths.my.removePushDevice, { endpoint }, pushDevicesSchema),
};

async function registration(): Promise<ServiceWorkerRegistration | null> {
  const container = globalThis.navigator?.serviceWorker;
  return container ? ((await container.getRegistration()) ?? null) : null;
}

/** Whether the subscription was made with this server key (one made with an older key reaches nothing). */
export function isMadeWithKey(subscription: PushSubscription, publicKey: string): boolean {
  const used = subscription.options?.applicationServerKey;
  const expected = base64UrlBytes(publicKey);
  if (!used || !expected) return false;
  const bytes = new Uint8Array(used);
  return bytes.length === expected.length && bytes.every((b, i) => b === expected[i]);
}

/** This browser's subscription made with the server's current key, or null. */
export async function currentSubscription(publicKey: string): Promise<PushSubscription | null> {
  const subscription = (await (await registration())?.pushManager.getSubscription()) ?? null;
  return subscription && isMadeWithKey(subscription, publicKey) ? subscription : null;
}

/**
 * Turns push on for this device: asks for the permission (once the member flipped the switch, as
 * browsers require), subscribes with the server's key (replacing a subscription made with another)
 * and sends the subscription to the server. Answers how many devices now have push on.
 */
export async function turnOnThisDevice(publicKey: string): Promise<PushDevices> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new PushPermissionError(permission);
  const worker = await navigator.serviceWorker.ready;
  const existing = await worker.pushManager.getSubscription();
  if (existing && !isMadeWithKey(existing, publicKey)) await existing.unsubscribe();
  const key = base64UrlBytes(publicKey);
  if (!key) throw new Error("the server's push key is not base64url");
  const subscription = existing && isMadeWithKey(existing, publicKey) ? existing : await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return pushApi.add(subscription.toJSON());
}

/** Turns push off for this device: the server forgets it first (while the session lasts), then the browser. */
export async function turnOffThisDevice(): Promise<PushDevices | null> {
  const subscription = (await (await registration())?.pushManager.getSubscription()) ?? null;
  if (!subscription) return null;
  const answer = await pushApi.remove(subscription.endpoint);
  await subscription.unsubscribe();
  return answer;
}

/** At logout: the server forgets this device if it can, and the browser drops the subscription either way. */
export async function forgetThisDevice(): Promise<void> {
  const subscription = (await (await registration())?.pushManager.getSubscription()) ?? null;
  if (!subscription) return;
  await pushApi.remove(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe();
}
