/**
 * Push to the phone in real Chromium against a Teebox running the demo club, with a push service
 * stand-in on loopback (PUSH_SERVICE_ORIGINS): the member turns push on for the device on the
 * Profile page, books an open date, Teebox encrypts the "booked" push for the device and posts it to
 * the stand-in, the test decrypts it with the device's keys and hands it to the app's service worker
 * through the DevTools protocol (`ServiceWorker.deliverPushMessage`), the worker shows the
 * notification, and a click on it brings the window to the Bookings page.
 *
 * Two parts of a real phone are stood in for, because headless Chromium has neither: its push
 * subscription (`PushManager.subscribe` answers "Registration failed - permission denied" without a
 * push service, even with the permission granted), so the page's PushManager answers with the
 * test device's subscription, made here so the test holds its private key; and the click on a
 * shown notification (headless shows none on screen), so the worker's own `notificationclick`
 * handler is dispatched in the worker with the notification it shows.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { readPushPayload } from "../../src/domain/push.ts";
import { startPushService } from "../helpers/push-service.ts";
import { createTestDevice, decryptPushBody } from "../helpers/web-push-decrypt.ts";
import { bookAnOpenDate, openPage, saveScreenshot, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";

const DEMO_PASSWORD = "demo1234";
const WAIT_MS = 20_000;
const JOURNEY_TIMEOUT_MS = 120_000;

const pushService = startPushService();
afterAll(() => pushService.stop());

let server: TestServer;
let browser: Browser;
useServerAndBrowser(
  (s, b) => {
    server = s;
    browser = b;
  },
  { PUSH_SERVICE_ORIGINS: pushService.origin },
);

/**
 * The page's PushManager answers with this subscription (kept in localStorage across reloads), as
 * the browser's would after subscribing at the stand-in with the key the page passed.
 */
function standInSubscription(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): void {
  const storageKey = "e2e.pushSubscription";
  type Saved = { applicationServerKey: number[] };
  const made = (saved: Saved) => ({
    endpoint: subscription.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(saved.applicationServerKey).buffer },
    toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
    unsubscribe: async () => {
      localStorage.removeItem(storageKey);
      return true;
    },
  });
  PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
    const key = options?.applicationServerKey;
    const bytes = key instanceof ArrayBuffer ? new Uint8Array(key) : ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : new Uint8Array();
    const saved = { applicationServerKey: [...bytes] };
    localStorage.setItem(storageKey, JSON.stringify(saved));
    return made(saved) as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async () => {
    const saved = localStorage.getItem(storageKey);
    return saved ? (made(JSON.parse(saved) as Saved) as unknown as PushSubscription) : null;
  };
}

