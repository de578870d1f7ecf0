/**
 * What the service worker (web/sw.ts) does with a push and a tap on its notification, as pure
 * functions so they are tested without a browser: the notification a push shows, and which window
 * a tap brings forward (one of ours already open, moved to the push's page, else a new one).
 */
import { readPushPayload } from "../../src/domain/push.ts";

/** The app's icon, shown beside every notification. */
export const NOTIFICATION_ICON = "/icons/icon-192.png";

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { data: { url: string; kind: string } };
}

/** The notification a push's JSON shows, or null for a push that is not one of ours. */
export function notificationOf(data: unknown): ShownNotification | null {
  const payload = readPushPayload(data);
  if (!payload) return null;
  return {
    title: payload.title,
    options: {
      body: payload.body,
      icon: NOTIFICATION_ICON,
      // The same event pushed again (a retry) replaces its notification rather than adding one.
      ...(payload.tag ? { tag: payload.tag } : {}),
      data: { url: payload.url, kind: payload.kind },
    },
  };
}

/** The page a tap opens: the notification's page on our own origin, else the home page. */
export function clickTarget(data: unknown, origin: string): string {
  const path = typeof data === "object" && data !== null && typeof (data as { url?: unknown }).url === "string" ? (data as { url: string }).url : "/";
  const url = new URL(path.startsWith("/") && !path.startsWith("//") ? path : "/", origin);
  return url.origin === origin ? url.href : `${origin}/`;
}

/** Which open window of ours a tap uses: a focused one first, else the first; null when none is open. */
export function windowFor<C extends { url: string; focused: boolean }>(windows: readonly C[], origin: string): C | null {
  const ours = windows.filter((w) => w.url.startsWith(`${origin}/`) || w.url === origin);
  return ours.find((w) => w.focused) ?? ours[0] ?? null;
}
