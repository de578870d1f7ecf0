/**
 * App settings (spec §3) stored one JSON value per key, read with defaults for missing keys.
 */
import { appSettings } from "../../db/schema.ts";
import type { Db } from "../../db/client.ts";
import { DEFAULT_SETTINGS, type AppSettings } from "../../domain/settings.ts";

export async function readSettings(db: Db): Promise<AppSettings> {
  const rows = await db.select().from(appSettings);
  const stored: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value);
    } catch {
      // A value that no longer parses falls back to its default rather than breaking every page.
    }
  }
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS)) if (key in stored) merged[key] = stored[key];
  return merged as unknown as AppSettings;
}

export async function writeSettings(db: Db, settings: Partial<AppSettings>): Promise<void> {
  for (const [key, value] of Object.entries(settings)) {
    await db
      .insert(appSettings)
      .values({ key, value: JSON.stringify(value) })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: JSON.stringify(value) } });
  }
}
