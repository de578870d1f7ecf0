/**
 * The default texts and how a key finds its text: the admin's stored text, else the default.
 * Kept apart from the text store (web/lib/text-store.ts) and the hooks (web/lib/text.ts), which
 * both use it.
 */
import { commonText } from "../../src/domain/ui-text/common.ts";
import { loginText } from "../../src/domain/ui-text/login.ts";

/**
 * Default texts. /login needs only the common and login catalogues, so the rest (tens of kilobytes)
 * arrive with the member area's chunk, which installs them (web/pages/member-area.ts).
 */
let defaults: Record<string, string> = { ...commonText, ...loginText };

export function setDefaultTexts(all: Record<string, string>): void {
  defaults = all;
}

/** Stored text for any key (including keys named by the server), else the default; undefined when neither is non-empty. */
export function lookupText(key: string, overrides: Record<string, string>): string | undefined {
  const stored = overrides[key];
  if (stored) return stored;
  const fallback = Object.hasOwn(defaults, key) ? defaults[key] : undefined;
  return fallback || undefined;
}

/** True when every key shows the same text with either set of stored texts. */
export function showsSameTexts(a: Record<string, string>, b: Record<string, string>): boolean {
  if (a === b) return true;
  for (const key of Object.keys(a)) if (lookupText(key, a) !== lookupText(key, b)) return false;
  for (const key of Object.keys(b)) if (!Object.hasOwn(a, key) && lookupText(key, a) !== lookupText(key, b)) return false;
  return true;
}

/** The stored texts that change what a key shows (all of them for keys whose default is not loaded). */
export function textsThatDiffer(stored: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(stored)) if (value && value !== defaults[key]) kept[key] = value;
  return kept;
}
