/**
 * Teebox held in one hand, in real Chromium at 360 and 390 px: no page, member or admin, is wider
 * than the phone (even with a long link in an announcement), every bottom-bar label is whole
 * beside its badge, and the wizard's Next is on screen once a time is chosen.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { addDays, manilaDate, weekdayOf } from "../../src/domain/manila-time.ts";
import { ADMIN_USERNAME, apiSession, openPage, saveScreenshot, signIn, submitRequestFromPage, type TestServer, useServerAndBrowser, waitForTransitions } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const WIDTHS = [360, 390] as const;
const MEMBER_PAGES = [
  { path: "/", heading: "Home" },
  { path: "/book", heading: "Book a tee time" },
  { path: "/bookings", heading: "My Bookings" },
  { path: "/players", heading: "Saved Players" },
  { path: "/profile", heading: "Profile" },
];
const ADMIN_TABS = ["System Monitor", "Users", "App Settings", "Courses", "Booking Windows", "Guest Rules", "Frontpage Content", "UI Text", "API"];
const LONG_LINK = `https://www.southwoods.example/announcements/2026/course-maintenance-schedule-${"x".repeat(80)}`;

/** How far the page reaches past the phone's width, in px (0 when it fits). */
const overflowOf = (page: Page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);

/** Labels of the bottom bar (and its badge) cut short or pushed out of their tab. */
const cutLabels = (page: Page) =>
  page.locator(".bottom-bar .bottom-bar__item").evaluateAll((items) =>
    items.flatMap((item) => {
      const label = item.querySelector(".tab-label");
      if (!label) return [];
      const box = item.getBoundingClientRect();
      const parts = [label, item.querySelector(".badge")].filter((part): part is Element => part !== null);
      const isOutside = parts.some((part) => {
        const r = part.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5;
      });
      return label.scrollWidth > label.clientWidth + 0.5 || isOutside ? [label.textContent ?? ""] : [];
    }),
  );

beforeAll(async () => {
  // An announcement with a long unbroken link, as an admin might paste one.
  const cookie = await apiSession(server, ADMIN_USERNAME, server.adminPassword);
  const response = await fetch(`${server.baseUrl}/v1/admin/frontpage-messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.baseUrl, Cookie: cookie },
    body: JSON.stringify({ title: "Course maintenance", content: `Details: ${LONG_LINK}`, is_active: true }),
  });
  expect(response.ok).toBe(true);
});

for (const width of WIDTHS) {
  describe(`a phone ${width} px wide`, () => {
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      ({ context, page } = await openPage(browser, server, { viewport: { width, height: 800 }, hasSeenWelcome: true }));
      context.setDefaultTimeout(15_000);
      await signIn(page, "maria", "demo1234");
      // Something upcoming, so the Bookings tab carries its badge.
      if (width === WIDTHS[0]) {
        const date = addDays(manilaDate(Date.now()), 12);
        const answer = await submitRequestFromPage(page, { date, course: weekdayOf(date) === 7 ? "legends" : "masters", time: "06:08" });
        expect(answer.type).toBe("submissionResult");
      }
    });
    afterAll(async () => {
      await context?.close();
    });

    test("no member page is wider than the phone, and every bottom-bar label is whole", async () => {
      for (const { path, heading } of MEMBER_PAGES) {
        await page.goto(path);
        await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
        if (path === "/") await page.getByTestId("announcements").getByText("Course maintenance", { exact: true }).waitFor();
        await page.locator(".bottom-bar .badge").waitFor();
        await waitForTransitions(page);
        expect({ path, overflow: await overflowOf(page) }).toEqual({ path, overflow: 0 });
        expect({ path, cut: await cutLabels(page) }).toEqual({ path, cut: [] });
      }
      await saveScreenshot(page, `phone-${width}-profile`);
    }, 60_000);

    test("the wizard's Next is on screen once a time is chosen", async () => {
      await page.goto("/book");
      const dates = page.getByRole("group", { name: "Live Availability" }).locator("[data-date]");
      // Tomorrow: late in a Manila day every time of today has passed and is disabled.
      await dates.nth(1).waitFor();
      await dates.nth(1).click();
      await page.getByRole("button", { name: "Next", exact: true }).click();
      await page.locator(".course-choice:not([disabled])").first().click();
      await page.getByRole("button", { name: "Next", exact: true }).click();
      const free = page.locator(".slot:not([disabled])");
      await free.first().waitFor();
      // An early slot: every other slot of the day is still below it.
      await free.first().click();
      const next = page.getByRole("button", { name: "Next", exact: true });
      expect(await next.isEnabled()).toBe(true);
      // On screen and not under the bottom bar: the point at its centre is the button itself.
      const isReachable = await next.evaluate((button) => {
        const r = button.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit !== null && button.contains(hit);
      });
      expect(isReachable).toBe(true);
      await saveScreenshot(page, `phone-${width}-time-step`);
    }, 60_000);
  });
}

describe("the admin area on a 390 px phone", () => {
  test("no tab is wider than the phone or scrolls sideways, and its buttons are whole on screen and at least 44 px tall", async () => {
    const { context, page } = await openPage(browser, server, { viewport: { width: 390, height: 844 }, hasSeenWelcome: true });
    context.setDefaultTimeout(15_000);
    try {
      await signIn(page, ADMIN_USERNAME, server.adminPassword);
      await page.goto("/admin");
      for (const tab of ADMIN_TABS) {
        await page.getByRole("tab", { name: tab }).click();
        await waitForTransitions(page);
        expect({ tab, overflow: await overflowOf(page) }).toEqual({ tab, overflow: 0 });
        const panel = page.getByRole("tabpanel");
        // Nothing inside the tab scrolls sideways (a table squeezed into a scroller is not a phone layout).
        const outside = await panel.evaluate((root) =>
          [root, ...root.querySelectorAll("*")]
            .filter((el) => {
              // Headers kept for screen readers only are clipped out of sight: not on screen at all.
              for (let up: Element | null = el; up; up = up.parentElement) if (getComputedStyle(up).clipPath !== "none") return false;
              const r = el.getBoundingClientRect();
              // A scroller or a clipping box with more inside than it shows: cut off or scrolled sideways.
              const isScroller = ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1;
              return isScroller || (r.width > 0 && r.height > 0 && (r.right > window.innerWidth + 1 || r.left < -1));
            })
            .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`)
            .slice(0, 5),
        );
        expect({ tab, outside }).toEqual({ tab, outside: [] });
        // Every button whole on screen and big enough for a thumb.
        const badButtons = await panel.locator("button:visible").evaluateAll((buttons) =>
          buttons
            .filter((b) => {
              const r = b.getBoundingClientRect();
              return Math.round(r.height) < 44 || r.left < 0 || r.right > window.innerWidth;
            })
            .map((b) => `${b.textContent ?? ""} (${Math.round(b.getBoundingClientRect().height)} px)`),
        );
        expect({ tab, badButtons }).toEqual({ tab, badButtons: [] });
        await saveScreenshot(page, `phone-admin-390-${tab.toLowerCase().replace(/\s+/g, "-")}`);
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});
