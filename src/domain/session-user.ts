/**
 * The signed-in user as the server hands it to the web app and to every feature: never a password, never club credentials. Roles and statuses are defined here once;
 * the database schema and the web app both take them from here.
 */
import { boolean, nullable, number, object, oneOf, string, type ShapeOf } from "./shape-check.ts";

export const ROLES = ["user", "admin", "superadmin"] as const;
export type Role = (typeof ROLES)[number];
export const USER_STATUSES = ["active", "disabled"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const sessionUserFields = {
  id: number(),
  username: string(),
  name: string(),
  memberId: string(),
  southwoods_email: string(),
  role: oneOf(ROLES),
  status: oneOf(USER_STATUSES),
  defaultCartType: string(),
  defaultFeeGuest: string(),
  defaultFeeMember: string(),
  /** Whether a club-site password is stored (the password itself never leaves the server). */
  hasClubPassword: boolean(),
  /** The password is one an admin typed (or the username): the member must choose their own first. */
  mustSetPassword: boolean(),
};

/** Checked with the domain's small shape checker: the login page reads it, and zod would not fit its budget. */
export const sessionUserSchema = object(sessionUserFields);
export type SessionUser = ShapeOf<typeof sessionUserSchema>;

/** GET /v1/auth/status. */
export const authStatusSchema = object({ isAuthenticated: boolean(), user: nullable(sessionUserSchema) });
export type AuthStatus = ShapeOf<typeof authStatusSchema>;
