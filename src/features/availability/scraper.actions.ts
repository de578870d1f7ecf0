/**
 * The RUN_SCRAPER socket action: any signed-in member may ask for fresh tee times. The answer
 * comes at once (`started`, `running` or `recent` with the last scrape time); when the run this
 * request started or joined ends, the member is told its time with a second `recent` answer, so a
 * run that changed nothing (and so pushed no `status: updated`) still moves their last-updated time.
 */
import { z } from "zod";
import type { Scraper } from "../../jobs/scraper.ts";
import { parseActionPayload, type Hub } from "../../realtime/hub.ts";

const runScraperPayloadSchema = z.union([z.undefined(), z.null(), z.strictObject({})]);

export function registerScraperActions(hub: Hub, scraper: Scraper): void {
  hub.handle("RUN_SCRAPER", async (ctx, payload) => {
    parseActionPayload(runScraperPayloadSchema, payload);
    const answer = await scraper.requestRun();
    ctx.reply({ type: "scraper", state: answer.state, lastScrapeTime: answer.lastScrapeTime, requestId: ctx.requestId });
    void answer.done?.then((summary) => {
      ctx.reply({ type: "scraper", state: "recent", lastScrapeTime: summary.lastScrapeTime, requestId: ctx.requestId });
    });
  });
}
