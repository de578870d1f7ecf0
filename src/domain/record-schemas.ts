/**
 * Checks of the domain's records as the server sends them, for the web app to test each
 * answer before it trusts it. zod/mini keeps them small in the web bundle; each schema `satisfies`
 * the domain type, so the two cannot drift apart. Unknown extra fields are dropped.
 */
import * as z from "./zod-mini.ts";
import type { BookingRule, Course, Holiday } from "./booking-rules.ts";
import type { ConfirmedBookingView, PendingRequestView } from "./bookings-view.ts";
import type { DateEntry, TeeTimeDay } from "./date-kinds.ts";
import type { TeeTime } from "./estimated-slots.ts";
import type { SavedPlayer } from "./players.ts";
import type { AppSettings, LogLevel } from "./settings.ts";
import { WINDOW_KEYS, type AllowedWindows, type TimeWindow } from "./windows.ts";

/** Restated from settings.ts, whose validation code the web bundle should not carry. */
const LOG_LEVEL_VALUES = ["debug", "info", "warn", "error"] as const;
type SameMembers<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const logLevelsMatch: SameMembers<(typeof LOG_LEVEL_VALUES)[number], LogLevel> = true;
void logLevelsMatch;

const dayNumbers = z.array(z.number());

export const teeTimeSchema = z.object({
  time: z.string(),
  status: z.string(),
  slotId: z.nullable(z.string()),
}) satisfies z.ZodMiniType<TeeTime>;

export const teeTimeDaySchema = z.object({
  date: z.string(),
  course: z.string(),
  tee_times: z.array(teeTimeSchema),
}) satisfies z.ZodMiniType<TeeTimeDay>;

export const dateEntrySchema = z.object({
  dateStr: z.string(),
  dayName: z.string(),
  monthDay: z.string(),
}) satisfies z.ZodMiniType<DateEntry>;

export const bookingRuleSchema = z.object({
  id: z.number(),
  priority: z.number(),
  days_of_week: dayNumbers,
  applies_on_holidays: z.boolean(),
  start_time: z.string(),
  end_time: z.string(),
  min_players: z.nullable(z.number()),
  max_players: z.nullable(z.number()),
  max_guests: z.nullable(z.number()),
}) satisfies z.ZodMiniType<BookingRule>;

export const holidaySchema = z.object({
  date: z.string(),
  name: z.nullable(z.string()),
}) satisfies z.ZodMiniType<Holiday>;

export const courseSchema = z.object({
  id: z.string(),
  name: z.string(),
  days_active: dayNumbers,
}) satisfies z.ZodMiniType<Course>;

export const appSettingsSchema = z.object({
  release_days_before: z.number(),
  release_time: z.string(),
  ui_date_range_days: z.number(),
  scraper_date_range_days: z.number(),
  booking_roll_hour: z.number(),
  courses_to_skip_on_full: z.array(z.string()),
  smart_refresh_threshold_seconds: z.number(),
  log_level: z.enum(LOG_LEVEL_VALUES),
  scraper_username: z.string(),
  /** Not original keys (domain/settings.ts ExtraSettings): absent from an older server's answer. */
  club_retry_minutes: z.optional(z.number()),
  max_open_requests: z.optional(z.number()),
  max_active_watches: z.optional(z.number()),
  watch_poll_seconds: z.optional(z.number()),
  readiness_check_time: z.optional(z.string()),
  club_requests_per_minute: z.optional(z.number()),
  club_request_burst: z.optional(z.number()),
  member_requests_per_minute: z.optional(z.number()),
  member_request_burst: z.optional(z.number()),
}) satisfies z.ZodMiniType<AppSettings>;

const timeWindowSchema = z.object({ start_time: z.string(), end_time: z.string() }) satisfies z.ZodMiniType<TimeWindow>;

export const allowedWindowsSchema = z.record(z.enum(WINDOW_KEYS), z.array(timeWindowSchema)) satisfies z.ZodMiniType<AllowedWindows>;

export const savedPlayerSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  type: z.string(),
  memberId: z.string(),
  cartPreference: z.string(),
  feePreference: z.string(),
}) satisfies z.ZodMiniType<SavedPlayer>;

const playerChoices = {
  cart: z.optional(z.string()),
  fee: z.optional(z.string()),
};

export const confirmedBookingSchema = z.object({
  bookingId: z.string(),
  course: z.string(),
  date: z.string(),
  time: z.string(),
  createdAt: z.union([z.string(), z.number()]),
  playersInfo: z.array(z.object({ name: z.string(), type: z.string(), id: z.string(), ...playerChoices })),
}) satisfies z.ZodMiniType<ConfirmedBookingView>;

export const pendingRequestShape = {
  id: z.number(),
  course: z.string(),
  play_date: z.string(),
  times: z.array(z.string()),
  status: z.string(),
  release_at: z.nullable(z.number()),
  players: z.array(z.object({ name: z.string(), type: z.string(), memberId: z.string(), ...playerChoices })),
};

export const pendingRequestSchema = z.object(pendingRequestShape) satisfies z.ZodMiniType<PendingRequestView>;

/** An advisory as members and admins see it. */
export const advisorySchema = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  /** ISO date of the event, when the advisory names one. */
  eventDate: z.nullable(z.string()),
  is_active: z.boolean(),
  /** Epoch ms. */
  created_at: z.number(),
});
export type Advisory = z.infer<typeof advisorySchema>;
