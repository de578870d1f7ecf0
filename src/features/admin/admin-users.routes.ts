/** /v1/admin/users (spec §7 admin calls): list, create, update, delete. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../deps.ts";
import { ROLES, USER_STATUSES } from "../../db/schema.ts";
import { currentUser } from "../../lib/middleware.ts";
import { readJson, readParam } from "../../lib/validate.ts";
import { adminError, auditAdminChange } from "./admin-support.ts";
import { isTooLong, TEXT_LIMITS } from "../../domain/text-limits.ts";
import { createUser, deleteUser, listUsers, updateUser, type UserChanges } from "./admin-users.service.ts";

const USERNAME_PATTERN = /^[A-Za-z0-9._@-]+$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Sanity bounds only: the shared limits (domain/text-limits) answer with a clear "too long".
const optionalText = () => z.string().trim().max(2000).optional();

const userFieldsSchema = z.object({
  username: z.string().max(100).optional(),
  password: z.string().max(200).optional(),
  role: z.enum(ROLES).optional(),
  status: z.enum(USER_STATUSES).optional(),
  name: optionalText(),
  memberId: optionalText(),
  southwoods_email: optionalText(),
});
type UserFields = z.infer<typeof userFieldsSchema>;

export const userIdParam = z.coerce.number().int().positive();

/** The limits the member's own profile form has, so whatever an admin saves the member can save back. */
const USER_TEXT_LIMITS = [
  ["name", "Name", "userName"],
  ["memberId", "Member ID", "memberId"],
  ["southwoods_email", "Southwoods email", "clubEmail"],
] as const;

function checkFields(fields: UserFields): void {
  for (const [field, label, limit] of USER_TEXT_LIMITS) {
    const value = fields[field];
    if (value !== undefined && isTooLong(value, limit)) throw adminError("admin.users.error_too_long", 400, { field: label, max: TEXT_LIMITS[limit] });
  }
  if (fields.southwoods_email && !EMAIL_PATTERN.test(fields.southwoods_email)) throw adminError("admin.users.error_invalid_email");
}

function toChanges(fields: UserFields): UserChanges {
  return {
    username: fields.username?.trim(),
    password: fields.password,
    role: fields.role,
    status: fields.status,
    name: fields.name,
    memberId: fields.memberId?.toUpperCase(),
    southwoods_email: fields.southwoods_email,
  };
}

export function createAdminUsersRoutes() {
  return new Hono<AppEnv>()
    .get("/", async (c) => c.json(await listUsers(c.get("deps"))))
    .post("/", async (c) => {
      const fields = await readJson(c, userFieldsSchema);
      const username = fields.username?.trim() ?? "";
      if (!username) throw adminError("admin.users.error_username_required");
      if (!USERNAME_PATTERN.test(username)) throw adminError("admin.users.error_username_invalid");
      if (!fields.password) throw adminError("admin.users.error_password_required");
      checkFields(fields);
      const changes = toChanges(fields);
      const user = await createUser(c.get("deps"), currentUser(c), {
        ...changes,
        username,
        password: fields.password,
        role: fields.role ?? "user",
        status: fields.status ?? "active",
      });
      await auditAdminChange(c, "admin.user.create", user.username, `role ${user.role}, ${user.status}`);
      return c.json(user, 201);
    })
    .put("/:id", async (c) => {
      const id = readParam(c, "id", userIdParam);
      const fields = await readJson(c, userFieldsSchema);
      checkFields(fields);
      const user = await updateUser(c.get("deps"), currentUser(c), id, toChanges(fields), c.get("sessionId"));
      const what = [fields.role && `role ${fields.role}`, fields.status, fields.password && "password reset"].filter(Boolean).join(", ");
      await auditAdminChange(c, "admin.user.update", user.username, what || "details");
      return c.json(user);
    })
    .delete("/:id", async (c) => {
      const id = readParam(c, "id", userIdParam);
      const user = await deleteUser(c.get("deps"), currentUser(c), id);
      await auditAdminChange(c, "admin.user.delete", user.username);
      return c.body(null, 204);
    });
}
