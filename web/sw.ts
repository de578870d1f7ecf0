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
 */
/// <reference lib="webworker" />
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

async function fromShell(path: string): Promise<Response> {
  const hit = await caches.match(path, { cacheName: CACHE });
  return hit ?? Response.error();
}
