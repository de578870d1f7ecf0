/**
 * What the admin calls answer, checked by the web app before it trusts an answer and documented
 * by the routes' contracts (admin.contract.ts). zod/mini keeps them small in the web bundle.
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

/** POST, PUT and DELETE /v1/admin/users: the user as saved (or as it was), without the held requests' count. */
export const adminUserAnswerSchema = z.omit(adminUserSchema, { heldRequests: true });

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

/** GET /v1/admin/app-settings: every stored setting (the ones added since the first release are in appSettingsSchema too). */
const adminSettingsValuesSchema = appSettingsSchema;
export type AdminSettingsValues = z.infer<typeof adminSettingsValuesSchema>;
export const adminSettingsSchema = z.object({ settings: adminSettingsValuesSchema, uiText: uiTextMap });
export type AdminSettingsView = z.infer<typeof adminSettingsSchema>;

/** PUT /v1/admin/app-settings: the settings as saved, and how many pending requests' release moved. */
export const settingsSaveResponseSchema = z.object({ settings: adminSettingsValuesSchema, movedRequests: z.number() });
export type SettingsSaveResponse = z.infer<typeof settingsSaveResponseSchema>;

/** PUT /v1/admin/ui-text. */
export const uiTextSaveResponseSchema = z.object({ uiText: uiTextMap });

const usageSchema = z.object({ used: z.number(), total: z.number(), percent: z.number() });

/** GET /v1/admin/system-stats. */
export const systemStatsSchema = z.object({
  cpu: z.object({ currentLoad: z.number(), cores: z.number() }),
  memory: usageSchema,
  disk: z.optional(usageSchema),
  /** Members whose stored club password the current key cannot open. */
  unreadableClubPasswords: z.optional(z.number()),
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
  /** Teebox's requests to the club, its budget, and the club's last "slow down" (decisions 145, 146). */
  club: z.optional(
    z.object({
      requestsLastMinute: z.number(),
      perMinute: z.array(z.object({ atMs: z.number(), requests: z.number() })),
      totalSinceStart: z.number(),
      sinceMs: z.number(),
      busiestMember: z.nullable(z.object({ userId: z.number(), name: z.string(), requests: z.number(), windowMinutes: z.number() })),
      budget: z.object({ clubPerMinute: z.number(), clubBurst: z.number(), memberPerMinute: z.number(), memberBurst: z.number(), waiting: z.number() }),
      slowDown: z.nullable(
        z.object({
          isActive: z.boolean(),
          startedAt: z.number(),
          pausedUntil: z.number(),
          signals: z.number(),
          reason: z.enum(["429", "503", "challenge"]),
          status: z.number(),
          retryAfterMs: z.nullable(z.number()),
          endedAt: z.nullable(z.number()),
        }),
      ),
    }),
  ),
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
  clubUrl: z.string(),
  /** Epoch ms. */
  startedAt: z.number(),
  ok: z.boolean(),
  clockOffsetMs: z.nullable(z.number()),
  pages: z.array(
    z.object({
      page: z.string(),
      path: z.string(),
      ok: z.boolean(),
      summary: z.string(),
      count: z.optional(z.number()),
      /** The first few records read, as the adapter hands them on. */
      firstRows: z.optional(z.array(z.unknown())),
      problems: z.array(z.string()),
      error: z.optional(z.object({ kind: z.string(), message: z.string(), missing: z.optional(z.string()) })),
      html: z.string(),
    }),
  ),
});
export type ClubCheckView = z.infer<typeof clubCheckResponseSchema>;
