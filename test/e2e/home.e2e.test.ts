/**
 * The home journey in real Chromium against a Teebox running the demo club in-process: the
 * advisories the start-up scrape brought in (the standard portal), then a change on the club's tee
 * sheet that a scrape of the second, differently written portal carries to the header's
 * last-updated time: a sheet that portal could not be read from would keep the old time.
 */
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ADMIN_USERNAME, apiSession, controlDemoClub, openPage, saveScreenshot, signIn, type TestServer, useClubLayout, useServerAndBrowser } from "./harness.ts";

/** The scraper answers a request within 30 s of the last run with that run; the start-up run counts. */
const THROTTLE_WAIT_MS = 45_000;

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Flips one stored slot on the club's own tee sheet. */
async function changeClubSheet(): Promise<void> {
  const cookie = await apiSession(server, ADMIN_USERNAME, server.adminPassword);
  const response = await fetch(`${server.baseUrl}/v1/tee-times`, { headers: { Cookie: cookie } });
  const { teeTimes } = (await response.json()) as { teeTimes: { date: string; course: string; tee_times: { time: string; status: string }[] }[] };
  const day = teeTimes.find((d) => d.tee_times.length > 0);
  if (!day) throw new Error("The start-up scrape stored no tee times.");
  const slot = day.tee_times[0];
  const answer = await controlDemoClub(server, "slot", { date: day.date, course: day.course, time: slot.time, status: slot.status === "AVAILABLE" ? "BOOKED" : "AVAILABLE" });
  expect(answer.status).toBe(204);
}

const lastUpdated = (page: Page) => page.getByTestId("last-updated").textContent();

describe("home", () => {
  test(
    "shows the club's advisories, and the last-updated time moves after the sheet changes and a scrape runs",
    async () => {
      const { context, page } = await openPage(browser, server, { hasSeenWelcome: true });
      try {
        await page.goto("/login");
        await signIn(page, ADMIN_USERNAME, server.adminPassword);
        await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();

        const advisories = page.getByTestId("club-advisories");
        await advisories.getByRole("heading", { name: "Club Advisories" }).waitFor();
        expect(await advisories.getByTestId("advisory").count()).toBeGreaterThan(0);
        await page.waitForFunction(() => /\d\d:\d\d:\d\d/.test(document.querySelector("[data-testid=last-updated]")?.textContent ?? ""));
        const before = await lastUpdated(page);
        await saveScreenshot(page, "home-advisories");

        await useClubLayout(server, "legacy");
        await changeClubSheet();
        // Ask as a member would, with the refresh button, until the scraper takes the request
        // (the start-up run may have ended less than 30 s ago) and the header shows the new time.
        const deadline = performance.now() + THROTTLE_WAIT_MS;
        let after = before;
        while (after === before && performance.now() < deadline) {
          await page.getByTestId("refresh-data").click();
          await page.getByText("Data refreshed").first().waitFor();
          await page.waitForFunction((old) => document.querySelector("[data-testid=last-updated]")?.textContent !== old, before, { timeout: 3000 }).catch(() => undefined);
          after = await lastUpdated(page);
        }
        expect(after).not.toBe(before);
        expect(after).toMatch(/^Last updated \d\d:\d\d:\d\d$/);
        await saveScreenshot(page, "home-after-scrape");
      } finally {
        await useClubLayout(server, "standard");
        await context.close();
      }
    },
    { timeout: 60_000 },
  );
});
