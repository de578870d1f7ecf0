/**
 * The contracts of the admin area's users, settings, texts, System Monitor and club check
 * (decision 170). The configuration tables (courses, windows, holidays, rules, messages) are in
 * admin-config.contract.ts.
 */
import { z } from "@hono/zod-openapi";
import { ROLES, USER_STATUSES } from "../../domain/session-user.ts";
import { appSettingsSchema } from "../../domain/settings.ts";
import { answer, defineRoute, jsonBody, noContent, refusals, ruledBody } from "../../lib/contract.ts";
import {
  adminSettingsSchema,
  adminUserAnswerSchema,
  adminUsersResponseSchema,
  clubCheckResponseSchema,
  settingsSaveResponseSchema,
  systemHistorySchema,
  systemStatsSchema,
  uiTextSaveResponseSchema,
} from "./admin.schemas.ts";

export const MAX_UI_TEXT_KEYS = 5000;
export const MAX_UI_TEXT_KEY_LENGTH = 200;
export const MAX_UI_TEXT_LENGTH = 2000;

// Sanity bounds only: the shared limits (domain/text-limits) answer with a clear "too long".
const optionalText = () => z.string().trim().max(2000).optional();

/** A user's fields as an admin sends them; the admin area's rules check them further (admin-users.routes.ts). */
export const userFieldsSchema = z.object({
  username: z.string().max(100).optional(),
  password: z.string().max(200).optional(),
  role: z.enum(ROLES).optional(),
  status: z.enum(USER_STATUSES).optional(),
  name: optionalText(),
  memberId: optionalText(),
  southwoods_email: optionalText(),
});

export const userIdParam = z.coerce.number().int().positive();

const uiTextKeySchema = z
  .string()
  .max(MAX_UI_TEXT_KEY_LENGTH)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a key with a control character in it is refused, on purpose.
  .refine((key) => key.trim() !== "" && key.trim() === key && !/[\u0000-\u001f]/.test(key));
/** PUT /v1/admin/ui-text: the whole key-to-text map. */
export const uiTextMapSchema = z.record(uiTextKeySchema, z.string().max(MAX_UI_TEXT_LENGTH));

/** PUT /v1/admin/app-settings: every key of the original settings, the others when they change. */
const settingsBodyShape = appSettingsSchema.partial({
  max_open_requests: true,
  club_retry_minutes: true,
  max_active_watches: true,
  watch_poll_seconds: true,
  readiness_check_time: true,
  club_requests_per_minute: true,
  club_request_burst: true,
  member_requests_per_minute: true,
  member_request_burst: true,
});

/** POST /v1/admin/club-check: another club login than the admin's own, or nothing. */
export const clubCheckBodySchema = z
  .object({ email: z.string().trim().min(3).max(200), password: z.string().min(1).max(200) })
  .partial()
  .strict()
  // The message names a UI-text key: the one input check tells it in the admin's wording.
  .refine((b) => (b.email === undefined) === (b.password === undefined), { message: "admin.club_check.error_login_pair" });

const users = ["Admin: users"];
const system = ["Admin: system"];

export const adminRoutes = {
  users: defineRoute({
    access: "admin",
    method: "get",
    path: "/admin/users",
    tags: users,
    summary: "Every user, with the requests held because they are disabled",
    responses: { 200: answer(adminUsersResponseSchema, "The users by name") },
  }),
  createUser: defineRoute({
    access: "admin",
    method: "post",
    path: "/admin/users",
    tags: users,
    summary: "Add a user (the password is one they must replace at first sign-in)",
    request: { body: jsonBody(userFieldsSchema) },
    responses: { 201: answer(adminUserAnswerSchema, "The new user") },
  }),
  updateUser: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/users/{id}",
    tags: users,
    summary: "Change a user's details, role, status or password",
    request: { params: z.object({ id: userIdParam }), body: jsonBody(userFieldsSchema) },
    responses: { 200: answer(adminUserAnswerSchema, "The user as saved"), ...refusals(404) },
  }),
  deleteUser: defineRoute({
    access: "admin",
    method: "delete",
    path: "/admin/users/{id}",
    tags: users,
    summary: "Delete a user",
    request: { params: z.object({ id: userIdParam }) },
    responses: { 204: noContent("Deleted"), ...refusals(404) },
  }),
  systemStats: defineRoute({
    access: "admin",
    method: "get",
    path: "/admin/system-stats",
    tags: system,
    summary: "The System Monitor's figures: CPU, memory, disk, Teebox and each job, the database, the slot watch, requests to the club",
    responses: { 200: answer(systemStatsSchema, "The figures now") },
  }),
  systemHistory: defineRoute({
    access: "admin",
    method: "get",
    path: "/admin/system-stats/history",
    tags: system,
    summary: "The last day of per-minute samples, folded for the System Monitor's charts",
    responses: { 200: answer(systemHistorySchema, "A point per few minutes") },
  }),
  settings: defineRoute({
    access: "admin",
    method: "get",
    path: "/admin/app-settings",
    tags: system,
    summary: "The app settings and the reworded UI texts",
    responses: { 200: answer(adminSettingsSchema, "Settings and texts") },
  }),
  saveSettings: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/app-settings",
    tags: system,
    summary: "Save the app settings; a moved release time moves every pending request's release",
    request: { body: ruledBody(settingsBodyShape, "the settings' rules (src/domain/settings.ts): every original key required, unknown keys refused") },
    responses: { 200: answer(settingsSaveResponseSchema, "The settings as saved") },
  }),
  saveUiText: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/ui-text",
    tags: system,
    summary: "Replace the reworded UI texts (keys left out fall back to their defaults)",
    request: { body: ruledBody(uiTextMapSchema, "the UI-text map's bounds, any problem told as one", z.unknown()) },
    responses: { 200: answer(uiTextSaveResponseSchema, "The texts as saved") },
  }),
  clubCheck: defineRoute({
    access: "admin",
    method: "post",
    path: "/admin/club-check",
    tags: system,
    summary: "Read the club's pages with the admin's own club login (or one given) and tell what was read; books nothing",
    request: { body: jsonBody(clubCheckBodySchema) },
    responses: { 200: answer(clubCheckResponseSchema, "Per page, what was read or why not"), ...refusals(409) },
  }),
};
