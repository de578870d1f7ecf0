/**
 * What a maintainer watches: GET /metrics (Prometheus text, this machine only or with the token),
 * GET /readyz (not ready when a release is near and the engine is not armed, or the sheets are
 * stale), the telemetry ring behind the System Monitor's charts, and the heartbeat.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { bookingRequests, pushOutbox, users } from "../../src/db/schema.ts";
import { saveDevice } from "../../src/services/push-subscriptions.ts";
import { eq } from "drizzle-orm";
import { AFTER_WORK_GROWTH_BYTES, AFTER_WORK_SAMPLE_NEAR_MS, createTelemetry, START_SETTLE_MS, TELEMETRY_SAMPLES } from "../../src/jobs/telemetry.ts";
import { SHRINK_AT_MOST_EVERY_MS } from "../../src/lib/memory.ts";
import { createTestApp, ORIGIN, type TestApp } from "../helpers/api.ts";
import { startReleaseFixture, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";

let t: TestApp | null = null;
let f: ReleaseFixture | null = null;
afterEach(async () => {
  await t?.close();
  await f?.close();
  t = null;
  f = null;
});

const TOKEN = "metrics-token-0123456789";

/** A request as Bun.serve hands it over: from `peer`, with the given headers. */
function fromPeer(app: TestApp, path: string, peer: string, headers: Record<string, string> = {}) {
  return Promise.resolve(app.app.request(`${ORIGIN}${path}`, { headers }, { clientIp: () => peer }));
}

/** A member's request waiting for its release at `releaseAt`, written straight to the database. */
async function addPendingRequest(app: TestApp, userId: number, playDate: string, releaseAt: number): Promise<void> {
  const now = app.clock.now();
  await app.deps.database.db.insert(bookingRequests).values({
    userId,
    courseId: "masters",
    playDate,
    selection: [{ time: "07:00", slotId: null }],
    players: [],
    status: "pending",
    releaseAt,
    submittedAt: now,
    updatedAt: now,
  });
}

