/**
 * What the web asks the server for after a booking is confirmed, in real Chromium against a Teebox
 * running the demo club: the member has the Bookings page open, a request for an open date is
 * submitted and booked at once, and every HTTP request the page makes from the moment the socket
 * brings the confirmation until the page is quiet is counted. The confirmation changed the member's
 * bookings, requests and notifications, so those are reloaded; tee times, dates, rules,
 * advisories, saved players and watches did not change and must not be asked for again.
 */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openPage, saveScreenshot, signIn, submitRequestFromPage, type TestServer, useServerAndBrowser } from "./harness.ts";

const DEMO_PASSWORD = "demo1234";
const CLUB_WAIT_MS = 20_000;
const JOURNEY_TIMEOUT_MS = 120_000;

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** What a confirmation changed, as the web's API paths: only these may be read again. */
const CHANGED_BY_A_CONFIRMATION = ["/v1/my/bookings", "/v1/my/requests", "/v1/my/notifications"];

describe("live data after a confirmation", () => {
  test(
    "a confirmed booking reloads the member's bookings, requests and notifications, and nothing else",
    async () => {
      const { context, page } = await openPage(browser, server, { viewport: { width: 1280, height: 800 }, hasSeenWelcome: true });
      try {
        await signIn(page, "jose", DEMO_PASSWORD);
        await page.goto("/bookings");
        await page.getByRole("heading", { name: "Confirmed Bookings" }).waitFor();
        await page.waitForLoadState("networkidle");

        // A free time of a date the club has open: the engine books it as soon as it is stored.
        const days = (await (await page.request.get("/v1/tee-times")).json()) as { teeTimes: { date: string; course: string; tee_times: { time: string; status: string }[] }[] };
        const day = days.teeTimes.filter((d) => d.tee_times.some((t) => t.status === "AVAILABLE")).at(2) ?? days.teeTimes[0];
        const free = day.tee_times.filter((t) => t.status === "AVAILABLE");
        const time = free[Math.min(6, free.length - 1)].time;

        const requested: string[] = [];
        let confirmedAt: number | null = null;
        page.on("request", (request) => {
          const url = new URL(request.url());
          if (url.pathname.startsWith("/v1/")) requested.push(url.pathname);
        });
        const socketFrames = await context.newCDPSession(page);
        await socketFrames.send("Network.enable");
        socketFrames.on("Network.webSocketFrameReceived", ({ response }) => {
          if (confirmedAt === null && response.payloadData.includes("bookings.toast.booked")) confirmedAt = requested.length;
        });

        expect(await submitRequestFromPage(page, { date: day.date, course: day.course, time })).toMatchObject({ type: "submissionResult" });
        // The booking shows on the page without a reload; the socket said so.
        await page.getByRole("region", { name: "Confirmed Bookings" }).getByText(time).first().waitFor({ timeout: CLUB_WAIT_MS });
        await page.waitForFunction(() => document.querySelector('[data-testid="notification-bell"]')?.getAttribute("aria-label") === "Notifications, 1 unread", undefined, {
          timeout: CLUB_WAIT_MS,
        });
        await page.waitForLoadState("networkidle");
        expect(confirmedAt).not.toBeNull();
        const afterConfirmation = requested.slice(confirmedAt ?? 0);
        console.log(`requests after a confirmation: ${afterConfirmation.length} (${afterConfirmation.join(", ")})`);
        expect(afterConfirmation.filter((path) => !CHANGED_BY_A_CONFIRMATION.includes(path))).toEqual([]);
        // Each changed list once: two messages naming one list would be one reload each.
        expect(afterConfirmation.length).toBeLessThanOrEqual(CHANGED_BY_A_CONFIRMATION.length);
        await saveScreenshot(page, "live-data-after-confirmation");
      } catch (error) {
        await saveScreenshot(page, "live-data-failure").catch(() => undefined);
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nServer output:\n${server.output().slice(-4000)}`);
      } finally {
        await context.close();
      }
    },
    JOURNEY_TIMEOUT_MS,
  );
});
