/**
 * What the admin calls answer (spec §3, §7), checked by the web app before it trusts an answer.
 * zod/mini keeps them small in the web bundle. The create, update and delete answers are not
 * read by the web app, so they have no schema here.
 */
import * as z from "../../domain/zod-mini.ts";
import { advisorySchema, appSettingsSchema, bookingRuleSchema, courseSchema, holidaySchema } from "../../domain/record-schemas.ts";

/** A course as the admin edits it: with the other names the club's pages may use for it. */
export const adminCourseSchema = z.extend(courseSchema, { aliases: z.array(z.string()) });
export type AdminCourseView = z.infer<typeof adminCourseSchema>;

/** A user in the admin list: the session user without the booking defaults, plus account facts. */
export const adminUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  memberId: z.string(),
  southwoods_email: z.string(),
  role: z.enum(["user", "admin", "superadmin"]),
  status: z.enum(["active", "disabled"]),
  hasClubPassword: z.boolean(),
  mustSetPassword: z.boolean(),
  /** Epoch ms. */
  createdAt: z.number(),
  /** Requests held because the member is disabled (fired if enabled again before their release). */
  heldRequests: z.number(),
});
export type AdminUserView = z.infer<typeof adminUserSchema>;

/** GET /v1/admin/users. */
export const adminUsersResponseSchema = z.array(adminUserSchema);

export const bookingWindowSchema = z.object({
  id: z.number(),
  rule_key: z.string(),
  start_time: z.string(),
  end_time: z.string(),
});
export type BookingWindowView = z.infer<typeof bookingWindowSchema>;

/** A front-page message is an internal advisory. */
export const frontpageMessageSchema = advisorySchema;
export type FrontpageMessage = z.infer<typeof frontpageMessageSchema>;

/** GET /v1/admin/full-config. */
export const fullConfigSchema = z.object({
  courses: z.array(adminCourseSchema),
  bookingWindows: z.array(bookingWindowSchema),
  frontpageMessages: z.array(frontpageMessageSchema),
  holidays: z.array(holidaySchema),
  bookingRules: z.array(bookingRuleSchema),
});
export type FullConfig = z.infer<typeof fullConfigSchema>;

const uiTextMap = z.record(z.string(), z.string());

/** GET /v1/admin/app-settings. */
/** The stored settings the spec does not list, read when present (slot watches, readiness check). */
const watchSettingsShape = {
  max_active_watches: z.optional(z.number()),
  watch_poll_seconds: z.optional(z.number()),
  readiness_check_time: z.optional(z.string()),
};
const adminSettingsValuesSchema = z.extend(appSettingsSchema, watchSettingsShape);
export type AdminSettingsValues = z.infer<typeof adminSettingsValuesSchema>;
export const adminSettingsSchema = z.object({ settings: adminSettingsValuesSchema, uiText: uiTextMap });
export type AdminSettingsView = z.infer<typeof adminSettingsSchema>;

/** PUT /v1/admin/app-settings: the settings as saved (the count of moved requests is not read). */
export const settingsSaveResponseSchema = z.object({ settings: adminSettingsValuesSchema });
export type SettingsSaveResponse = z.infer<typeof settingsSaveResponseSchema>;

/** PUT /v1/admin/ui-text. */
export const uiTextSaveResponseSchema = z.object({ uiText: uiTextMap });

const usageSchema = z.object({ used: z.number(), total: z.number(), percent: z.number() });

/** GET /v1/admin/system-stats. */
export const systemStatsSchema = z.object({
  cpu: z.object({ currentLoad: z.number(), cores: z.number() }),
  memory: usageSchema,
  disk: z.optional(usageSchema),
  processes: z.array(
    z.object({
      /** The process id for Teebox itself; null for its jobs, which run inside it. */
      pm_id: z.nullable(z.number()),
      name: z.string(),
      status: z.string(),
      cpu: z.nullable(z.number()),
      memory: z.nullable(z.number()),
      lastError: z.nullable(z.string()),
      /** A timer job's last pass (ended), next pass (due) and passes in the last minute; null for other rows. */
      lastPassAt: z.optional(z.nullable(z.number())),
      nextPassAt: z.optional(z.nullable(z.number())),
      passesPerMinute: z.optional(z.nullable(z.number())),
    }),
  ),
  /** The database's size and its write-ahead log's (null: a libSQL server). */
  database: z.optional(z.object({ bytes: z.number(), walBytes: z.nullable(z.number()) })),
  /** The slot watch's load: active watches and the club's sheets it read in the last minute. */
  watches: z.optional(z.object({ activeWatches: z.number(), pollsPerMinute: z.number(), pollSeconds: z.number() })),
});
export type SystemStats = z.infer<typeof systemStatsSchema>;

/** GET /v1/admin/system-stats/history: the last day, a point per few minutes (src/domain/telemetry-series.ts). */
export const systemHistorySchema = z.object({
  points: z.array(
    z.object({
      at: z.number(),
      cpuPercent: z.number(),
      rssBytes: z.number(),
      lagP99Ms: z.number(),
      clubRequests: z.nullable(z.number()),
      databaseBytes: z.number(),
    }),
  ),
});
export type SystemHistory = z.infer<typeof systemHistorySchema>;

/** POST /v1/admin/club-check: per page of the club, what was read or why not (src/club/check.ts). */
export const clubCheckResponseSchema = z.object({
  ok: z.boolean(),
  clockOffsetMs: z.nullable(z.number()),
  pages: z.array(
    z.object({
      page: z.string(),
      ok: z.boolean(),
      summary: z.string(),
      problems: z.array(z.string()),
      html: z.string(),
    }),
  ),
});
export type ClubCheckView = z.infer<typeof clubCheckResponseSchema>;
