/**
 * The booking journeys in real Chromium against a Teebox running the demo club, on a phone
 * (390×844, the wizard) and on a desktop (1280×800, one page): book an open date at once, queue a
 * request for a date not yet open, edit and cancel the request, edit and cancel the booking.
 * Each width is its own demo member, so the two runs never share bookings.
 */
import { describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { formatReleaseAt } from "../../src/domain/format.ts";
import { formatEventDate } from "../../src/domain/manila-time.ts";
import { releaseInstant } from "../../src/domain/release-time.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { openPage, saveScreenshot, signIn, type TestServer, useClubLayout, useServerAndBrowser } from "./harness.ts";

const DEMO_PASSWORD = "demo1234";
/** A booking goes to the (demo) club and back; the wait is for what the member sees, with this as the limit. */
const CLUB_WAIT_MS = 20_000;
const JOURNEY_TIMEOUT_MS = 120_000;

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

interface Width {
  name: string;
  /** The demo club's portal for this run: its own markup, time and date forms, statuses and phrasing. */
  layout: "standard" | "legacy";
  viewport: { width: number; height: number };
  username: string;
  isMobile: boolean;
  /** Which live date and which free time this member books, so the two members never meet. */
  liveDateIndex: number;
  estimatedDateIndex: number;
}

const WIDTHS: Width[] = [
  { name: "mobile", layout: "standard", viewport: { width: 390, height: 844 }, username: "maria", isMobile: true, liveDateIndex: 1, estimatedDateIndex: 0 },
  { name: "desktop", layout: "standard", viewport: { width: 1280, height: 800 }, username: "jose", isMobile: false, liveDateIndex: 2, estimatedDateIndex: 1 },
  { name: "desktop-legacy-portal", layout: "legacy", viewport: { width: 1280, height: 800 }, username: "ana", isMobile: false, liveDateIndex: 3, estimatedDateIndex: 2 },
];

const button = (scope: Page | Locator, name: string | RegExp) => scope.getByRole("button", { name, exact: typeof name === "string" });

async function next(page: Page): Promise<void> {
  await button(page, "Next").click();
}

/** Picks a date of a group, the first course that runs that day and a free time; returns the date. */
async function chooseDateCourseTime(page: Page, width: Width, group: "Live Availability" | "Estimated Tee Times", index: number): Promise<string> {
  const dates = page.getByRole("group", { name: group }).locator("[data-date]");
  await dates.nth(index).waitFor();
  const date = (await dates.nth(index).getAttribute("data-date")) ?? "";
  await dates.nth(index).click();
  if (width.isMobile) await next(page);
  await page.locator(".course-choice:not([disabled])").first().click();
  if (width.isMobile) await next(page);
  const freeSlots = page.locator(".slot:not([disabled])");
  await freeSlots.first().waitFor();
  // A few slots in, so the time is not the first one rivals go for.
  await freeSlots.nth(Math.min(3, (await freeSlots.count()) - 1)).click();
  if (width.isMobile) await next(page);
  return date;
}

/** From the players step (or the desktop panel): submit, through the review step on a phone. */
async function submit(page: Page, width: Width, label: "Submit request" | "Save changes"): Promise<void> {
  if (width.isMobile) await next(page);
  await button(page, label).click();
}

async function addGuest(page: Page, firstName: string, lastName: string): Promise<void> {
  const before = await page.locator(".player-list > li").count();
  await button(page, "Add a player").click();
  const row = page.getByRole("listitem", { name: `Player ${before + 1}` });
  await row.getByLabel("Type").selectOption("Guest");
  await row.getByLabel("First name").fill(firstName);
  await row.getByLabel("Last name").fill(lastName);
}

async function closeResultDialog(page: Page, title: string): Promise<Locator> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor({ timeout: CLUB_WAIT_MS });
  return dialog;
}

function rowsOf(page: Page, kind: "booking" | "request"): Locator {
  return page.locator(`[data-testid^="${kind}:"]`);
}

async function expandAndRead(row: Locator): Promise<string> {
  await row.getByRole("button", { name: "Show details" }).click();
  const isTableRow = (await row.evaluate((el) => el.tagName)) === "TR";
  const details = isTableRow ? row.locator("xpath=following-sibling::tr[1]") : row;
  return (await details.textContent()) ?? "";
}

async function goToBookings(page: Page, width: Width): Promise<void> {
  const nav = width.isMobile ? page.locator(".bottom-bar") : page.locator(".tab-bar");
  await nav.getByRole("link", { name: /Bookings/ }).click();
  await page.getByRole("heading", { name: "My Bookings", level: 1 }).waitFor();
}