/** The service worker's registration id, as the DevTools protocol names it. */
async function registrationIdOf(page: Page): Promise<{ id: string; send(method: string, params: object): Promise<unknown> }> {
  const session = await page.context().newCDPSession(page);
  const ids: string[] = [];
  session.on("ServiceWorker.workerRegistrationUpdated", (event: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
    for (const r of event.registrations) if (!r.isDeleted && r.scopeURL.startsWith(server.baseUrl)) ids.push(r.registrationId);
  });
  await session.send("ServiceWorker.enable");
  const deadline = Date.now() + WAIT_MS;
  while (ids.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (ids.length === 0) throw new Error("the DevTools protocol named no service worker registration");
  return { id: ids[0]!, send: (method, params) => session.send(method as "ServiceWorker.deliverPushMessage", params as never) };
}

/** What the page reads of the notification its service worker shows, once it shows one (null until then). */
const shownNotification = (page: Page) =>
  page.evaluate(async () => {
    const [n] = await (await navigator.serviceWorker.ready).getNotifications();
    return n ? { title: n.title, body: n.body, icon: n.icon, tag: n.tag, data: n.data as unknown } : null;
  });

/** How long a delivery may take to be shown before it is made again, and how many times. */
const DELIVERY_WAIT_MS = 5_000;
const DELIVERIES = 3;

/**
 * Hands `text` to the page's service worker as the browser's push service would, and waits for the
 * notification it shows. Like a push service that gets no answer, it delivers again, to the
 * registration read afresh: on a busy machine a delivery was once left without a notification.
 */
async function deliverUntilShown(page: Page, text: string): Promise<NonNullable<Awaited<ReturnType<typeof shownNotification>>>> {
  for (let delivery = 1; delivery <= DELIVERIES; delivery++) {
    const worker = await registrationIdOf(page);
    await worker.send("ServiceWorker.deliverPushMessage", { origin: server.baseUrl, registrationId: worker.id, data: text });
    const deadline = Date.now() + DELIVERY_WAIT_MS;
    while (Date.now() < deadline) {
      const shown = await shownNotification(page);
      if (shown) return shown;
      await Bun.sleep(100);
    }
  }
  throw new Error(`no notification was shown after ${DELIVERIES} deliveries`);
}

describe("push to the phone", () => {
  test(
    "push turned on from the Profile; a booking's push, decrypted from the push service, shows its notification, and a click opens Bookings",
    async () => {
      const device = await createTestDevice(pushService.endpointFor("maria-phone"));
      const { context, page } = await openPage(browser, server, { viewport: { width: 1280, height: 800 }, hasSeenWelcome: true });
      context.setDefaultTimeout(WAIT_MS);
      try {
        await context.grantPermissions(["notifications"], { origin: server.baseUrl });
        await context.addInitScript(standInSubscription, device.subscription);
        await signIn(page, "maria", DEMO_PASSWORD);
        await page.waitForFunction(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined);

        await page.goto("/profile");
        const deviceSwitch = page.getByRole("switch", { name: "Notifications on this device" });
        await page.waitForFunction(() => (document.querySelector('[data-testid="push-device"] input') as HTMLInputElement | null)?.disabled === false);
        expect(await deviceSwitch.isChecked()).toBe(false);
        await deviceSwitch.click();
        await page.getByText("Notifications are on for this device").first().waitFor();
        expect(await deviceSwitch.isChecked()).toBe(true);
        await page.getByText("Push is on for 1 of your devices.", { exact: false }).waitFor();
        await saveScreenshot(page, "push-1-profile-on");

        await bookAnOpenDate(page, WAIT_MS);
        const [arrived] = await pushService.waitFor(1, WAIT_MS);
        expect(arrived!.device).toBe("maria-phone");
        expect(arrived!.headers.urgency).toBe("high");
        expect(arrived!.vapid.audience).toBe(pushService.origin);
        const text = await decryptPushBody(arrived!.body, device.keys);
        const payload = readPushPayload(JSON.parse(text));
        expect(payload).toMatchObject({ kind: "request_confirmed", title: "Tee time booked", url: "/bookings" });
        expect(payload!.body).toMatch(/^Booked: \w+ on \d{4}-\d{2}-\d{2} at \d{2}:\d{2} \(.+\)\./);

        // The push as the browser's push service would hand it to the device's service worker.
        await page.goto("/profile");
        const shown = await deliverUntilShown(page, text);
        expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length)).toBe(1);
        expect(shown).toMatchObject({ title: "Tee time booked", body: payload!.body, tag: payload!.tag, data: { url: "/bookings", kind: "request_confirmed" } });
        expect(shown.icon).toEndWith("/icons/icon-192.png");

        // A tap on it: the worker's own handler, with the notification it shows, moves this window to Bookings.
        const serviceWorker = context.serviceWorkers().find((w) => w.url().startsWith(server.baseUrl)) ?? (await context.waitForEvent("serviceworker"));
        await serviceWorker.evaluate(async () => {
          const sw = self as unknown as ServiceWorkerGlobalScope;
          const [notification] = await sw.registration.getNotifications();
          try {
            sw.dispatchEvent(new NotificationEvent("notificationclick", { notification: notification! }));
          } catch {
            // waitUntil refuses an event the browser did not dispatch itself; the handler has started by then.
          }
        });
        await page.waitForURL((url) => url.pathname === "/bookings");
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length)).toBe(0);
        await saveScreenshot(page, "push-2-bookings-from-notification");

        // Off again: the server forgets the device (the count of the member's devices is gone).
        await page.goto("/profile");
        await page.waitForFunction(() => (document.querySelector('[data-testid="push-device"] input') as HTMLInputElement | null)?.checked === true);
        await deviceSwitch.click();
        await page.getByText("Notifications are off for this device").first().waitFor();
        expect(await deviceSwitch.isChecked()).toBe(false);
        await page.getByText("Push is on for", { exact: false }).waitFor({ state: "detached" });
      } catch (error) {
        await saveScreenshot(page, "push-failure").catch(() => undefined);
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nServer output:\n${server.output().slice(-4000)}`);
      } finally {
        await context.close();
      }
    },
    JOURNEY_TIMEOUT_MS,
  );
});
