/** Front-page advisories. */

export const BULLET = "•";

/** Content split into paragraphs at each bullet character; trimmed, empty parts dropped. */
export function splitBulletContent(content: string): string[] {
  return content
    .split(BULLET)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

export type SortableAdvisory = {
  id?: number | string;
  is_active: boolean | number;
  created_at: string | number | null | undefined;
};

/**
 * Epoch ms of a created_at written as epoch ms, ISO text, or SQLite 'YYYY-MM-DD HH:MM:SS' (UTC);
 * unknown values sort as oldest.
 */
export function createdAtMs(value: SortableAdvisory["created_at"]): number {
  if (typeof value === "number") return Number.isFinite(value) ? value : 0;
  if (!value) return 0;
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(" ", "T")}Z` : value;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? 0 : ms;
}

/** Active first, then newest first; equal times keep the higher id first. Returns a new array. */
export function sortAdvisories<T extends SortableAdvisory>(list: readonly T[]): T[] {
  const idOf = (a: T) => (typeof a.id === "number" ? a.id : Number(a.id ?? 0) || 0);
  return [...list].sort((a, b) => Number(Boolean(b.is_active)) - Number(Boolean(a.is_active)) || createdAtMs(b.created_at) - createdAtMs(a.created_at) || idOf(b) - idOf(a));
}
