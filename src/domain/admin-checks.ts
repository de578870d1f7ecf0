/**
 * The admin area's input rules (courses, booking windows, advisories, holidays and booking
 * rules), shared by the admin pages (checked before sending) and the server (enforced).
 * Each check returns the normalised value or the UI-text key of the first problem.
 */
import type { adminText } from "./ui-text/admin.ts";
import type { BookingRule, Course } from "./booking-rules.ts";
import { sortRuleDays } from "./booking-rules.ts";
import { isHhMm, isIsoDate } from "./manila-time.ts";
import { isTooLong, parseFormBoolean, TEXT_LIMITS } from "./text-limits.ts";

export type AdminTextKey = keyof typeof adminText;
export type AdminProblem = { key: AdminTextKey; context?: Record<string, string | number> };
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: AdminProblem };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(key: AdminTextKey, context?: AdminProblem["context"]): Checked<T> => ({ ok: false, problem: context ? { key, context } : { key } });

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");
const isDay = (d: unknown): d is number => typeof d === "number" && Number.isInteger(d) && d >= 1 && d <= 7;

export const COURSE_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const RULE_KEY_PATTERN = /^[A-Z0-9_]{1,40}$/;
export const MAX_NAME_LENGTH = TEXT_LIMITS.holidayName;
export const MAX_TITLE_LENGTH = TEXT_LIMITS.advisoryTitle;
export const MAX_CONTENT_LENGTH = TEXT_LIMITS.advisoryContent;

export interface CourseDraft {
  id?: unknown;
  name?: unknown;
  days_active?: unknown;
}

export function checkCourse(draft: CourseDraft): Checked<Course> {
  const id = text(draft.id);
  const name = text(draft.name);
  if (!id || !name) return fail("admin.courses.error_required");
  if (!COURSE_ID_PATTERN.test(id)) return fail("admin.courses.error_id_invalid");
  if (isTooLong(name, "courseName")) return fail("admin.courses.error_name_long", { max: TEXT_LIMITS.courseName });
  const days = Array.isArray(draft.days_active) ? draft.days_active : [];
  if (!days.every(isDay) || days.length === 0) return fail("admin.courses.error_days");
  return ok({ id, name, days_active: sortRuleDays(days) });
}

export const MAX_COURSE_ALIASES = 10;

/**
 * Other names the club's pages use for a course ('THE MASTERS', 'Championship'). Absent stays
 * absent (an edit without them keeps the stored ones); duplicates, ignoring case, count once.
 */
export function checkCourseAliases(value: unknown): Checked<string[] | undefined> {
  if (value === undefined) return ok(undefined);
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return fail("admin.courses.error_aliases");
  const aliases: string[] = [];
  for (const alias of value.map((v: string) => v.trim()).filter(Boolean)) {
    if (alias.length > MAX_NAME_LENGTH) return fail("admin.courses.error_aliases");
    if (!aliases.some((a) => a.toLowerCase() === alias.toLowerCase())) aliases.push(alias);
  }
  if (aliases.length > MAX_COURSE_ALIASES) return fail("admin.courses.error_aliases");
  return ok(aliases);
}

export interface WindowDraft {
  rule_key?: unknown;
  start_time?: unknown;
  end_time?: unknown;
}

export function checkWindow(draft: WindowDraft): Checked<{ rule_key: string; start_time: string; end_time: string }> {
  const ruleKey = text(draft.rule_key).toUpperCase();
  if (!ruleKey) return fail("admin.windows.error_rule_key");
  if (!RULE_KEY_PATTERN.test(ruleKey)) return fail("admin.windows.error_rule_key_invalid");
  const start = text(draft.start_time);
  const end = text(draft.end_time);
  if (!isHhMm(start)) return fail("admin.windows.error_start");
  if (!isHhMm(end)) return fail("admin.windows.error_end");
  if (end < start) return fail("admin.windows.error_order");
  return ok({ rule_key: ruleKey, start_time: start, end_time: end });
}

export function checkHolidayDate(value: unknown): Checked<string> {
  const date = text(value);
  if (!date) return fail("admin.holidays.error_date_required");
  if (!isIsoDate(date)) return fail("admin.holidays.error_date_invalid");
  return ok(date);
}

