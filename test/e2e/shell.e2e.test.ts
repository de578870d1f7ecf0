/** Journeys through the web shell in real Chromium: sign in and out, the setup redirect, the phone layout. */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { ADMIN_USERNAME, createMember, openPage, saveScreenshot, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe("web shell", () => {
  test("the admin signs in, sees the layout with the Admin tab, and signs out", async () => {
    const { context, page } = await openPage(browser, server);
    try {
      await page.goto("/");
      await page.waitForURL("**/login");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();

      await signIn(page, ADMIN_USERNAME, server.adminPassword);
      const welcome = page.getByRole("dialog", { name: "Welcome to Teebox" });
      await welcome.waitFor();
      await welcome.getByRole("button", { name: "Get started" }).click();
      await welcome.waitFor({ state: "detached" });
      expect(await page.evaluate(() => localStorage.getItem("hasSeenWelcome"))).toBe("true");

      await page.locator(".brand-title", { hasText: "Teebox" }).waitFor();
      expect(await page.locator(".app-header__welcome").textContent()).toMatch(/^Welcome, \S+/);
      expect(await page.getByTestId("last-updated").textContent()).toMatch(/^Last updated (--:--:--|\d\d:\d\d:\d\d)$/);
      const tabBar = page.getByTestId("tab-bar");
      await tabBar.waitFor();
      expect(await tabBar.locator("a .tab-label").allTextContents()).toEqual(["Home", "Book", "Bookings", "Players", "Profile", "Admin"]);
      expect(await page.getByTestId("bottom-bar").isVisible()).toBe(false);

      await tabBar.getByRole("link", { name: "Admin" }).click();
      await page.waitForURL("**/admin");
      await page.getByRole("heading", { level: 1, name: "Admin" }).waitFor();
      await saveScreenshot(page, "shell-desktop-admin");

      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL("**/login");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      // The session is gone on the server too: a member page sends us back to /login.
      await page.goto("/bookings");
      await page.waitForURL("**/login");
    } finally {
      await context.close();
    }
  });

  test("a wrong password shows the error line and stays on /login", async () => {
    const { context, page } = await openPage(browser, server);
    try {
      await page.goto("/login");
      await page.getByLabel("Username").fill(ADMIN_USERNAME);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      expect(await page.getByRole("alert").textContent()).toBe("Invalid username or password.");
      expect(new URL(page.url()).pathname).toBe("/login");
    } finally {
      await context.close();
    }
  });

  test("a member without a profile is sent to /setup", async () => {
    await createMember(server, "newmember", "newmember");
    const { context, page } = await openPage(browser, server, { hasSeenWelcome: true });
    try {
      await page.goto("/login");
      await signIn(page, "newmember", "newmember");
      await page.waitForURL("**/setup");
      await page.getByRole("heading", { level: 1, name: "Set up your profile" }).waitFor();
      await page.goto("/bookings");
      await page.waitForURL("**/setup");
      await saveScreenshot(page, "shell-setup-redirect");
    } finally {
      await context.close();
    }
  });

  test("at 360 px the bottom bar shows and the More menu holds the tabs that do not fit", async () => {
    const { context, page } = await openPage(browser, server, { viewport: { width: 360, height: 740 }, hasSeenWelcome: true });
    try {
      await page.goto("/login");
      await signIn(page, ADMIN_USERNAME, server.adminPassword);
      const bottomBar = page.getByTestId("bottom-bar");
      await bottomBar.waitFor();
      expect(await page.getByTestId("tab-bar").isVisible()).toBe(false);
      expect(await bottomBar.locator(":scope > a .tab-label").allTextContents()).toEqual(["Home", "Book", "Bookings"]);

      await bottomBar.getByRole("button", { name: "More" }).click();
      const menu = page.getByRole("menu");
      await menu.waitFor();
      expect(await menu.getByRole("menuitem").allTextContents()).toEqual(["Players", "Profile", "Admin"]);
      await saveScreenshot(page, "shell-mobile-more-menu");

      await menu.getByRole("menuitem", { name: "Profile" }).click();
      await page.waitForURL("**/profile");
      await page.getByRole("heading", { level: 1, name: "Profile" }).waitFor();
      await menu.waitFor({ state: "detached" });
      // Nothing runs off the side of a phone screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    } finally {
      await context.close();
    }
  });
});
