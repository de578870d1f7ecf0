/**
 * The story of a booking and the calendar address in real Chromium. The story: a request for an
 * open date is booked at once by the engine against the demo club, and "How this was booked" shows
 * its attempts. The calendar address: a member makes it on the Profile page, copies it with the
 * Copy button (clipboard permission granted to the page), and the copied address serves the feed
 * to a client with no cookie, as a calendar app; a new address stops the copied one at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { addDays, formatEventDate, manilaDate, weekdayOf } from "../../src/domain/manila-time.ts";
import { eventsOf, parseIcal, propertyValue } from "../helpers/ical-parser.ts";
import { openPage, saveScreenshot, signIn, submitRequestFromPage, useServerAndBrowser, type TestServer } from "./harness.ts";
import type { Browser } from "playwright-core";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

let context: BrowserContext;
let page: Page;

describe("a member's story and calendar", () => {
  beforeAll(async () => {
    ({ context, page } = await openPage(browser, server, { hasSeenWelcome: true }));
    context.setDefaultTimeout(15_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await signIn(page, "ana", "demo1234");
  });
  afterAll(async () => {
    await context?.close();
  });

  test("is made and copied on the Profile page, and the copied address serves the member's feed", async () => {
    // A request waiting for its release, so the feed has something of this member's.
    const date = addDays(manilaDate(Date.now()), 12);
    const course = weekdayOf(date) === 7 ? "legends" : "masters";
    const answer = await submitRequestFromPage(page, { date, course, time: "06:08" });
    expect(answer.type).toBe("submissionResult");

    await page.goto("/profile");
    const section = page.getByRole("region", { name: "Calendar" });
    await section.getByRole("button", { name: "Make an address" }).click();
    const field = section.getByLabel("Your calendar address");
    await field.waitFor();
    const shown = await field.inputValue();
    expect(shown).toMatch(new RegExp(`^${server.baseUrl}/v1/calendar/[A-Za-z0-9_-]{43}\\.ics$`));

    await section.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Calendar address copied.").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await saveScreenshot(page, "profile-calendar-address");

    // Fetched as a calendar app does: no cookie, no Origin.
    const feed = await fetch(copied);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const calendar = parseIcal(await feed.text());
    const summaries = eventsOf(calendar).map((e) => propertyValue(e, "SUMMARY"));
    expect(summaries.some((s) => s.startsWith("Release of your request for "))).toBe(true);

    // A new address: the copied one stops working at once, the new one works.
    await section.getByRole("button", { name: "Make a new address" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Make a new address" }).click();
    await page.getByText("Your new calendar address is ready; the old one no longer works.").waitFor();
    const renewed = await field.inputValue();
    expect(renewed).not.toBe(copied);
    expect((await fetch(copied)).status).toBe(404);
    expect((await fetch(renewed)).status).toBe(200);
  });

  test("a booking made against the demo club tells how it was booked", async () => {
    await page.goto("/bookings");
    const open = await page.evaluate(async () => {
      const answer = (await (await fetch("/v1/tee-times")).json()) as { teeTimes: { date: string; course: string; tee_times: { time: string; status: string }[] }[] };
      return answer.teeTimes.flatMap((day) =>
        day.tee_times.filter((slot) => /available/i.test(slot.status)).map((slot) => ({ date: day.date, course: day.course, time: slot.time })),
      );
    });
    expect(open.length).toBeGreaterThan(0);
    // The member's booking rules may refuse some of the club's open times: the first one accepted is booked at once.
    let chosen: { date: string; course: string; time: string } | null = null;
    for (const slot of open.slice(-40).reverse()) {
      const answer = await submitRequestFromPage(page, slot);
      if (answer.type === "submissionResult") {
        chosen = slot;
        break;
      }
    }
    expect(chosen).not.toBeNull();
    await page.goto("/bookings");
    const row = page
      .locator('[data-testid^="booking:"]')
      .filter({ hasText: formatEventDate(chosen!.date) })
      .first();
    await row.waitFor({ timeout: 20_000 });
    const opener = row.getByRole("button", { name: "How this was booked" });
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "How this was booked" });
    const attempt = dialog.locator(".story__attempt").first();
    await attempt.waitFor();
    expect(await attempt.textContent()).toContain(chosen!.time);
    expect(await attempt.textContent()).toContain("Booked, reference");
    expect(await dialog.getByTestId("story-clock").textContent()).toMatch(/club's clock/);
    await saveScreenshot(page, "booking-story-dialog");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });
});
