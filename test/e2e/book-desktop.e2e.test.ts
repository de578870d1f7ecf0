/**
 * The desktop Book page in real Chromium: the sticky side panel stays below the sticky header
 * however far the slots are scrolled, and a keyboard user reaches Submit without tabbing through
 * every slot (a skip link past the slot grid).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { openPage, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

let context: BrowserContext;
let page: Page;

describe("the desktop Book page", () => {
  beforeAll(async () => {
    ({ context, page } = await openPage(browser, server, { viewport: { width: 1280, height: 700 }, hasSeenWelcome: true }));
    context.setDefaultTimeout(15_000);
    await signIn(page, "jose", "demo1234");
    await page.goto("/book");
    const dates = page.getByRole("group", { name: "Live Availability" }).locator("[data-date]");
    // Tomorrow: late in a Manila day every time of today has passed and is disabled.
    await dates.nth(1).waitFor();
    await dates.nth(1).click();
    await page.locator(".course-choice:not([disabled])").first().click();
    await page.locator(".slot:not([disabled])").first().waitFor();
  });
  afterAll(async () => {
    await context?.close();
  });

  test("the side panel sits below the sticky header when the page is scrolled", async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const edges = await page.evaluate(() => ({
      headerBottom: document.querySelector(".app-header")?.getBoundingClientRect().bottom ?? NaN,
      panelTop: document.querySelector(".book-desktop__panel")?.getBoundingClientRect().top ?? NaN,
      scrolled: window.scrollY,
    }));
    expect(edges.scrolled).toBeGreaterThan(0);
    expect(edges.panelTop).toBeGreaterThanOrEqual(edges.headerBottom);
  });

  test("from the course buttons, Submit is a few key presses away and no slot is passed on the way", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator(".course-choice:not([disabled])").last().focus();
    const visited: string[] = [];
    let isSubmitReached = false;
    for (let i = 0; i < 40 && !isSubmitReached; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return { cls: el?.className ?? "", text: (el?.textContent ?? "").trim() };
      });
      visited.push(focused.cls.includes("slot") ? `slot ${focused.text}` : focused.text);
      if (focused.cls.includes("skip-link")) {
        expect(await page.locator(".skip-link").isVisible()).toBe(true);
        await page.keyboard.press("Enter");
      }
      isSubmitReached = /^Submit request$/.test(focused.text);
    }
    expect(isSubmitReached).toBe(true);
    expect(visited.filter((v) => v.startsWith("slot "))).toEqual([]);
    expect(visited.length).toBeLessThan(25);
  });
});
