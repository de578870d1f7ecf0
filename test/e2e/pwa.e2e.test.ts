/**
 * Teebox as an installed app, in real Chromium: the manifest and icons an install needs, the
 * service worker taking control, and with the server gone a reload that shows the offline view
 * with the member's last requests instead of a browser error.
 */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { addDays, manilaDate, weekdayOf } from "../../src/domain/manila-time.ts";
import { openPage, saveScreenshot, signIn, submitRequestFromPage, type TestServer, useServerAndBrowser } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("installable app", () => {
  test("the manifest names the app, its dark colours, standalone display and icons that exist at their sizes", async () => {
    const page = await fetch(`${server.baseUrl}/book`);
    const html = await page.text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    // The page's own code and the session check are asked for alongside the first script.
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin="anonymous" href="/v1/auth/status" />');
    const preloaded = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    expect(preloaded.length).toBeGreaterThan(0);
    for (const file of preloaded) expect((await fetch(`${server.baseUrl}${file}`)).headers.get("content-type")).toContain("javascript");
    const response = await fetch(`${server.baseUrl}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/manifest+json");
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: ManifestIcon[];
    };
    expect(manifest.name).toBe("Teebox");
    expect(manifest.short_name).toBe("Teebox");
    expect(manifest.start_url).toBe("/");
    expect(manifest.display).toBe("standalone");
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    const sizes = new Set<string>();
    for (const icon of manifest.icons) {
      const image = await fetch(`${server.baseUrl}${icon.src}`);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
      const { width, height } = pngSize(new Uint8Array(await image.arrayBuffer()));
      expect(`${width}x${height}`).toBe(icon.sizes);
      sizes.add(`${icon.sizes} ${icon.purpose ?? "any"}`);
    }
    expect(sizes.has("192x192 any")).toBe(true);
    expect(sizes.has("512x512 any")).toBe(true);
    expect(sizes.has("512x512 maskable")).toBe(true);
    const worker = await fetch(`${server.baseUrl}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get("content-type")).toContain("javascript");
    expect(worker.headers.get("cache-control")).toBe("no-cache");
  });

  test("the worker takes control, and with the server stopped a reload shows the last requests, marked offline", async () => {
    const { context, page } = await openPage(browser, server, { viewport: { width: 390, height: 844 }, hasSeenWelcome: true });
    context.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
    try {
      await signIn(page, "maria", "demo1234");
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined);

      // A request for a date the club has not opened yet.
      const date = addDays(manilaDate(Date.now()), 12);
      const course = weekdayOf(date) === 7 ? "legends" : "masters";
      const answer = await submitRequestFromPage(page, { date, course, time: "06:08" });
      expect(answer.type).toBe("submissionResult");

      await page.goto("/bookings");
      await page.getByText("06:08").first().waitFor();
      await page.waitForFunction(() => (localStorage.getItem("teebox.offlineSnapshot") ?? "").includes("06:08"));

      await server.stop();
      await page.reload();
      await page.getByRole("heading", { name: "You are offline" }).waitFor();
      const requests = page.getByRole("region", { name: "Pending Requests" });
      const listed = await requests.textContent();
      expect(listed).toContain("06:08");
      expect(listed).toMatch(/Masters|Legends/);
      expect(await page.getByText("Offline", { exact: true }).isVisible()).toBe(true);
      await saveScreenshot(page, "pwa-offline-390");

      // Signing out on the next visit is not possible offline; the snapshot stays until a logout or an ended session.
      expect(await page.evaluate(() => localStorage.getItem("teebox.offlineSnapshot") !== null)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
