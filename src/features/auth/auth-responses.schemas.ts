/**
 * What the auth and profile calls answer (spec §3 'User (session)', §7): the web app checks each
 * answer against these before it trusts it. The login page reads them, so they use the domain's
 * small shape checker rather than zod, whose core alone would not fit the login bundle's budget.
 */
import { boolean, nullable, number, object, oneOf, string, type ShapeOf } from "../../domain/shape-check.ts";
import type { Role, UserStatus } from "../../db/schema.ts";

const ROLES = ["user", "admin", "superadmin"] as const;
const USER_STATUSES = ["active", "disabled"] as const;

// The database's lists, restated so the web bundle does not carry the table definitions.
type SameMembers<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rolesMatch: SameMembers<(typeof ROLES)[number], Role> = true;
const statusesMatch: SameMembers<(typeof USER_STATUSES)[number], UserStatus> = true;
void rolesMatch;
void statusesMatch;

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
};

/** The signed-in user as the web app sees it. Never a password, never club credentials. */
export const sessionUserSchema = object(sessionUserFields);
export type SessionUser = ShapeOf<typeof sessionUserSchema>;

/** GET /v1/auth/status. */
export const authStatusSchema = object({ isAuthenticated: boolean(), user: nullable(sessionUserSchema) });
export type AuthStatus = ShapeOf<typeof authStatusSchema>;

/** POST /v1/auth/login and PUT /v1/my/profile answer with the user as it now is. */
export const userResponseSchema = object({ user: sessionUserSchema });
export type UserResponse = ShapeOf<typeof userResponseSchema>;
