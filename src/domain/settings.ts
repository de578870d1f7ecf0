/**
 * App settings.
 */
import { z } from "zod";
import { makeProblem, type DomainProblem } from "./problem.ts";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type AppSettings = {
  release_days_before: number;
  release_time: string;
  ui_date_range_days: number;
  scraper_date_range_days: number;
  booking_roll_hour: number;
  /** Course ids the scraper stops looking at once their day is full. */
  courses_to_skip_on_full: string[];
  smart_refresh_threshold_seconds: number;
  log_level: LogLevel;
  /** The Teebox user whose stored club login the scraper borrows; '' = the first admin with one. */
  scraper_username: string;
};

/**
 * Settings added since the original ones, kept beside AppSettings so a client that sends exactly the
 * original keys (and the web's form) still type-checks; omitted on a save, they keep their value.
 */
export type ExtraSettings = {
  /** Open (pending or processing) requests a member may have at once. */
  max_open_requests: number;
  /**
   * How long the release engine keeps trying while the club is in trouble (errors, unreadable
   * pages) before it gives a request up: failed when nothing can have been booked, else
   * needs attention (decision 115).
   */
  club_retry_minutes: number;
  /** Active slot watches a member may have at once. */
  max_active_watches: number;
  /** Seconds between two focused polls of the watched tee sheets (the club is not hammered). */
  watch_poll_seconds: number;
  /** Manila time of day ('HH:MM') of the readiness check, the day before each release. */
  readiness_check_time: string;
  /**
   * The politeness budget (decision 145): requests Teebox may send to the club, outside a release's
   * first wave at the instant, for the whole club (one address) and per member's club login: a
   * steady rate per minute and how many may be saved up for a burst.
   */
  club_requests_per_minute: number;
  club_request_burst: number;
  member_requests_per_minute: number;
  member_request_burst: number;
};

export type StoredSettings = AppSettings & ExtraSettings;

export const DEFAULT_SETTINGS: AppSettings = {
  release_days_before: 7,
  release_time: "07:00",
  ui_date_range_days: 14,
  scraper_date_range_days: 8,
  booking_roll_hour: 18,
  courses_to_skip_on_full: [],
  smart_refresh_threshold_seconds: 300,
  log_level: "info",
  scraper_username: "",
};

/** Every stored setting's default, the ones added since the original ones included. */
export const DEFAULT_STORED_SETTINGS: StoredSettings = {
  ...DEFAULT_SETTINGS,
  max_open_requests: 10,
  club_retry_minutes: 10,
  max_active_watches: 3,
  watch_poll_seconds: 60,
  readiness_check_time: "18:00",
  club_requests_per_minute: 60,
  club_request_burst: 1000,
  member_requests_per_minute: 12,
  member_request_burst: 60,
};

export const SETTING_KEYS = Object.keys(DEFAULT_STORED_SETTINGS) as (keyof StoredSettings)[];

/** The original settings' keys: PUT /v1/admin/app-settings must carry each of them. */
export const SPEC_SETTING_KEYS = [
  "release_days_before",
  "release_time",
  "ui_date_range_days",
  "scraper_date_range_days",
  "booking_roll_hour",
  "courses_to_skip_on_full",
  "smart_refresh_threshold_seconds",
  "log_level",
] as const satisfies readonly (keyof AppSettings)[];

/** Two digits, colon, two digits: '7:00' is not HH:MM; '24:00' is HH:MM-shaped but out of range. */
const HH_MM_SHAPE = /^\d{2}:\d{2}$/;

export function checkReleaseTime(value: string): DomainProblem | null {
  if (!HH_MM_SHAPE.test(value)) return makeProblem("settings.release_time_format");
  const [hours, minutes] = value.split(":").map(Number);
  if (hours > 23 || minutes > 59) return makeProblem("settings.release_time_range");
  return null;
}

/**
 * Bounds (none were given; these keep a typo from harming the club or the server):
 * release_days_before 0–60; ui_date_range_days and scraper_date_range_days 1–60 days;
 * booking_roll_hour 0–24 (24 never rolls to tomorrow); smart_refresh_threshold_seconds
 * 0–86400 (one day); course ids and scraper_username up to 64 characters; club_retry_minutes
 * 1–60 (at least long enough for a club restart, at most an hour of posts to a failing club);
 * the request budget (decision 145): the whole club 6–600 a minute with 20–5000 saved up, a member's
 * login 1–120 a minute with 5–600 saved up (below the floors a release or a sign-in cannot work; above
 * the ceilings the budget would no longer hold anything back).
 */
export const SETTING_BOUNDS = {
  release_days_before: { min: 0, max: 60 },
  ui_date_range_days: { min: 1, max: 60 },
  scraper_date_range_days: { min: 1, max: 60 },
  booking_roll_hour: { min: 0, max: 24 },
  smart_refresh_threshold_seconds: { min: 0, max: 86_400 },
  max_open_requests: { min: 1, max: 100 },
  club_retry_minutes: { min: 1, max: 60 },
  max_active_watches: { min: 1, max: 20 },
  watch_poll_seconds: { min: 15, max: 3600 },
  club_requests_per_minute: { min: 6, max: 600 },
  club_request_burst: { min: 20, max: 5000 },
  member_requests_per_minute: { min: 1, max: 120 },
  member_request_burst: { min: 5, max: 600 },
} as const;

