/**
 * The service worker (served as /sw.js): keeps the app shell (index.html and the bundle's files)
 * so Teebox opens instantly and, when the server cannot be reached, still starts and shows the
 * offline view with the bookings the app last saw (web/lib/offline-snapshot.ts).
 *
 * - API answers (/v1), the socket and health checks are never cached: they always go to the network.
 * - Pages go to the network first, so an upgraded server is seen at once; the cached shell is only
 *   the fallback when the network fails.
 * - Bundle files are hashed and never change: from the cache first.
 * - A new worker (a new build: its version changes) installs, takes over at once and removes the
 *   old shell; the page then tells the member a new version is ready (web/lib/service-worker.ts).
 * - A push (decision 185) shows its notification; a tap on it brings an open Teebox window to the
 *   push's page, or opens one (web/lib/push-messages.ts).
 */
/// <reference lib="webworker" />
import { BRAND_TITLE } from "../src/domain/ui-text/common.ts";
import { apiPaths } from "./lib/api-paths.ts";
import { clickTarget, NOTIFICATION_ICON, notificationOf, windowFor } from "./lib/push-messages.ts";
import { routeOf, shellCacheName, SHELL_CACHE_PREFIX, SHELL_INDEX } from "./lib/sw-routes.ts";

declare const self: ServiceWorkerGlobalScope;
/** Filled in by the build (src/web-assets.ts): a hash of the shell, and its files. */
declare const __SHELL_VERSION__: string;
declare const __SHELL_FILES__: string[];

const CACHE = shellCacheName(__SHELL_VERSION__);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(__SHELL_FILES__))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(SHELL_CACHE_PREFIX) && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const route = routeOf(event.request, self.location.origin);
  if (route === "network") return;
  if (route === "page") {
    event.respondWith(fetch(event.request).catch(() => fromShell(SHELL_INDEX)));
    return;
  }
  event.respondWith(caches.match(event.request, { cacheName: CACHE }).then((hit) => hit ?? fetch(event.request)));
});

self.addEventListener("push", (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json() ?? null;
  } catch {
    // Not JSON: not one of ours.
  }
  const shown = notificationOf(data);
  // Browsers require every push to show something; one that is not ours still says whose it is.
  event.waitUntil(shown ? self.registration.showNotification(shown.title, shown.options) : self.registration.showNotification(BRAND_TITLE, { icon: NOTIFICATION_ICON }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opening = openFromNotification(clickTarget(event.notification.data, self.location.origin));
  event.waitUntil(opening);
});

/** Brings an open Teebox window to `url` (the page's own router takes it from there), else opens one. */
async function openFromNotification(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windowFor(windows, self.location.origin);
  if (!open) {
    await self.clients.openWindow(url);
    return;
  }
  let moved: WindowClient | null = open;
  if (open.url !== url) {
    // A window this worker does not control cannot be moved: a new one opens instead.
    moved = await open.navigate(url).catch(() => null);
    if (!moved) {
      await self.clients.openWindow(url);
      return;
    }
  }
  // Focusing is allowed during a tap; anywhere else the browser refuses it, and the page has moved anyway.
  await moved.focus().catch(() => undefined);
}

/**
 * The browser renewed the device's subscription (Firefox does, now and then): the new one is sent
 * to the server, as the Profile page would, so pushes keep arriving. Without a session it is not
 * taken, and the member's next visit to the Profile page sends it.
 */
self.addEventListener("pushsubscriptionchange", (event) => {
  const change = event as ExtendableEvent & { oldSubscription?: PushSubscription | null; newSubscription?: PushSubscription | null };
  event.waitUntil(
    (async () => {
      const key = change.oldSubscription?.options.applicationServerKey;
      const renewed = change.newSubscription ?? (key ? await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }) : null);
      if (!renewed) return;
      const { endpoint, expirationTime, keys } = renewed.toJSON();
      await fetch(apiPaths.my.pushDevices, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys?.p256dh ?? "", auth: keys?.auth ?? "" } }),
      });
    })().catch(() => undefined),
  );
});

async function fromShell(path: string): Promise<Response> {
  const hit = await caches.match(path, { cacheName: CACHE });
  return hit ?? Response.error();
}