for (const width of WIDTHS) {
  describe(`booking at ${width.viewport.width}×${width.viewport.height}${width.layout === "legacy" ? " on the club's second portal" : ""}`, () => {
    test(
      "book an open date, queue a request, edit and cancel both",
      async () => {
        const { context, page } = await openPage(browser, server, { viewport: width.viewport, hasSeenWelcome: true });
        await useClubLayout(server, width.layout);
        try {
          await page.goto("/login");
          await signIn(page, width.username, DEMO_PASSWORD);
          await page.goto("/book");
          await page.getByRole("heading", { name: "Book a tee time", level: 1 }).waitFor();

          // 1. An open date: booked at once, confirmed, listed, counted in the badge.
          const openDate = await chooseDateCourseTime(page, width, "Live Availability", width.liveDateIndex);
          await saveScreenshot(page, `booking-${width.name}-1-players`);
          await submit(page, width, "Submit request");
          const submitted = await closeResultDialog(page, "Request Submitted");
          await saveScreenshot(page, `booking-${width.name}-2-submitted`);
          await submitted.getByRole("button", { name: "OK" }).click();
          await goToBookings(page, width);
          const booking = rowsOf(page, "booking").filter({ hasText: formatEventDate(openDate) });
          await booking.first().waitFor({ timeout: CLUB_WAIT_MS });
          expect(await booking.first().textContent()).toContain("Confirmed");
          const badge = (width.isMobile ? page.locator(".bottom-bar") : page.locator(".tab-bar")).locator(".badge");
          await badge.first().waitFor();
          expect(Number(await badge.first().textContent())).toBeGreaterThanOrEqual(1);

          // 2. A date not yet open: scheduled for its release instant, listed as pending.
          await page.goto("/book");
          const laterDate = await chooseDateCourseTime(page, width, "Estimated Tee Times", width.estimatedDateIndex);
          await submit(page, width, "Submit request");
          const scheduled = await closeResultDialog(page, "Request Scheduled");
          const releaseText = formatReleaseAt(releaseInstant(laterDate, DEFAULT_SETTINGS));
          expect(await scheduled.textContent()).toContain(releaseText);
          await saveScreenshot(page, `booking-${width.name}-3-scheduled`);
          await scheduled.getByRole("button", { name: "OK" }).click();
          await goToBookings(page, width);
          const request = rowsOf(page, "request").filter({ hasText: formatEventDate(laterDate) });
          await request.first().waitFor();
          expect(await request.first().textContent()).toContain(`Releases ${releaseText}`);

          // 3. Edit the pending request's players: it is replaced, still pending.
          await request.first().getByRole("button", { name: "Edit" }).click();
          await page.getByText(`Editing your pending request for ${formatEventDate(laterDate)}.`).waitFor();
          await addGuest(page, "Pedro", "Penduko");
          await submit(page, width, "Save changes");
          await (await closeResultDialog(page, "Request Scheduled")).getByRole("button", { name: "OK" }).click();
          await page.getByRole("heading", { name: "My Bookings", level: 1 }).waitFor();
          await page.waitForFunction((date) => [...document.querySelectorAll('[data-testid^="request:"]')].some((r) => r.textContent?.includes(date)), formatEventDate(laterDate));
          expect(await expandAndRead(request.first())).toContain("Pedro Penduko");
          await saveScreenshot(page, `booking-${width.name}-4-bookings`);

          // 4. Cancel it, after confirming.
          await request.first().getByRole("button", { name: "Cancel" }).click();
          const confirmRequest = page.getByRole("dialog", { name: "Cancel this request?" });
          await saveScreenshot(page, `booking-${width.name}-5-cancel-dialog`);
          await confirmRequest.getByRole("button", { name: "Yes, cancel" }).click();
          await page.getByText("No pending requests.").waitFor({ timeout: CLUB_WAIT_MS });

          // 5. Edit the confirmed booking's players at the club.
          await booking.first().getByRole("button", { name: "Edit" }).click();
          await page.getByText(/Editing your confirmed booking for/).waitFor();
          await addGuest(page, "Maria", "Clara");
          await submit(page, width, "Save changes");
          await page.getByText("Booking updated.").waitFor({ timeout: CLUB_WAIT_MS });
          await page.getByRole("heading", { name: "My Bookings", level: 1 }).waitFor();
          expect(await expandAndRead(booking.first())).toContain("Maria Clara");

          // 6. Cancel the confirmed booking, after confirming.
          await booking.first().getByRole("button", { name: "Cancel" }).click();
          await page.getByRole("dialog", { name: "Cancel this booking?" }).getByRole("button", { name: "Yes, cancel" }).click();
          await page.getByText("No confirmed bookings.").waitFor({ timeout: CLUB_WAIT_MS });
          await saveScreenshot(page, `booking-${width.name}-6-all-cancelled`);
        } catch (error) {
          await saveScreenshot(page, `booking-${width.name}-failure`).catch(() => undefined);
          throw new Error(`${error instanceof Error ? error.message : String(error)}\nServer output:\n${server.output().slice(-4000)}`);
        } finally {
          await useClubLayout(server, "standard");
          await context.close();
        }
      },
      JOURNEY_TIMEOUT_MS,
    );
  });
}
