/**
 * One length limit per stored text, shared by every form that writes it (the admin's and the
 * member's own), so a value one form saves can always be saved back by the other. Over the limit
 * is told "too long" with the limit, never "required".
 */
export const TEXT_LIMITS = {
  userName: 100,
  memberId: 50,
  clubEmail: 200,
  courseName: 100,
  holidayName: 100,
  advisoryTitle: 200,
  advisoryContent: 5000,
} as const;

export type TextLimitKey = keyof typeof TEXT_LIMITS;

/** Whether a (trimmed) value is over its limit, counted in characters. */
export function isTooLong(value: string, key: TextLimitKey): boolean {
  return [...value.trim()].length > TEXT_LIMITS[key];
}

/**
 * A checkbox or switch as forms send it: true, 'true', '1', 'on', 'yes' and 1 are true; false,
 * 'false', '0', 'off', 'no', '' and 0 are false (case and spaces ignored). Anything else is not a
 * boolean (undefined), for the caller to refuse.
 */
export function parseFormBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  if (["true", "1", "on", "yes"].includes(text)) return true;
  if (["false", "0", "off", "no", ""].includes(text)) return false;
  return undefined;
}
