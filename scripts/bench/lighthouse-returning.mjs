// Lighthouse on one page as a returning member sees it, run by Node (Lighthouse needs it): the
// session cookie set and the welcome overlay already seen, in a browser that visited the app once
// before (so its service worker and cache are there, as on an installed phone). Prints the report
// as JSON. Started by scripts/bench/lighthouse.ts, which installs Lighthouse outside the project.
//
//   node scripts/bench/lighthouse-returning.mjs <lighthouse folder> <chromium> <url> <cookie name=value>
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [folder, chromiumPath, url, cookie] = process.argv.slice(2);
const require = createRequire(join(folder, "node_modules", "index.js"));
const { launch } = require("chrome-launcher");
const puppeteer = require("puppeteer-core");
const lighthouse = (await import(pathToFileURL(join(folder, "node_modules", "lighthouse", "core", "index.js")).href)).default;

const FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const chrome = await launch({ chromePath: chromiumPath, chromeFlags: FLAGS });
try {
  const origin = new URL(url).origin;
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const [name, ...rest] = cookie.split("=");
  const page = await browser.newPage();
  await page.setCookie({ name, value: rest.join("="), url: origin });
  // The first visit: the welcome overlay is dismissed for good, the worker installs.
  await page.goto(`${origin}/`, { waitUntil: "networkidle0" });
  await page.evaluate(() => localStorage.setItem("hasSeenWelcome", "true"));
  await page.close();
  await browser.disconnect();
  const result = await lighthouse(url, {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices"],
    formFactor: "mobile",
    throttlingMethod: "simulate",
    disableStorageReset: true,
  });
  process.stdout.write(result.report);
} finally {
  await chrome.kill();
}
