/**
 * The notification journey in real Chromium against a Teebox running the demo club: a
 * request confirmed at the club → the bell says 1 unread without a reload → the list shows the
 * booking → marked read. On a phone the bell is a 44 px target and its list fits the screen; the
 * admin's System Monitor shows the email Teebox would have sent (no SMTP configured in the test).
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { ADMIN_USERNAME, bookAnOpenDate, openPage, saveScreenshot, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";
import type { Browser } from "playwright-core";
import { NOTIFICATION_KINDS } from "../../src/domain/notifications.ts";

const DEMO_PASSWORD = "demo1234";
const CLUB_WAIT_MS = 20_000;
const JOURNEY_TIMEOUT_MS = 120_000;

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const bellOf = (page: Page) => page.getByTestId("notification-bell");

describe("notifications", () => {
  test(
    "a request confirmed against the demo club: the bell shows 1, the list shows it, then it is read",
    async () => {
      const { context, page } = await openPage(browser, server, { viewport: { width: 1280, height: 800 }, hasSeenWelcome: true });
      try {
        await signIn(page, "ana", DEMO_PASSWORD);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        expect(await bellOf(page).getAttribute("aria-label")).toBe("Notifications");

        await bookAnOpenDate(page);
        // The socket brings the count: no reload, no navigation.
        await page.waitForFunction(() => document.querySelector('[data-testid="notification-bell"]')?.getAttribute("aria-label") === "Notifications, 1 unread", undefined, {
          timeout: CLUB_WAIT_MS,
        });
        expect(await page.getByTestId("notification-count").textContent()).toBe("1");
        await saveScreenshot(page, "notifications-1-bell");

        await bellOf(page).click();
        const dialog = page.getByRole("dialog", { name: "Notifications" });
        await dialog.waitFor();
        const items = dialog.getByRole("listitem");
        expect(await items.count()).toBe(1);
        expect(await items.first().textContent()).toMatch(/^Booked: \w+ on \d{4}-\d{2}-\d{2} at \d{2}:\d{2} \(.+\)\./);
        expect(await items.first().textContent()).toContain("Unread");
        await saveScreenshot(page, "notifications-2-list");

        await dialog.getByRole("button", { name: "Mark all as read" }).click();
        await page.waitForFunction(() => document.querySelector('[data-testid="notification-bell"]')?.getAttribute("aria-label") === "Notifications");
        expect(await items.first().textContent()).not.toContain("Unread");
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
        expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("notification-bell");

        // Read stays read after a reload.
        await page.reload();
        await bellOf(page).waitFor();
        await page.waitForLoadState("networkidle");
        expect(await bellOf(page).getAttribute("aria-label")).toBe("Notifications");
      } catch (error) {
        await saveScreenshot(page, "notifications-failure").catch(() => undefined);
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nServer output:\n${server.output().slice(-4000)}`);
      } finally {
        await context.close();
      }
    },
    JOURNEY_TIMEOUT_MS,
  );

  test(
    "on a 390 px phone the bell is a 44 px target and its list fits; the admin's outbox shows the email not sent",
    async () => {
      const { context, page } = await openPage(browser, server, { viewport: { width: 390, height: 844 }, hasSeenWelcome: true });
      try {
        await signIn(page, "ana", DEMO_PASSWORD);
        await bellOf(page).waitFor();
        await page.waitForFunction(() => document.querySelector('[data-testid="notification-bell"]')?.getAttribute("aria-label") === "Notifications");
        const box = (await bellOf(page).boundingBox())!;
        expect(Math.round(box.width)).toBeGreaterThanOrEqual(44);
        expect(Math.round(box.height)).toBeGreaterThanOrEqual(44);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await saveScreenshot(page, "notifications-phone-1-header");

        await bellOf(page).click();
        const dialog = page.getByRole("dialog", { name: "Notifications" });
        await dialog.waitFor();
        for (const button of await dialog.getByRole("button").all()) {
          const r = (await button.boundingBox())!;
          expect(Math.round(r.height)).toBeGreaterThanOrEqual(44);
          expect(r.x).toBeGreaterThanOrEqual(0);
          expect(r.x + r.width).toBeLessThanOrEqual(390);
        }
        await saveScreenshot(page, "notifications-phone-2-list");
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });

        // The profile's switches are thumb-sized too.
        await page.goto("/profile");
        const switches = page.getByRole("region", { name: "Notifications" }).getByRole("switch");
        await switches.nth(1).waitFor();
        // This device's push, then each kind by push, in the app and by email.
        expect(await switches.count()).toBe(1 + NOTIFICATION_KINDS.length * 3);
        for (const row of await page.locator(".notification-settings__switch").all()) expect(Math.round((await row.boundingBox())!.height)).toBeGreaterThanOrEqual(44);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await saveScreenshot(page, "notifications-phone-3-profile");
        await context.close();

        // The admin sees the message of the first journey, kept because no SMTP server is configured.
        const admin = await openPage(browser, server, { viewport: { width: 390, height: 844 }, hasSeenWelcome: true });
        try {
          await signIn(admin.page, ADMIN_USERNAME, server.adminPassword);
          await admin.page.goto("/admin");
          const outbox = admin.page.getByTestId("mail-outbox");
          await outbox.getByText("No SMTP server is configured", { exact: false }).waitFor({ timeout: 10_000 });
          const table = admin.page.getByTestId("mail-outbox-table");
          await table.getByText("ana@southwoods.demo").first().waitFor();
          expect(await table.textContent()).toContain("not sent: no SMTP configured");
          expect(await table.textContent()).toMatch(/Teebox booked \w+ on \d{4}-\d{2}-\d{2} at \d{2}:\d{2}/);
          expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
          await saveScreenshot(admin.page, "notifications-phone-4-admin-outbox");
        } finally {
          await admin.context.close();
        }
      } catch (error) {
        await saveScreenshot(page, "notifications-phone-failure").catch(() => undefined);
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nServer output:\n${server.output().slice(-4000)}`);
      } finally {
        await context.close().catch(() => undefined);
      }
    },
    JOURNEY_TIMEOUT_MS,
  );
});
