/**
 * App settings stored one text value per key; the domain decides how each is written
 * and read back (with defaults for missing or unreadable values).
 */
import { appSettings } from "../db/schema.ts";
import type { Db } from "../db/client.ts";
import { readStoredSettings, serialiseSettings, type AppSettings, type ExtraSettings, type StoredSettings } from "../domain/settings.ts";

/** The rows last read, as text, and the settings they made (a pure function of the rows, whichever database or transaction read them). */
let lastRead: { text: string; settings: StoredSettings } | undefined;

/**
 * The settings as stored now. Every call reads the rows (another process, or a restore, may have
 * written them), but they are parsed and checked again only when they changed: a member's reload
 * reads the settings several times, and a release's instant hundreds of times. The read is not
 * prepared: decision 205 found a prepared one inside a transaction refused on libSQL.
 */
export async function readSettings(db: Db): Promise<StoredSettings> {
  const rows = await db.select({ key: appSettings.key, value: appSettings.value }).from(appSettings);
  const text = JSON.stringify(rows);
  if (lastRead?.text !== text) lastRead = { text, settings: readStoredSettings(Object.fromEntries(rows.map((r) => [r.key, r.value]))) };
  return copyOf(lastRead.settings);
}

/** A copy each caller may change, its lists too, without changing what the next caller reads. */
const copyOf = (settings: StoredSettings): StoredSettings =>
  Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value])) as StoredSettings;

/** Writes a whole, already validated settings object. */
export async function writeSettings(db: Db, settings: AppSettings & Partial<ExtraSettings>): Promise<void> {
  for (const [key, value] of Object.entries(serialiseSettings(settings))) {
    await db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } });
  }
}