export const NUMERIC_SETTING_KEYS = Object.keys(SETTING_BOUNDS) as (keyof typeof SETTING_BOUNDS)[];

const boundedInt = (key: keyof typeof SETTING_BOUNDS) => z.number().int().min(SETTING_BOUNDS[key].min).max(SETTING_BOUNDS[key].max);

export const releaseTimeSchema = z.string().superRefine((value, ctx) => {
  const problem = checkReleaseTime(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem.message });
});

export const appSettingsSchema = z.strictObject({
  release_days_before: boundedInt("release_days_before"),
  release_time: releaseTimeSchema,
  ui_date_range_days: boundedInt("ui_date_range_days"),
  scraper_date_range_days: boundedInt("scraper_date_range_days"),
  booking_roll_hour: boundedInt("booking_roll_hour"),
  courses_to_skip_on_full: z.array(z.string().trim().min(1).max(64)).max(100),
  smart_refresh_threshold_seconds: boundedInt("smart_refresh_threshold_seconds"),
  log_level: z.enum(LOG_LEVELS),
  scraper_username: z.string().trim().max(64),
  max_open_requests: boundedInt("max_open_requests"),
  club_retry_minutes: boundedInt("club_retry_minutes"),
  max_active_watches: boundedInt("max_active_watches"),
  watch_poll_seconds: boundedInt("watch_poll_seconds"),
  readiness_check_time: releaseTimeSchema,
  club_requests_per_minute: boundedInt("club_requests_per_minute"),
  club_request_burst: boundedInt("club_request_burst"),
  member_requests_per_minute: boundedInt("member_requests_per_minute"),
  member_request_burst: boundedInt("member_request_burst"),
}) satisfies z.ZodType<StoredSettings>;

/**
 * An admin's save (PUT /v1/admin/app-settings) over the stored settings: every original key
 * is required; the others keep their stored value when omitted; unknown keys are refused. Numbers
 * may come as numbers or their text, but an emptied number field is refused (never read as 0).
 */
export function mergeSettingsUpdate(body: Record<string, unknown>, stored: StoredSettings): { ok: true; value: StoredSettings } | { ok: false; problem: DomainProblem } {
  const unknown = Object.keys(body).find((key) => !(SETTING_KEYS as string[]).includes(key));
  if (unknown !== undefined) return { ok: false, problem: makeProblem("settings.unknown_key", { key: unknown.slice(0, 64) }) };
  const missing = SPEC_SETTING_KEYS.find((key) => !Object.hasOwn(body, key));
  if (missing) return { ok: false, problem: makeProblem("settings.missing_key", { key: missing }) };
  const merged: Record<string, unknown> = { ...stored, ...body };
  for (const key of NUMERIC_SETTING_KEYS) {
    if (!Object.hasOwn(body, key)) continue;
    const value = body[key];
    if (value === null || (typeof value === "string" && value.trim() === "")) return { ok: false, problem: makeProblem("settings.number_required", { key }) };
    if (typeof value === "string") merged[key] = /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  }
  const parsed = appSettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? "");
    if ((NUMERIC_SETTING_KEYS as string[]).includes(key)) {
      const bounds = SETTING_BOUNDS[key as keyof typeof SETTING_BOUNDS];
      return { ok: false, problem: makeProblem("settings.number_range", { key, min: bounds.min, max: bounds.max }) };
    }
    if (key === "release_time") return { ok: false, problem: checkReleaseTime(String(merged.release_time)) ?? makeProblem("settings.release_time_format") };
    return { ok: false, problem: makeProblem("settings.invalid_value", { key }) };
  }
  return { ok: true, value: parsed.data };
}

/** Stored settings are text (a key/value table); this is how each one is written. */
export function serialiseSettings(settings: AppSettings & Partial<ExtraSettings>): Record<keyof StoredSettings, string> {
  const out = {} as Record<keyof StoredSettings, string>;
  for (const key of SETTING_KEYS) {
    // A settings object without the extra keys (the seed's spec defaults) gets their defaults.
    const value = settings[key] ?? DEFAULT_STORED_SETTINGS[key];
    out[key] = Array.isArray(value) ? JSON.stringify(value) : String(value);
  }
  return out;
}

function parseStoredValue(key: keyof StoredSettings, text: string): unknown {
  const fallback = DEFAULT_STORED_SETTINGS[key];
  if (Array.isArray(fallback)) {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return typeof fallback === "number" ? (text.trim() === "" ? Number.NaN : Number(text)) : text;
}

/**
 * Reads stored text values into settings: numbers are converted, the JSON list parsed, and any
 * missing or invalid value falls back to its default so a bad row never stops the server.
 */
export function readStoredSettings(stored: Readonly<Record<string, string | null | undefined>>): StoredSettings {
  const result: Record<string, unknown> = { ...DEFAULT_STORED_SETTINGS };
  for (const key of SETTING_KEYS) {
    const text = stored[key];
    if (text == null) continue;
    const candidate = parseStoredValue(key, text);
    const field = appSettingsSchema.shape[key].safeParse(candidate);
    if (field.success) result[key] = field.data;
  }
  return result as StoredSettings;
}
