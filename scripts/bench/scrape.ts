/**
 * Benchmark: one full scrape of the default range (scraper_date_range_days) against the demo club
 * with 50 ms of added latency on every page, using the scraper's default pace (3 pages at once,
 * a 150 ms pause between one worker's pages). Prints pages, seconds and peak memory.
 *
 *   bun scripts/bench/scrape.ts [--latency 50] [--concurrency 3] [--pause 150]
 */
import { parseArgs } from "node:util";
import { createClubSim } from "../../src/club-sim/index.ts";
import { DEFAULT_PAGE_PAUSE_MS, DEFAULT_SCRAPE_CONCURRENCY, createScraper } from "../../src/jobs/scraper.ts";
import { createTestApp } from "../../test/helpers/api.ts";

const { values } = parseArgs({
  options: {
    latency: { type: "string", default: "50" },
    concurrency: { type: "string", default: String(DEFAULT_SCRAPE_CONCURRENCY) },
    pause: { type: "string", default: String(DEFAULT_PAGE_PAUSE_MS) },
  },
});
const latencyMs = Number(values.latency);
const concurrency = Number(values.concurrency);
const pauseMs = Number(values.pause);

const sim = createClubSim({ seed: 1, faults: { latencyMs } });
const club = await sim.start();
// A fresh Teebox with the demo data (the admin holds the demo club login), on the real clock.
const teebox = await createTestApp({ now: Date.now(), clubUrl: club.url, demo: true });
const scraper = createScraper(teebox.deps, { concurrency, pauseMs });

const memory = { peakRss: process.memoryUsage().rss, peakHeap: process.memoryUsage().heapUsed };
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  memory.peakRss = Math.max(memory.peakRss, usage.rss);
  memory.peakHeap = Math.max(memory.peakHeap, usage.heapUsed);
}, 5);

const startedAt = performance.now();
const summary = await scraper.run("manual");
const seconds = (performance.now() - startedAt) / 1000;
clearInterval(sampler);

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(`scrape: ${summary.status}, ${summary.pages} pages (${summary.pages - 1} tee sheets + advisories), ${summary.failures} failures`);
console.log(`settings: ${latencyMs} ms added latency per page, ${concurrency} pages at once, ${pauseMs} ms pause between a worker's pages`);
console.log(`time: ${seconds.toFixed(2)} s`);
console.log(`peak memory: rss ${mb(memory.peakRss)} MB, heap ${mb(memory.peakHeap)} MB (process maxRSS ${mb(process.resourceUsage().maxRSS * 1024)} MB)`);

await scraper.stop();
await club.stop();
await teebox.close();