/** An empty name is stored as no name (the name is optional). */
export function checkHolidayName(value: unknown): Checked<string | null> {
  const name = text(value);
  if (isTooLong(name, "holidayName")) return fail("admin.holidays.error_name_long", { max: TEXT_LIMITS.holidayName });
  return ok(name === "" ? null : name);
}

export interface MessageDraft {
  title?: unknown;
  content?: unknown;
  is_active?: unknown;
  eventDate?: unknown;
}

export function checkMessage(draft: MessageDraft): Checked<{ title: string; content: string; is_active: boolean; eventDate: string | null }> {
  const title = text(draft.title);
  const content = text(draft.content);
  if (!title) return fail("admin.frontpage.error_title");
  if (isTooLong(title, "advisoryTitle")) return fail("admin.frontpage.error_title_long", { max: TEXT_LIMITS.advisoryTitle });
  if (!content) return fail("admin.frontpage.error_content");
  if (isTooLong(content, "advisoryContent")) return fail("admin.frontpage.error_content_long", { max: TEXT_LIMITS.advisoryContent });
  const eventDate = text(draft.eventDate);
  if (eventDate && !isIsoDate(eventDate)) return fail("admin.frontpage.error_event_date");
  // 'false', '0' and 'off' from a form are false (Boolean('false') would be true).
  const isActive = draft.is_active === undefined || draft.is_active === null ? true : parseFormBoolean(draft.is_active);
  if (isActive === undefined) return fail("admin.error_boolean", { field: "is_active" });
  return ok({ title, content, is_active: isActive, eventDate: eventDate || null });
}

export interface RuleDraft {
  priority?: unknown;
  days_of_week?: unknown;
  applies_on_holidays?: unknown;
  start_time?: unknown;
  end_time?: unknown;
  min_players?: unknown;
  max_players?: unknown;
  max_guests?: unknown;
}

/** A whole number from a number or its text; '' and null are "empty"; anything else is NaN. */
export function parseWholeNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isInteger(value) ? value : Number.NaN;
  if (typeof value !== "string") return Number.NaN;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  return /^-?\d+$/.test(trimmed) ? Number.parseInt(trimmed, 10) : Number.NaN;
}

const LIMITS = {
  min_players: { field: "Min Players", min: 1, max: 4 },
  max_players: { field: "Max Players", min: 1, max: 4 },
  max_guests: { field: "Max Guests", min: 0, max: 3 },
} as const;

/** Priority 0–999 (empty means the new-rule default 10); limits as LIMITS or empty (no limit). */
export function checkRule(draft: RuleDraft): Checked<Omit<BookingRule, "id">> {
  const priority = parseWholeNumber(draft.priority) ?? 10;
  if (!Number.isInteger(priority) || priority < 0 || priority > 999) return fail("admin.rules.error_priority");
  const rawDays = draft.days_of_week ?? [];
  if (!Array.isArray(rawDays) || !rawDays.every(isDay)) return fail("admin.rules.error_days");
  const appliesOnHolidays = draft.applies_on_holidays === undefined || draft.applies_on_holidays === null ? false : parseFormBoolean(draft.applies_on_holidays);
  if (appliesOnHolidays === undefined) return fail("admin.error_boolean", { field: "applies_on_holidays" });
  const start = text(draft.start_time);
  const end = text(draft.end_time);
  if (!isHhMm(start)) return fail("admin.rules.error_start");
  if (!isHhMm(end)) return fail("admin.rules.error_end");
  if (end < start) return fail("admin.rules.error_order");
  const limits: Record<keyof typeof LIMITS, number | null> = { min_players: null, max_players: null, max_guests: null };
  for (const key of Object.keys(LIMITS) as (keyof typeof LIMITS)[]) {
    const value = parseWholeNumber(draft[key]);
    const bounds = LIMITS[key];
    if (value !== null && (!Number.isInteger(value) || value < bounds.min || value > bounds.max)) {
      return fail("admin.rules.error_limit", { field: bounds.field, min: bounds.min, max: bounds.max });
    }
    limits[key] = value;
  }
  if (limits.min_players !== null && limits.max_players !== null && limits.min_players > limits.max_players) {
    return fail("admin.rules.error_min_max");
  }
  return ok({
    priority,
    days_of_week: sortRuleDays(rawDays),
    applies_on_holidays: appliesOnHolidays,
    start_time: start,
    end_time: end,
    ...limits,
  });
}
