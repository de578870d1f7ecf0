/**
 * The slot-watch journey in real Chromium against a Teebox running the demo club: a member whose
 * wanted times are all taken asks Teebox to watch them from the Book page, a booking at the club
 * is cancelled (the control API frees the slot), and the Bookings page shows the watch booked.
 * The admin sets the poll to its minimum (15 s) first, as an admin demonstrating it would.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { CLUB_COURSES } from "../../src/club-sim/demo-data.ts";
import { ADMIN_USERNAME, apiSession, openPage, saveScreenshot, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";

const DEMO_PASSWORD = "demo1234";
/** One poll interval (15 s) and a pass (5 s), with room for a slow machine. */
const WATCH_WAIT_MS = 45_000;
const JOURNEY_TIMEOUT_MS = 120_000;
const RANGE = ["06:00", "06:08"];

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

function demoClub(): { url: string; controlToken: string } {
  return JSON.parse(readFileSync(join(server.dataDir, "demo-club.json"), "utf8"));
}

async function control(path: string, body: unknown): Promise<Response> {
  const club = demoClub();
  return fetch(`${club.url}/__control${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-control-token": club.controlToken },
    body: JSON.stringify(body),
  });
}

async function setPollSeconds(seconds: number): Promise<void> {
  const cookie = await apiSession(server, ADMIN_USERNAME, server.adminPassword);
  const headers = { "Content-Type": "application/json", Origin: server.baseUrl, Cookie: cookie };
  const current = (await (await fetch(`${server.baseUrl}/v1/admin/app-settings`, { headers })).json()) as { settings: Record<string, unknown> };
  const saved = await fetch(`${server.baseUrl}/v1/admin/app-settings`, { method: "PUT", headers, body: JSON.stringify({ ...current.settings, watch_poll_seconds: seconds }) });
  expect(saved.status).toBe(200);
}

async function myWatches(page: Page): Promise<{ id: number; course: string; status: string; date: string }[]> {
  return page.evaluate(async () => (await fetch("/v1/my/watches")).json());
}

describe("slot watch", () => {
  test(
    "create a watch on the Book page, free the slot at the club, see it booked on the Bookings page",
    async () => {
      await setPollSeconds(15);
      const { context, page } = await openPage(browser, server, { viewport: { width: 1280, height: 800 }, hasSeenWelcome: true });
      try {
        await signIn(page, "ana", DEMO_PASSWORD);
        await page.goto(`${server.baseUrl}/book`);
        const dates = page.getByRole("group", { name: "Live Availability" }).locator("[data-date]");
        await dates.nth(1).waitFor();
        const date = (await dates.nth(1).getAttribute("data-date")) ?? "";
        // Every wanted time of every course is taken before the member looks.
        for (const course of CLUB_COURSES) for (const time of RANGE) expect((await control("/slot", { date, course: course.id, time, status: "BOOKED" })).status).toBe(204);
        await dates.nth(1).click();
        await page.locator(".course-choice:not([disabled])").first().click();

        await page.getByRole("button", { name: "Watch for a free slot", exact: true }).click();
        const dialog = page.getByRole("dialog", { name: "Watch for a free slot" });
        await dialog.getByLabel("From").fill(RANGE[0]);
        await dialog.getByLabel("To").fill("06:10");
        await dialog.getByRole("button", { name: "Start watching" }).click();
        await page.getByText(`Watching ${date} from 06:00 to 06:10.`).waitFor();
        const [watch] = await myWatches(page);
        expect(watch).toMatchObject({ status: "watching", date });

        await page
          .locator(".tab-bar")
          .getByRole("link", { name: /Bookings/ })
          .click();
        const card = page.getByTestId(`watch:${watch.id}`);
        await card.getByText("Watching").waitFor();

        // A member cancels at the club: the slot is free again.
        expect((await control("/free-slot", { date, course: watch.course, time: "06:08" })).status).toBe(200);
        await card.getByText("Booked", { exact: true }).waitFor({ timeout: WATCH_WAIT_MS });
        expect(await card.textContent()).toContain("06:08");
        await page
          .getByText(/Your slot watch booked/)
          .first()
          .waitFor({ timeout: 5000 });
        // The booking is listed among the confirmed ones, after a reload from the server.
        await page
          .getByTestId(/^booking:/)
          .first()
          .waitFor();
        await saveScreenshot(page, "watch-booked");
      } finally {
        await context.close();
      }
    },
    JOURNEY_TIMEOUT_MS,
  );
});
