/** The admin calls of spec §7, typed with the server's own record shapes (type-only imports). */
import { api } from "../../lib/api.ts";
import type { AdminUserView } from "../../../src/features/admin/admin-users.service.ts";
import type { BookingWindowView, FrontpageMessage, FullConfig } from "../../../src/features/admin/admin-config.service.ts";
import type { AdminSettingsView } from "../../../src/features/admin/admin-settings.service.ts";
import type { SystemStats } from "../../../src/features/admin/admin-stats.service.ts";
import type { BookingRule, Course, Holiday } from "../../../src/domain/booking-rules.ts";
import type { AppSettings } from "../../../src/domain/settings.ts";

export type { AdminUserView, BookingWindowView, FrontpageMessage, FullConfig, AdminSettingsView, SystemStats };

export interface ClubStatus {
  mode: "demo" | "live";
  url: string;
  reachable: boolean;
  lastError: string | null;
}

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

const enc = encodeURIComponent;

export const adminApi = {
  systemStats: () => api.get<SystemStats>("/v1/admin/system-stats"),
  clubStatus: () => api.get<ClubStatus>("/v1/system/club"),

  listUsers: () => api.get<AdminUserView[]>("/v1/admin/users"),
  createUser: (user: UserPayload) => api.post<AdminUserView>("/v1/admin/users", user),
  updateUser: (id: number, user: UserPayload) => api.put<AdminUserView>(`/v1/admin/users/${id}`, user),
  deleteUser: (id: number) => api.delete<void>(`/v1/admin/users/${id}`),

  fullConfig: () => api.get<FullConfig>("/v1/admin/full-config"),
  settings: () => api.get<AdminSettingsView>("/v1/admin/app-settings"),
  saveSettings: (settings: AppSettings) => api.put<{ settings: AppSettings }>("/v1/admin/app-settings", settings),
  saveUiText: (texts: Record<string, string>) => api.put<{ uiText: Record<string, string> }>("/v1/admin/ui-text", texts),

  addHoliday: (holiday: Holiday) => api.post<Holiday>("/v1/admin/holidays", holiday),
  renameHoliday: (date: string, name: string) => api.put<Holiday>(`/v1/admin/holidays/${enc(date)}`, { name }),
  deleteHoliday: (date: string) => api.delete<void>(`/v1/admin/holidays/${enc(date)}`),

  addRule: (rule: RulePayload) => api.post<BookingRule>("/v1/admin/booking-rules", rule),
  updateRule: (id: number, rule: RulePayload) => api.put<BookingRule>(`/v1/admin/booking-rules/${id}`, rule),
  deleteRule: (id: number) => api.delete<void>(`/v1/admin/booking-rules/${id}`),

  addCourse: (course: Course) => api.post<Course>("/v1/admin/courses", course),
  updateCourse: (course: Course) => api.put<Course>(`/v1/admin/courses/${enc(course.id)}`, course),
  deleteCourse: (id: string) => api.delete<void>(`/v1/admin/courses/${enc(id)}`),

  addWindow: (window: WindowPayload) => api.post<BookingWindowView>("/v1/admin/booking-windows", window),
  updateWindow: (id: number, window: WindowPayload) => api.put<BookingWindowView>(`/v1/admin/booking-windows/${id}`, window),
  deleteWindow: (id: number) => api.delete<void>(`/v1/admin/booking-windows/${id}`),

  addMessage: (message: MessagePayload) => api.post<FrontpageMessage>("/v1/admin/frontpage-messages", message),
  updateMessage: (id: number, message: MessagePayload) => api.put<FrontpageMessage>(`/v1/admin/frontpage-messages/${id}`, message),
  deleteMessage: (id: number) => api.delete<void>(`/v1/admin/frontpage-messages/${id}`),
};
