import { afterEach, describe, expect, test } from "bun:test";
import { registerScraperActions } from "../../src/features/availability/scraper.actions.ts";
import { RECENT_RUN_MS } from "../../src/jobs/scraper.ts";
import type { SocketData } from "../../src/realtime/hub.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { ADMIN_PASSWORD } from "../helpers/api.ts";
import { createScraperFixture, eventually, type ScraperFixture } from "../jobs/scraper-fixture.ts";

let f: ScraperFixture;
afterEach(() => f?.close());

async function socketOfAdmin(): Promise<SocketData> {
  const cookie = await f.t.signIn("admin", ADMIN_PASSWORD);
  const { user } = await (await f.t.call("GET", "/v1/auth/status", { cookie })).json();
  return { user, sessionId: "test-socket" };
}

describe("RUN_SCRAPER", () => {
  test("starts a run, joins a running one, answers 'recent' within 30 s, and starts again after", async () => {
    f = await createScraperFixture();
    registerScraperActions(f.t.deps.hub, f.scraper);
    const socket = await socketOfAdmin();
    const replies: ServerMessage[] = [];
    const send = (requestId: string) => f.t.deps.hub.dispatch(socket, JSON.stringify({ action: "RUN_SCRAPER", requestId }), (m) => replies.push(m));

    await send("a");
    await send("b");
    expect(replies).toEqual([
      { type: "scraper", state: "started", lastScrapeTime: null, requestId: "a" },
      { type: "scraper", state: "running", lastScrapeTime: null, requestId: "b" },
    ]);
    const first = await f.scraper.run("manual");
    // Both requests hear when the run they started or joined has ended.
    await eventually(() => (replies.length >= 4 ? true : undefined));
    expect(replies.slice(2)).toEqual([
      { type: "scraper", state: "recent", lastScrapeTime: first.finishedAt, requestId: "a" },
      { type: "scraper", state: "recent", lastScrapeTime: first.finishedAt, requestId: "b" },
    ]);

    await f.t.clock.advance(RECENT_RUN_MS - 1);
    await send("c");
    expect(replies[4]).toEqual({ type: "scraper", state: "recent", lastScrapeTime: first.finishedAt, requestId: "c" });
    expect(f.scraper.isRunning()).toBe(false);

    await f.t.clock.advance(1);
    await send("d");
    expect(replies[5]).toEqual({ type: "scraper", state: "started", lastScrapeTime: first.finishedAt, requestId: "d" });
    const second = await f.scraper.run("manual");
    expect(second.runId).toBe(first.runId + 1);
  });

  test("refuses a payload it does not expect", async () => {
    f = await createScraperFixture();
    registerScraperActions(f.t.deps.hub, f.scraper);
    const replies: ServerMessage[] = [];
    await f.t.deps.hub.dispatch(await socketOfAdmin(), JSON.stringify({ action: "RUN_SCRAPER", payload: { days: 99 } }), (m) => replies.push(m));
    expect(replies[0]).toMatchObject({ type: "error", message: "days is not something Teebox accepts here.", errorKey: "validation.unknown_field" });
    expect(f.scraper.isRunning()).toBe(false);
  });
});

describe("GET /v1/tee-times after a scrape", () => {
  test("a member who read the tee times before a run sees the run's data and time right after it", async () => {
    f = await createScraperFixture();
    const cookie = await f.t.signIn("admin", ADMIN_PASSWORD);
    const first = await f.scraper.run("manual");
    const before = await (await f.t.call("GET", "/v1/tee-times", { cookie })).json();
    expect(before.lastScrapeTime).toBe(first.finishedAt);
    const day = before.teeTimes.find((d: { tee_times: { status: string }[] }) => d.tee_times.some((s) => s.status === "AVAILABLE"));
    const slot = day.tee_times.find((s: { status: string }) => s.status === "AVAILABLE");

    f.sim.setSlotStatus(day.date, day.course, slot.time, "BOOKED");
    await f.t.clock.advance(60_000);
    const second = await f.scraper.run("manual");
    const after = await (await f.t.call("GET", "/v1/tee-times", { cookie })).json();
    expect(after.lastScrapeTime).toBe(second.finishedAt);
    const sameDay = after.teeTimes.find((d: { date: string; course: string }) => d.date === day.date && d.course === day.course);
    expect(sameDay.tee_times.find((s: { time: string }) => s.time === slot.time).status).toBe("BOOKED");
  });
});
