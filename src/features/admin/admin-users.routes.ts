/** /v1/admin/users: list, create, update, delete. */
import type { z } from "@hono/zod-openapi";
import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { isTooLong, TEXT_LIMITS } from "../../domain/text-limits.ts";
import { adminRoutes, type userFieldsSchema } from "./admin.contract.ts";
import { adminError, auditAdminChange, type AuditDeps } from "./admin-support.ts";
import { createUser, deleteUser, listUsers, updateUser, type AdminUsersDeps, type UserChanges } from "./admin-users.service.ts";

const USERNAME_PATTERN = /^[A-Za-z0-9._@-]+$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type UserFields = z.output<typeof userFieldsSchema>;

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

export function createAdminUsersRoutes(deps: AdminUsersDeps & AuditDeps) {
  return routeGroup()
    .handle(adminRoutes.users, async (c) => c.json(await listUsers(deps), 200))
    .handle(adminRoutes.createUser, async (c) => {
      const fields = c.req.valid("json");
      const username = fields.username?.trim() ?? "";
      if (!username) throw adminError("admin.users.error_username_required");
      if (!USERNAME_PATTERN.test(username)) throw adminError("admin.users.error_username_invalid");
      if (!fields.password) throw adminError("admin.users.error_password_required");
      checkFields(fields);
      const changes = toChanges(fields);
      const user = await createUser(deps, currentUser(c), {
        ...changes,
        username,
        password: fields.password,
        role: fields.role ?? "user",
        status: fields.status ?? "active",
      });
      await auditAdminChange(deps, c, "admin.user.create", user.username, `role ${user.role}, ${user.status}`);
      return c.json(user, 201);
    })
    .handle(adminRoutes.updateUser, async (c) => {
      const { id } = c.req.valid("param");
      const fields = c.req.valid("json");
      checkFields(fields);
      const user = await updateUser(deps, currentUser(c), id, toChanges(fields), c.get("sessionId"));
      const what = [fields.role && `role ${fields.role}`, fields.status, fields.password && "password reset"].filter(Boolean).join(", ");
      await auditAdminChange(deps, c, "admin.user.update", user.username, what || "details");
      return c.json(user, 200);
    })
    .handle(adminRoutes.deleteUser, async (c) => {
      const user = await deleteUser(deps, currentUser(c), c.req.valid("param").id);
      await auditAdminChange(deps, c, "admin.user.delete", user.username);
      return c.body(null, 204);
    });
}
