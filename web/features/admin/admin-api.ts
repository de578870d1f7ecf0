/** The admin calls of spec §7; every answer read is checked against the server's schema. */
import { api, getJson } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import {
  adminSettingsSchema,
  adminUsersResponseSchema,
  fullConfigSchema,
  settingsSaveResponseSchema,
  systemHistorySchema,
  systemStatsSchema,
  uiTextSaveResponseSchema,
  type AdminCourseView,
  type AdminSettingsView,
  type AdminUserView,
  type BookingWindowView,
  type FrontpageMessage,
  type FullConfig,
  type SystemHistory,
  type SystemStats,
} from "../../../src/features/admin/admin.schemas.ts";
import { clubStatusSchema, type ClubStatusView } from "../../../src/features/club/club.schemas.ts";
import { outboxResponseSchema, type OutboxResponse } from "../../../src/features/notifications/notifications-responses.schemas.ts";
import type { BookingRule, Holiday } from "../../../src/domain/booking-rules.ts";
import type { AppSettings, ExtraSettings } from "../../../src/domain/settings.ts";
import type { AdminSettingsValues } from "../../../src/features/admin/admin.schemas.ts";

type WatchSettingValues = Pick<AdminSettingsValues, "max_active_watches" | "watch_poll_seconds" | "readiness_check_time">;

export type { AdminCourseView, AdminUserView, BookingWindowView, FrontpageMessage, FullConfig, AdminSettingsView, SystemHistory, SystemStats };
export type ClubStatus = ClubStatusView;
export type MailOutbox = OutboxResponse;

export interface UserPayload {
  username?: string;
  password?: string;
  role: AdminUserView["role"];
  status: AdminUserView["status"];
  name: string;
  memberId: string;
  southwoods_email: string;
}

export type RulePayload = Omit<BookingRule, "id">;
export type WindowPayload = Omit<BookingWindowView, "id">;
export type MessagePayload = Pick<FrontpageMessage, "title" | "content" | "is_active" | "eventDate">;

const paths = apiPaths.admin;

export const adminApi = {
  systemStats: () => getJson(paths.systemStats, systemStatsSchema),
  systemHistory: () => getJson(paths.systemHistory, systemHistorySchema),
  clubStatus: () => getJson(apiPaths.system.club, clubStatusSchema),
  mailOutbox: () => getJson(paths.mailOutbox, outboxResponseSchema),

  listUsers: () => getJson(paths.users, adminUsersResponseSchema),
  createUser: (user: UserPayload) => api.post(paths.users, user),
  updateUser: (id: number, user: UserPayload) => api.put(paths.user(id), user),
  deleteUser: (id: number) => api.delete(paths.user(id)),

  fullConfig: () => getJson(paths.fullConfig, fullConfigSchema),
  settings: () => getJson(paths.appSettings, adminSettingsSchema),
  saveSettings: (settings: AppSettings & Partial<ExtraSettings> & Partial<WatchSettingValues>) => api.putFor(paths.appSettings, settings, settingsSaveResponseSchema),
  saveUiText: (texts: Record<string, string>) => api.putFor(paths.uiText, texts, uiTextSaveResponseSchema),

  addHoliday: (holiday: Holiday) => api.post(paths.holidays, holiday),
  renameHoliday: (date: string, name: string) => api.put(paths.holiday(date), { name }),
  deleteHoliday: (date: string) => api.delete(paths.holiday(date)),

  addRule: (rule: RulePayload) => api.post(paths.bookingRules, rule),
  updateRule: (id: number, rule: RulePayload) => api.put(paths.bookingRule(id), rule),
  deleteRule: (id: number) => api.delete(paths.bookingRule(id)),

  addCourse: (course: AdminCourseView) => api.post(paths.courses, course),
  updateCourse: (course: AdminCourseView) => api.put(paths.course(course.id), course),
  deleteCourse: (id: string) => api.delete(paths.course(id)),

  addWindow: (window: WindowPayload) => api.post(paths.bookingWindows, window),
  updateWindow: (id: number, window: WindowPayload) => api.put(paths.bookingWindow(id), window),
  deleteWindow: (id: number) => api.delete(paths.bookingWindow(id)),

  addMessage: (message: MessagePayload) => api.post(paths.frontpageMessages, message),
  updateMessage: (id: number, message: MessagePayload) => api.put(paths.frontpageMessage(id), message),
  deleteMessage: (id: number) => api.delete(paths.frontpageMessage(id)),
};
