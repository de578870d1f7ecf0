import { asc, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { formOptions, uiText } from "../db/schema.ts";
import type { FormOptionCategory } from "../db/schema.ts";
import { renderReason } from "../domain/request-reasons.ts";
import { DEFAULT_UI_TEXT, isUiTextKey } from "../domain/ui-text/index.ts";

export interface FormOption {
  category: FormOptionCategory;
  value: string;
}

export async function listFormOptions(db: Db): Promise<FormOption[]> {
  const rows = await db.select().from(formOptions).orderBy(asc(formOptions.category), asc(formOptions.position), asc(formOptions.id));
  return rows.map((r) => ({ category: r.category, value: r.value }));
}

export async function readUiText(db: Db): Promise<Record<string, string>> {
  const rows = await db.select().from(uiText);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export type TextOf = (key: string) => string;

/**
 * Most reads of texts ask for one to a few keys: a notification's three or four, a member's
 * requests' reasons on every reload. A release's instant makes a thousand of them, so the read of
 * each short list is prepared once (decision 205); a longer list is read as it comes.
 */
const PREPARED_UP_TO = 6;
/** Index n reads n + 1 keys, named k0, k1, … */
const textsOfLength = Array.from({ length: PREPARED_UP_TO }, (_, index) =>
  preparedQuery((db) =>
    db
      .select()
      .from(uiText)
      .where(
        inArray(
          uiText.key,
          Array.from({ length: index + 1 }, (_, i) => sql.placeholder(`k${i}`)),
        ),
      )
      .prepare(),
  ),
);

async function readRows(db: Db, keys: string[]): Promise<(typeof uiText.$inferSelect)[]> {
  if (keys.length === 0) return [];
  if (keys.length > PREPARED_UP_TO) return db.select().from(uiText).where(inArray(uiText.key, keys));
  return textsOfLength[keys.length - 1](db).all(Object.fromEntries(keys.map((key, i) => [`k${i}`, key])));
}

/** The texts of `keys` as they read now: an admin's wording, else the default (also for a text left empty), else the key. */
export async function readTexts(db: Db, keys: Iterable<string>): Promise<TextOf> {
  const wanted = [...new Set(keys)];
  const rows = await readRows(db, wanted);
  const stored = new Map(rows.filter((r) => r.value !== "").map((r) => [r.key, r.value]));
  return (key) => stored.get(key) ?? (DEFAULT_UI_TEXT as Record<string, string>)[key] ?? key;
}

/** Renders a stored reason, its key and placeholders, in the current wording; null for no key or one `isReason` does not take. */
export type ReasonText = (key: string | null, context: Record<string, string> | null) => string | null;

/** The renderer of the reasons whose keys are listed (those of a page's rows), their texts read once. */
export async function readReasonTexts(db: Db, keys: string[], isReason: (key: string) => boolean = isUiTextKey): Promise<ReasonText> {
  const text = await readTexts(db, keys);
  return (key, context) => (key && isReason(key) ? renderReason(text(key), context) : null);
}
