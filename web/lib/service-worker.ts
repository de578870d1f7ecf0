/**
 * Registers the service worker (web/sw.ts, served as /sw.js) and tells the page when a new
 * version has taken over, so the member can reload into it (web/components/update-banner.tsx).
 * The worker is looked for again whenever the tab comes back, since members keep the app open.
 */
import { clientLog } from "./client-log.ts";

type Listener = () => void;
let isUpdateReady = false;
const listeners = new Set<Listener>();

export function isNewVersionReady(): boolean {
  return isUpdateReady;
}

export function onNewVersionReady(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Marks the new version as ready (the worker took over from an older one). */
export function announceNewVersion(): void {
  if (isUpdateReady) return;
  isUpdateReady = true;
  for (const listener of listeners) listener();
}

export function registerServiceWorker(container: ServiceWorkerContainer | undefined = globalThis.navigator?.serviceWorker): void {
  if (!container) return;
  // A page first opened without a worker is not stale when one takes over; only a replaced worker means a new version.
  const hadController = Boolean(container.controller);
  container.addEventListener("controllerchange", () => {
    if (hadController) announceNewVersion();
  });
  const register = () =>
    container
      .register("/sw.js", { scope: "/" })
      .then((registration) => {
        document.addEventListener("visibilitychange", () => {
          if (document.visibilityState === "visible") void registration.update().catch(() => undefined);
        });
      })
      .catch((error: unknown) => clientLog.warn("Service worker registration failed", { error: error instanceof Error ? error.message : String(error) }));
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });
}
