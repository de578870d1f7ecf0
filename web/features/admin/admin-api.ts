/**
 * The admin calls. Every answer read is checked against the server's schema; every body's type is
 * what the route's contract takes (web/lib/api-contracts.ts).
 */
import { api, getJson } from "../../lib/api.ts";
import type { BodyAt } from "../../lib/api-contracts.ts";
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
import { apiDocumentSchema } from "../../../src/features/system/openapi.schemas.ts";

export type { AdminCourseView, AdminUserView, BookingWindowView, FrontpageMessage, FullConfig, AdminSettingsView, SystemHistory, SystemStats };
export type ClubStatus = ClubStatusView;
export type MailOutbox = OutboxResponse;

const paths = apiPaths.admin;

export type UserPayload = BodyAt<typeof paths.users, "POST">;
export type RulePayload = BodyAt<typeof paths.bookingRules, "POST">;
export type WindowPayload = BodyAt<typeof paths.bookingWindows, "POST">;
export type MessagePayload = BodyAt<typeof paths.frontpageMessages, "POST">;
export type CoursePayload = BodyAt<typeof paths.courses, "POST">;
export type HolidayPayload = BodyAt<typeof paths.holidays, "POST">;
export type SettingsPayload = BodyAt<typeof paths.appSettings, "PUT">;

export const adminApi = {
  systemStats: () => getJson(paths.systemStats, systemStatsSchema),
  systemHistory: () => getJson(paths.systemHistory, systemHistorySchema),
  clubStatus: () => getJson(apiPaths.system.club, clubStatusSchema),
  mailOutbox: () => getJson(paths.mailOutbox, outboxResponseSchema),
  apiDocument: () => getJson(paths.openapi, apiDocumentSchema),

  listUsers: () => getJson(paths.users, adminUsersResponseSchema),
  createUser: (user: UserPayload) => api.post(paths.users, user),
  updateUser: (id: number, user: UserPayload) => api.put(paths.user(id), user),
  deleteUser: (id: number) => api.delete(paths.user(id)),

  fullConfig: () => getJson(paths.fullConfig, fullConfigSchema),
  settings: () => getJson(paths.appSettings, adminSettingsSchema),
  saveSettings: (settings: SettingsPayload) => api.putFor(paths.appSettings, settings, settingsSaveResponseSchema),
  saveUiText: (texts: Record<string, string>) => api.putFor(paths.uiText, texts, uiTextSaveResponseSchema),

  addHoliday: (holiday: HolidayPayload) => api.post(paths.holidays, holiday),
  renameHoliday: (date: string, name: string) => api.put(paths.holiday(date), { name }),
  deleteHoliday: (date: string) => api.delete(paths.holiday(date)),

  addRule: (rule: RulePayload) => api.post(paths.bookingRules, rule),
  updateRule: (id: number, rule: RulePayload) => api.put(paths.bookingRule(id), rule),
  deleteRule: (id: number) => api.delete(paths.bookingRule(id)),

  addCourse: (course: CoursePayload) => api.post(paths.courses, course),
  updateCourse: (course: CoursePayload) => api.put(paths.course(course.id), course),
  deleteCourse: (id: string) => api.delete(paths.course(id)),

  addWindow: (window: WindowPayload) => api.post(paths.bookingWindows, window),
  updateWindow: (id: number, window: WindowPayload) => api.put(paths.bookingWindow(id), window),
  deleteWindow: (id: number) => api.delete(paths.bookingWindow(id)),

  addMessage: (message: MessagePayload) => api.post(paths.frontpageMessages, message),
  updateMessage: (id: number, message: MessagePayload) => api.put(paths.frontpageMessage(id), message),
  deleteMessage: (id: number) => api.delete(paths.frontpageMessage(id)),
};
