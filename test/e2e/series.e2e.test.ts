/**
 * A standing request in real Chromium against the demo club: the admin moves the release time to
 * a minute or two from now (the demo club follows the release settings), a member sets "Repeat
 * weekly" from the Book page for the date released then, Bookings shows its date queued and its
 * place in line, and at the release the engine books it at the club and the date shows Booked.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { addDays, manilaDate, weekdayOf } from "../../src/domain/manila-time.ts";
import { openPage, setReleaseSoon, saveScreenshot, signIn, useServerAndBrowser, type TestServer } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

let context: BrowserContext;
let page: Page;

describe("a standing request", () => {
  beforeAll(async () => {
    ({ context, page } = await openPage(browser, server, { viewport: { width: 1280, height: 900 }, hasSeenWelcome: true }));
    context.setDefaultTimeout(20_000);
    await signIn(page, "maria", "demo1234");
  });
  afterAll(async () => {
    await context?.close();
  });

  test("is set from the Book page, its date is queued, and at the release it is booked at the club", async () => {
    const releaseAt = await setReleaseSoon(server);
    const date = addDays(manilaDate(releaseAt), 7);
    const course = weekdayOf(date) === 7 ? "Legends" : "Masters";

    await page.goto("/book");
    await page.locator(`[data-date="${date}"]`).click();
    await page.locator(".course-choice:not([disabled])", { hasText: course }).click();
    await page.locator(".slot:not([disabled])").first().waitFor();
    // A time the demo club's rivals leave alone (they take early-morning slots).
    const time = await page.locator(".slot:not([disabled])").evaluateAll((slots) => slots.map((s) => s.getAttribute("data-time") ?? "").find((t) => t >= "09:00"));
    expect(time).toBeString();
    await page.locator(`.slot[data-time="${time}"]`).click();

    await page.getByRole("button", { name: "Repeat weekly" }).click();
    const dialog = page.getByRole("dialog");
    expect(await dialog.getByLabel(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][weekdayOf(date) - 1], { exact: true }).isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Set standing request" }).click();
    await page.getByText(/^Standing request set: /).waitFor();
    expect(Date.now()).toBeLessThan(releaseAt);

    await page.goto("/bookings");
    const occurrence = page.getByTestId(new RegExp(`^occurrence:\\d+:${date}$`));
    await occurrence.getByText("Pending").waitFor();
    expect(await occurrence.textContent()).toContain("In line 1 of 1 for this release");
    await saveScreenshot(page, "series-queued");

    // The release: the engine fires it at the instant and the page is told.
    await occurrence.getByText("Booked").waitFor({ timeout: releaseAt - Date.now() + 60_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(releaseAt);
    const booked = page.getByTestId(/^booking:/).filter({ hasText: time ?? "" });
    expect(await booked.count()).toBeGreaterThan(0);
    await saveScreenshot(page, "series-booked");
  }, 240_000);
});
