/** Texts are read in the wording an admin chose, whatever the number of keys (prepared up to six, built beyond), and reasons rendered from them. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { AppDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { uiText } from "../../src/db/schema.ts";
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { readReasonTexts, readTexts } from "../../src/services/options-and-texts.service.ts";
import { openTestDatabase } from "../helpers/test-database.ts";

let database: AppDatabase;
const KEYS = Array.from({ length: 9 }, (_, i) => `test.text_${i}`);

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database, 0);
  // Every other key has an admin's wording; an empty one reads as not chosen.
  await database.db.insert(uiText).values(KEYS.map((key, i) => ({ key, value: i % 2 === 0 ? `chosen ${i}` : "" })));
});
afterAll(() => database.close());

test("from one key to nine, each reads its admin's wording, else the default, else the key itself", async () => {
  for (let count = 0; count <= KEYS.length; count++) {
    const keys = KEYS.slice(0, count);
    const text = await readTexts(database.db, [...keys, ...keys]);
    expect(keys.map(text)).toEqual(keys.map((key, i) => (i % 2 === 0 ? `chosen ${i}` : key)));
  }
  expect((await readTexts(database.db, ["notifications.email_footer"]))("notifications.email_footer")).not.toBe("notifications.email_footer");
});

test("the same prepared read serves other keys of the same number, never the first keys it was given", async () => {
  const first = await readTexts(database.db, [KEYS[0], KEYS[2]]);
  const second = await readTexts(database.db, [KEYS[4], KEYS[6]]);
  expect([first(KEYS[0]), first(KEYS[2])]).toEqual(["chosen 0", "chosen 2"]);
  expect([second(KEYS[4]), second(KEYS[6]), second(KEYS[0])]).toEqual(["chosen 4", "chosen 6", KEYS[0]]);
});

test("a stored reason is rendered in an admin's wording with its placeholders; a key the caller does not take, or none, renders nothing", async () => {
  const reasonKey = "bookings.reason.no_time_available";
  await database.db
    .insert(uiText)
    .values({ key: reasonKey, value: "All gone on {date}" })
    .onConflictDoUpdate({ target: uiText.key, set: { value: "All gone on {date}" } });
  const render = await readReasonTexts(database.db, [reasonKey, KEYS[1]], (key) => key.startsWith("bookings.reason."));
  expect(render(reasonKey, { date: "2026-12-01" })).toBe("All gone on 2026-12-01");
  expect(render(KEYS[1], {})).toBeNull();
  expect(render(null, null)).toBeNull();
  // Any UI-text key by default, an empty wording read as its default.
  const anyText = await readReasonTexts(database.db, ["notifications.email_footer"]);
  expect(anyText("notifications.email_footer", {})).toBe(DEFAULT_UI_TEXT["notifications.email_footer"]);
  expect(anyText("not.a.key", {})).toBeNull();
});
