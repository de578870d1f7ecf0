/**
 * The browser log under ordinary use, in real Chromium: a member who reloads pages quickly (each
 * load logs its API calls) has every page's entries posted together, so nothing is refused and the
 * logger stays on for the session (it switches itself off after a refused post, decision 162).
 */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openPage, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** More page loads than the session's 120 entries a minute allow when every entry is its own post. */
const RELOADS = 40;

describe("the browser log under fast navigation", () => {
  test("reloading pages quickly stays far under the log's limit: no post refused, the logger stays on", async () => {
    const { context, page } = await openPage(browser, server, { hasSeenWelcome: true });
    const answers: number[] = [];
    const warnings: string[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/v1/client/log") answers.push(response.status());
    });
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    try {
      await page.goto("/login");
      await signIn(page, "maria", "demo1234");
      for (let i = 0; i < RELOADS; i++) {
        await page.goto(i % 2 === 0 ? "/bookings" : "/");
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        // The page has made its calls (each logs an entry) before it is left.
        await page.waitForLoadState("networkidle");
      }
      await page.goto("/players");
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(answers.filter((status) => status === 429)).toEqual([]);
      expect(answers.every((status) => status === 204)).toBe(true);
      // About one post a page, never one per API call.
      expect(answers.length).toBeLessThanOrEqual(RELOADS * 2);
      expect(warnings.filter((text) => text.includes("Client logger endpoint is down"))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
