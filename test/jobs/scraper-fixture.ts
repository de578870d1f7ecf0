/**
 * A Teebox test app (demo data seeded, so the admin holds the demo club login) and a demo club
 * on a loopback port that share one FakeClock, plus a scraper over them that does not pause.
 */
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import type { Clock } from "../../src/lib/clock.ts";
import { createScraper, type Scraper, type ScraperOptions } from "../../src/jobs/scraper.ts";
import { createTestApp, type TestApp } from "../helpers/api.ts";

export interface ScraperFixture {
  t: TestApp;
  sim: ClubSim;
  scraper: Scraper;
  close(): Promise<void>;
}

export async function createScraperFixture(options: ScraperOptions = {}, appOptions: { demo?: boolean } = {}): Promise<ScraperFixture> {
  let shared: Clock | null = null;
  // The club reads the test's clock, so release horizons follow the FakeClock the test moves.
  const clubClock: Clock = {
    now: () => (shared ? shared.now() : Date.now()),
    sleepUntil: (at, signal) => (shared ? shared.sleepUntil(at, signal) : Promise.resolve()),
  };
  const sim = createClubSim({ clock: clubClock, seed: 7 });
  const running = await sim.start();
  const t = await createTestApp({ clubUrl: running.url, demo: appOptions.demo ?? true });
  shared = t.clock;
  const scraper = createScraper(t.deps, { pauseMs: 0, ...options });
  return {
    t,
    sim,
    scraper,
    async close() {
      await scraper.stop();
      await running.stop();
      await t.close();
    },
  };
}

/** Waits for something the code under test does on its own (a socket answer after a run). */
export async function eventually<T>(read: () => T | undefined, timeoutMs = 3000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error("timed out waiting for a result");
    await Bun.sleep(5);
  }
}
