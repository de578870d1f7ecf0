/** The watch and readiness settings through the admin API: defaults, bounds, and what they change. */
import { afterEach, expect, test } from "bun:test";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

test("defaults, the poll's minimum of 15 s, a readiness time in HH:MM; other settings keep their value", async () => {
  t = await createTestApp();
  const admin = await t.signIn("admin", ADMIN_PASSWORD);
  const read = async () => ((await (await t!.call("GET", "/v1/admin/app-settings", { cookie: admin })).json()) as { settings: Record<string, unknown> }).settings;
  const settings = await read();
  expect(settings).toMatchObject({ max_active_watches: 3, watch_poll_seconds: 60, readiness_check_time: "18:00" });

  const put = (extra: Record<string, unknown>) => t!.call("PUT", "/v1/admin/app-settings", { cookie: admin, body: { ...settings, ...extra } });
  const tooFast = await put({ watch_poll_seconds: 14 });
  expect(tooFast.status).toBe(400);
  expect(await tooFast.json()).toMatchObject({ errorKey: "settings.number_range", message: "watch_poll_seconds must be a whole number from 15 to 3600." });
  const badTime = await put({ readiness_check_time: "6pm" });
  expect(badTime.status).toBe(400);
  expect(await badTime.json()).toMatchObject({ errorKey: "settings.invalid_value" });
  const noWatches = await put({ max_active_watches: 0 });
  expect(noWatches.status).toBe(400);

  expect((await put({ watch_poll_seconds: 15, readiness_check_time: "19:30", max_active_watches: 5 })).status).toBe(200);
  expect(await read()).toMatchObject({ watch_poll_seconds: 15, readiness_check_time: "19:30", max_active_watches: 5, release_time: settings.release_time });
  expect((await t.deps.slotWatch.stats()).pollSeconds).toBe(15);

  // The monitor shows the watch load.
  const stats = (await (await t.call("GET", "/v1/admin/system-stats", { cookie: admin })).json()) as { watches: unknown };
  expect(stats.watches).toEqual({ activeWatches: 0, pollsPerMinute: 0, pollSeconds: 15 });
});
