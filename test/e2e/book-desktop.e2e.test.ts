/**
 * The desktop Book page in real Chromium: the sticky side panel stays below the sticky header
 * however far the slots are scrolled, and a keyboard user reaches Submit without tabbing through
 * every slot: a skip link past the slot grid, and each group of times one tab stop with the arrow
 * keys inside, so from a chosen time Submit is a few presses away.
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

  test("a keyboard journey: into the times with Tab, along them with the arrows, Space to choose, then a few Tabs to Submit", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator(".course-choice:not([disabled])").last().focus();
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return {
          isSlot: el?.classList.contains("slot") ?? false,
          time: el?.dataset.time ?? "",
          text: (el?.textContent ?? "").trim(),
          isSkip: el?.classList.contains("skip-link") ?? false,
        };
      });
    // Tab into the morning grid (past the skip link and the group's toggle): one stop, on its first usable time.
    let presses = 0;
    while (!(await focused()).isSlot && presses < 10) {
      await page.keyboard.press("Tab");
      presses++;
    }
    const first = await focused();
    expect(first.isSlot).toBe(true);
    // The arrows move along the times; Space chooses the one reached.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const chosen = await focused();
    expect(chosen.isSlot).toBe(true);
    expect(chosen.time > first.time).toBe(true);
    await page.keyboard.press("Space");
    await page.locator(`.slot[data-time="${chosen.time}"][aria-pressed="true"]`).waitFor();
    // From the chosen time, Tab leaves the grid at once: no other slot is passed on the way to Submit.
    const visited: string[] = [];
    let isSubmitReached = false;
    for (let i = 0; i < 30 && !isSubmitReached; i++) {
      await page.keyboard.press("Tab");
      const now = await focused();
      visited.push(now.isSlot ? `slot ${now.time}` : now.text);
      isSubmitReached = now.text === "Submit request";
    }
    expect(isSubmitReached).toBe(true);
    // At most one more slot: the afternoon grid's single stop.
    expect(visited.filter((v) => v.startsWith("slot ")).length).toBeLessThanOrEqual(1);
    expect(visited.length).toBeLessThan(15);
  });
});
