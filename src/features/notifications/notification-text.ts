/**
 * A notification's words: its UI-text key filled from its context, in the wording an admin chose
 * (else the default), with a failure's reason rendered from its own key first.
 */
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { preparedQuery } from "../../db/prepared.ts";
import { uiText } from "../../db/schema.ts";
import { renderReason } from "../../domain/request-reasons.ts";
import { DEFAULT_UI_TEXT } from "../../domain/ui-text/index.ts";

export type TextOf = (key: string) => string;

/**
 * A notification reads three or four texts, and a release's instant stores one per request: the read
 * of each short list is prepared once (decision 205). A page of the bell's list reads more, as before.
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

/** The texts of `keys` as they read now: an admin's wording, else the default, else the key. */
export async function readTexts(db: Db, keys: Iterable<string>): Promise<TextOf> {
  const wanted = [...new Set(keys)];
  const rows = await readRows(db, wanted);
  const stored = new Map(rows.filter((r) => r.value !== "").map((r) => [r.key, r.value]));
  return (key) => stored.get(key) ?? (DEFAULT_UI_TEXT as Record<string, string>)[key] ?? key;
}

/** The keys a notification's text reads: its own and its reason's. */
export function textKeysOf(notification: { textKey: string; context: Record<string, string> }): string[] {
  return notification.context.reasonKey ? [notification.textKey, notification.context.reasonKey] : [notification.textKey];
}

/** The placeholders with {reason} rendered from the reason's key in the current wording. */
export function contextWithReason(context: Record<string, string>, text: TextOf): Record<string, string> {
  return context.reasonKey ? { ...context, reason: renderReason(text(context.reasonKey), context) } : context;
}

export function renderNotification(key: string, context: Record<string, string>, text: TextOf): string {
  return renderReason(text(key), contextWithReason(context, text));
}
