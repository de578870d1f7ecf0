/** The stored settings: read as they are now, however often, and each caller's copy its own. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { AppDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { appSettings } from "../../src/db/schema.ts";
import { DEFAULT_STORED_SETTINGS } from "../../src/domain/settings.ts";
import { readSettings, writeSettings } from "../../src/services/settings.service.ts";
import { openTestDatabase } from "../helpers/test-database.ts";

let database: AppDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database, 0);
});
afterAll(() => database.close());

test("a row written by another way (another process, a restore) is read on the next call, and a bad one falls back to its default", async () => {
  const { db } = database;
  expect((await readSettings(db)).max_open_requests).toBe(DEFAULT_STORED_SETTINGS.max_open_requests);
  await db
    .insert(appSettings)
    .values({ key: "max_open_requests", value: "7" })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: "7" } });
  expect((await readSettings(db)).max_open_requests).toBe(7);
  await db
    .insert(appSettings)
    .values({ key: "max_open_requests", value: "many" })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: "many" } });
  expect((await readSettings(db)).max_open_requests).toBe(DEFAULT_STORED_SETTINGS.max_open_requests);
});

test("a caller changing what it was given, its lists too, changes nothing for the next caller", async () => {
  const { db } = database;
  const before = await readSettings(db);
  await writeSettings(db, { ...before, courses_to_skip_on_full: ["legends"] });
  const first = await readSettings(db);
  first.courses_to_skip_on_full.push("masters");
  first.release_time = "09:00";
  const second = await readSettings(db);
  expect(second.courses_to_skip_on_full).toEqual(["legends"]);
  expect(second.release_time).toBe(before.release_time);
});
