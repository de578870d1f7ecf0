/**
 * App settings stored one text value per key; the domain decides how each is written
 * and read back (with defaults for missing or unreadable values).
 */
import { appSettings } from "../db/schema.ts";
import type { Db } from "../db/client.ts";
import { readStoredSettings, serialiseSettings, type AppSettings, type ExtraSettings, type StoredSettings } from "../domain/settings.ts";

export async function readSettings(db: Db): Promise<StoredSettings> {
  const rows = await db.select().from(appSettings);
  return readStoredSettings(Object.fromEntries(rows.map((r) => [r.key, r.value])));
}

/** Writes a whole, already validated settings object. */
export async function writeSettings(db: Db, settings: AppSettings & Partial<ExtraSettings>): Promise<void> {
  for (const [key, value] of Object.entries(serialiseSettings(settings))) {
    await db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } });
  }
}
