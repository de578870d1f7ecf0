/**
 * Seeding only adds (decision 003): on every start it writes the defaults a database lacks and
 * leaves what an admin changed, and a start after the first writes nothing.
 */
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { appSettings, uiText } from "../../src/db/schema.ts";
import { seed } from "../../src/db/seed.ts";
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { createSecretBox } from "../../src/lib/secret-box.ts";

const NOW = Date.UTC(2026, 10, 22, 1, 0, 0);
const options = {
  now: NOW,
  adminPassword: "admin-password-1",
  demo: false,
  secretBox: createSecretBox(Buffer.alloc(32, 1)),
  hashPassword: async () => "hash",
  announce: () => undefined,
};

test("a second seed keeps an admin's text and setting, and puts back a default that went missing", async () => {
  const database = openDatabase("file::memory:");
  await migrate(database, NOW);
  await seed(database, options);
  const [aKey, bKey] = Object.keys(DEFAULT_UI_TEXT);
  await database.db.update(uiText).set({ value: "Our own words" }).where(eq(uiText.key, aKey));
  await database.db.delete(uiText).where(eq(uiText.key, bKey));
  await database.db.update(appSettings).set({ value: "09:30" }).where(eq(appSettings.key, "release_time"));
  await database.db.delete(appSettings).where(eq(appSettings.key, "log_level"));

  await seed(database, options);
  const texts = new Map((await database.db.select().from(uiText)).map((r) => [r.key, r.value]));
  expect(texts.get(aKey)).toBe("Our own words");
  expect(texts.get(bKey)).toBe(String(DEFAULT_UI_TEXT[bKey as keyof typeof DEFAULT_UI_TEXT]));
  expect(texts.size).toBe(Object.keys(DEFAULT_UI_TEXT).length);
  const settings = new Map((await database.db.select().from(appSettings)).map((r) => [r.key, r.value]));
  expect(settings.get("release_time")).toBe("09:30");
  expect(settings.has("log_level")).toBe(true);
  await database.close();
});