describe("GET /metrics", () => {
  test("this machine reads the Prometheus text: the process, each job, the release, the club clock, watches, mail and the database", async () => {
    t = await createTestApp({ extend: () => ({ metricsToken: TOKEN }) });
    const scraper = t.deps.jobs.register("scraper");
    scraper.started(t.clock.now());
    scraper.passed(t.clock.now(), t.clock.now(), true);
    scraper.failed(new Error("down"), t.clock.now());
    const res = await fromPeer(t, "/metrics", "127.0.0.1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    for (const name of [
      "teebox_process_cpu_seconds_total",
      "teebox_process_resident_memory_bytes",
      "teebox_event_loop_lag_p99_seconds",
      "teebox_club_clock_offset_seconds",
      "teebox_release_last_lateness_seconds",
      "teebox_watch_polls_per_minute",
      "teebox_database_bytes",
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain('teebox_job_passes_total{job="scraper"} 1');
    expect(text).toContain('teebox_job_errors_total{job="scraper"} 1');
    expect(text).toContain('teebox_mail_outbox_messages{state="queued"} 0');
    // Every sample line is a name, optional labels and a number.
    for (const line of text
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("#")))
      expect(line).toMatch(/^[a-z_0-9]+(\{[^}]*\})? (-?[\d.e+-]+|NaN)$/);
  });

  test("the push outbox by state and the devices with push on", async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    const maria = { id: await t.createUser({ username: "maria" }) };
    const keys = { p256dh: `B${"A".repeat(86)}`, auth: "AAAAAAAAAAAAAAAAAAAAAA", expiresAt: null };
    await saveDevice(t.deps.database, maria.id, { endpoint: "https://fcm.googleapis.com/fcm/send/a", ...keys }, t.clock.now());
    await saveDevice(t.deps.database, maria.id, { endpoint: "https://fcm.googleapis.com/fcm/send/b", ...keys }, t.clock.now());
    const row = (eventId: string, state: "queued" | "sent" | "failed") => ({
      userId: maria.id,
      subscriptionId: null,
      eventId,
      kind: "request_confirmed",
      payload: "{}",
      urgency: "high",
      ttlSeconds: 60,
      state,
      nextAttemptAt: t!.clock.now() + 3_600_000,
      createdAt: t!.clock.now(),
    });
    await db.insert(pushOutbox).values([row("a", "queued"), row("b", "queued"), row("c", "sent"), row("d", "failed")]);
    const text = await (await fromPeer(t, "/metrics", "127.0.0.1")).text();
    expect(text).toContain("# TYPE teebox_push_outbox_messages gauge");
    expect(text).toContain('teebox_push_outbox_messages{state="queued"} 2');
    expect(text).toContain('teebox_push_outbox_messages{state="sent"} 1');
    expect(text).toContain('teebox_push_outbox_messages{state="failed"} 1');
    expect(text).toContain("teebox_push_devices 2");
  });

  test("from elsewhere, or through a proxy, it needs the token", async () => {
    t = await createTestApp({ extend: () => ({ metricsToken: TOKEN }) });
    expect((await fromPeer(t, "/metrics", "203.0.113.9")).status).toBe(403);
    const refused = await fromPeer(t, "/metrics", "127.0.0.1", { "x-forwarded-for": "203.0.113.9" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ errorKey: "metrics.forbidden" });
    expect((await fromPeer(t, "/metrics", "203.0.113.9", { authorization: "Bearer wrong-token-0123456789" })).status).toBe(403);
    expect((await fromPeer(t, "/metrics", "203.0.113.9", { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  test("with no token set, only this machine", async () => {
    t = await createTestApp();
    expect((await fromPeer(t, "/metrics", "203.0.113.9", { authorization: "Bearer " })).status).toBe(403);
    expect((await fromPeer(t, "/metrics", "::1")).status).toBe(200);
  });
});

describe("GET /readyz", () => {
  test("not ready while a release is due within 10 minutes and the engine is not armed; ready once it is", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const [maria] = await f.t.deps.database.db.select().from(users).where(eq(users.username, "maria"));
    await addPendingRequest(f.t, maria.id, "2026-11-29", f.clock.now() + 5 * 60_000);
    const before = await f.t.call("GET", "/readyz");
    expect(before.status).toBe(503);
    expect(((await before.json()) as { reasons: string[] }).reasons.join(" ")).toContain("the release engine is not armed");
    await f.engine.start();
    await f.engine.idle();
    const after = await f.t.call("GET", "/readyz");
    expect(await after.json()).toEqual({ ready: true, reasons: [] });
    expect(after.status).toBe(200);
  });

  test("not ready when the club's sheets are older than the scraper's schedule allows", async () => {
    t = await createTestApp();
    const scraper = t.deps.jobs.register("scraper");
    scraper.started(t.clock.now());
    expect((await t.call("GET", "/readyz")).status).toBe(200);
    await t.clock.advance(16 * 60_000);
    const res = await t.call("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(((await res.json()) as { reasons: string[] }).reasons).toEqual(["the club's tee sheets were last read 16 minutes ago"]);
  });
});

/** Moves the test clock by `ms` and waits for the telemetry job's pass that it wakes. */
async function advanceTelemetry(app: TestApp, ms: number): Promise<void> {
  const passes = () => app.deps.jobs.get("telemetry")?.passes ?? 0;
  const before = passes();
  await app.clock.advance(ms);
  for (let i = 0; i < 200 && passes() === before; i++) await Bun.sleep(2);
}

const MB = 1024 * 1024;

describe("telemetry", () => {
  test("a day of samples at most, folded into a few hundred points for the System Monitor's charts", async () => {
    t = await createTestApp();
    const telemetry = createTelemetry({ ...t.deps, clubRequestsTotal: () => 42 });
    for (let i = 0; i < TELEMETRY_SAMPLES + 60; i++) {
      await t.clock.advance(60_000);
      await telemetry.sampleNow();
    }
    const history = telemetry.history();
    expect(history.length).toBe(TELEMETRY_SAMPLES);
    expect(history[0].at).toBe(t.clock.now() - (TELEMETRY_SAMPLES - 1) * 60_000);
    expect(history.at(-1)).toMatchObject({ clubRequests: 0 });
    expect(history.at(-1)!.rssBytes).toBeGreaterThan(0);
    expect(history.at(-1)!.databaseBytes).toBeGreaterThan(0);

    const local = await createTestApp({ extend: () => ({ telemetry }) });
    try {
      const cookie = await local.signIn("admin", "admin-password-1");
      const res = await local.call("GET", "/v1/admin/system-stats/history", { cookie });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { points: { at: number }[] };
      expect(body.points.length).toBeLessThanOrEqual(288);
      expect(body.points.at(-1)!.at).toBe(history.at(-1)!.at);
    } finally {
      await local.close();
    }
  });

  test("the running job gives memory back at rest, the executable's pages each minute, and never within 15 minutes of a release", async () => {
    t = await createTestApp();
    const app = t;
    let collections = 0;
    let pagesLetGo = 0;
    // Any growth at all is enough here, so each minute's pass would collect if it may.
    const telemetry = createTelemetry(app.deps, {
      everyMs: 60_000,
      memory: {
        growthBytes: 0,
        collect: () => void collections++,
        releaseFilePages: () => {
          pagesLetGo++;
          return 0;
        },
      },
    });
    telemetry.start();
    const minute = () => advanceTelemetry(app, 60_000);
    try {
      await minute();
      expect(collections).toBe(1);
      expect(pagesLetGo).toBe(1);
      const maria = await app.createUser({ username: "maria" });
      await addPendingRequest(app, maria, "2026-12-01", app.clock.now() + 10 * 60_000);
      await minute();
      await minute();
      expect(collections).toBe(1);
      expect(pagesLetGo).toBe(1);
    } finally {
      await telemetry.stop();
    }
  });

  test("a job's work that grew the process by 12 MB is given back as it ends, once between two samples; less growth, work just before a sample, or near a release waits for the sample (decision 216)", async () => {
    t = await createTestApp();
    const app = t;
    let rssBytes = 50 * MB;
    let pagesLetGo = 0;
    const memory = {
      rss: () => rssBytes,
      releaseFilePages: () => {
        pagesLetGo++;
        rssBytes = 50 * MB;
        return 0;
      },
    };
    const telemetry = createTelemetry(app.deps, { everyMs: 60_000, memory });
    telemetry.start();
    const scraper = app.deps.jobs.register("scraper");
    const workEnds = async (grownBytes: number, name = "scraper") => {
      rssBytes += grownBytes;
      (name === "scraper" ? scraper : app.deps.jobs.register(name)).ran(app.clock.now());
      for (let i = 0; i < 20; i++) await Bun.sleep(5);
    };
    try {
      await app.clock.advance(1_000);
      await workEnds(AFTER_WORK_GROWTH_BYTES - MB);
      expect(pagesLetGo).toBe(0);
      await workEnds(MB);
      expect(pagesLetGo).toBe(1);
      // Once between two samples: more work waits for the minute's sample, which gives back as ever.
      await workEnds(25 * MB);
      expect(pagesLetGo).toBe(1);
      await advanceTelemetry(app, 59_000);
      expect(pagesLetGo).toBe(2);
      // The telemetry's own pass is not work to give back after.
      await app.clock.advance(1_000);
      await workEnds(25 * MB, "telemetry");
      expect(pagesLetGo).toBe(2);
      await workEnds(0);
      expect(pagesLetGo).toBe(3);
      // Work that ends just before the next sample leaves it to the sample.
      await advanceTelemetry(app, 59_000);
      expect(pagesLetGo).toBe(4);
      await app.clock.advance(60_000 - AFTER_WORK_SAMPLE_NEAR_MS);
      await workEnds(25 * MB);
      expect(pagesLetGo).toBe(4);
      await advanceTelemetry(app, AFTER_WORK_SAMPLE_NEAR_MS);
      expect(pagesLetGo).toBe(5);
      // Near a release nothing is given back, after work or at a sample.
      const maria = await app.createUser({ username: "maria" });
      await addPendingRequest(app, maria, "2026-12-01", app.clock.now() + 10 * 60_000);
      await app.clock.advance(1_000);
      await workEnds(25 * MB);
      expect(pagesLetGo).toBe(5);
      expect(app.logLines.filter((l) => l.includes("could not be given back")).length).toBe(0);
    } finally {
      await telemetry.stop();
    }
    // Stopped: work no longer gives anything back, even where a running telemetry would.
    await app.deps.database.db.delete(bookingRequests);
    const stopped = createTelemetry(app.deps, { everyMs: 60_000, memory });
    stopped.start();
    await stopped.stop();
    await app.clock.advance(1_000);
    await workEnds(25 * MB);
    expect(pagesLetGo).toBe(5);
  });

  test("on Teebox's clock, a due collection a day after the last shrink gives back the compiled code too", async () => {
    t = await createTestApp();
    const app = t;
    const kinds: string[] = [];
    const telemetry = createTelemetry(app.deps, {
      everyMs: 60_000,
      memory: { growthBytes: 0, collect: () => void kinds.push("collection"), shrink: () => void kinds.push("shrink") },
    });
    telemetry.start();
    const advance = (ms: number) => advanceTelemetry(app, ms);
    try {
      await advance(60_000);
      await advance(60_000);
      expect(kinds).toEqual(["collection", "collection"]);
      await advance(SHRINK_AT_MOST_EVERY_MS);
      await advance(60_000);
      expect(kinds).toEqual(["collection", "collection", "shrink", "collection"]);
      // A release has settled since the last shrink: the next collection is a shrink, once.
      const maria = await app.createUser({ username: "maria" });
      await addPendingRequest(app, maria, "2026-12-01", app.clock.now() - 30_000);
      await app.deps.database.db.update(bookingRequests).set({ status: "confirmed" }).where(eq(bookingRequests.userId, maria));
      await advance(60_000);
      await advance(60_000);
      expect(kinds.slice(4)).toEqual(["shrink", "collection"]);
    } finally {
      await telemetry.stop();
    }
  });

  test("a few seconds after the server serves, the code only its start ran is given back, once, and never near a release", async () => {
    t = await createTestApp();
    const app = t;
    let shrinks = 0;
    const telemetry = createTelemetry(app.deps, { memory: { shrink: () => void shrinks++ } });
    telemetry.settleAfterStart();
    telemetry.settleAfterStart();
    await app.clock.advance(START_SETTLE_MS - 1);
    await Bun.sleep(20);
    expect(shrinks).toBe(0);
    await app.clock.advance(1);
    for (let i = 0; i < 300 && !app.logLines.some((l) => l.includes("the start's code given back")); i++) await Bun.sleep(10);
    expect(shrinks).toBe(1);
    // Once per life: the start is over.
    await app.clock.advance(60 * 60_000);
    await Bun.sleep(20);
    expect(shrinks).toBe(1);
    await telemetry.stop();

    // A restart 10 minutes before a release keeps its code: no pause comes near the instant.
    const maria = await app.createUser({ username: "maria" });
    await addPendingRequest(app, maria, "2026-12-01", app.clock.now() + 10 * 60_000);
    const beforeRelease = createTelemetry(app.deps, { memory: { shrink: () => void shrinks++ } });
    beforeRelease.settleAfterStart();
    await app.clock.advance(START_SETTLE_MS);
    await Bun.sleep(50);
    expect(shrinks).toBe(1);
    await beforeRelease.stop();

    // Stopped before it settled: nothing is given back after the stop.
    const stopped = createTelemetry(app.deps, { memory: { shrink: () => void shrinks++ } });
    stopped.settleAfterStart();
    await stopped.stop();
    await app.clock.advance(24 * 60 * 60_000);
    await Bun.sleep(20);
    expect(shrinks).toBe(1);
  });

  test("the heartbeat is pinged after a healthy minute, not while a job has stopped; a failing URL is logged once", async () => {
    t = await createTestApp();
    const pinged: string[] = [];
    let isDown = false;
    const telemetry = createTelemetry(t.deps, {
      heartbeatUrl: "https://hc.example/ping/abc",
      everyMs: 60_000,
      ping: async (url) => {
        if (isDown) throw new Error("connection refused");
        pinged.push(url);
      },
    });
    telemetry.start();
    const minute = () => advanceTelemetry(t!, 60_000);
    await minute();
    expect(pinged).toEqual(["https://hc.example/ping/abc"]);
    isDown = true;
    await minute();
    await minute();
    expect(t.logLines.filter((l) => l.includes("heartbeat: the URL could not be reached")).length).toBe(1);
    expect(telemetry.heartbeat()).toMatchObject({ lastError: "connection refused" });
    isDown = false;
    t.deps.jobs.register("release engine").stopped();
    await minute();
    expect(pinged.length).toBe(1);
    await telemetry.stop();
  });
});
