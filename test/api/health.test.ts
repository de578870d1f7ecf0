import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/api.ts";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close().catch(() => undefined));

test("GET /healthz: 200 while the database answers and every job is alive, with the security headers", async () => {
  t.deps.jobs.register("scraper").started(t.clock.now());
  const res = await t.call("GET", "/healthz");
  expect(res.status).toBe(200);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(await res.json()).toEqual({
    status: "ok",
    database: "ok",
    jobs: { scraper: "online" },
    errors: {},
    passes: { scraper: { lastPassAt: null, nextPassAt: null, passesPerMinute: 0, errors: 0 } },
  });
});

test("a job whose last run failed is alive: named with its error, still 200", async () => {
  const job = t.deps.jobs.register("scraper");
  job.started(t.clock.now());
  job.failed(new Error("The club's booking site did not answer."), t.clock.now());
  const res = await t.call("GET", "/healthz");
  expect(res.status).toBe(200);
  expect((await res.json()).errors).toEqual({ scraper: "The club's booking site did not answer." });
});

test("a stopped job or an unreachable database answers 503", async () => {
  t.deps.jobs.register("release engine").stopped();
  expect((await t.call("GET", "/healthz")).status).toBe(503);
  const fresh = await createTestApp();
  await fresh.deps.database.close();
  const res = await fresh.call("GET", "/healthz");
  expect(res.status).toBe(503);
  expect((await res.json()).database).toBe("unreachable");
});
