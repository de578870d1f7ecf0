/**
 * User management by admins. Every permission is checked here, on the
 * server: only a superadmin edits (or makes) a superadmin, nobody deletes themself or a
 * superadmin, the built-in `admin` keeps its role, and disabling a user ends their sessions.
 *
 * A user's first password: the admin must give one (8 to 128 characters, the shared rule). It is
 * known to the admin, so the user is marked must_set_password and has to choose their own (setup
 * wizard, current password = the one the admin gave) before any other call is answered.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { users, type Role, type UserStatus } from "../../db/schema.ts";
import type { SessionUser } from "../../domain/session-user.ts";
import { hashPassword } from "../../services/passwords.ts";
import { endUserSessions, forgetCachedUser, toSessionUser, type SessionDeps } from "../../services/sessions.ts";
import { adminError } from "./admin-support.ts";
import { heldRequestCounts } from "../../lifecycle/request-lifecycle.ts";
import { adminPasswordProblem } from "../../domain/passwords.ts";
import { AppError } from "../../lib/errors.ts";

/** The built-in superadmin (seeded); its role is locked. */
export const BUILT_IN_ADMIN = "admin";

/** A user as admins see them: the session user without the booking defaults, plus account facts. */
export type AdminUserView = Omit<SessionUser, "defaultCartType" | "defaultFeeGuest" | "defaultFeeMember"> & {
  mustSetPassword: boolean;
  createdAt: number;
};

/** What the admin's user calls use of the app (ending a user's sessions among it). */
export type AdminUsersDeps = SessionDeps & Pick<AppDeps, "notifier" | "releaseEngine" | "passwordCost">;

export interface NewUserInput {
  username: string;
  password: string;
  role: Role;
  status: UserStatus;
  name?: string;
  memberId?: string;
  southwoods_email?: string;
}

export interface UserChanges {
  username?: string;
  /** Blank or absent keeps the password. */
  password?: string;
  role?: Role;
  status?: UserStatus;
  name?: string;
  memberId?: string;
  southwoods_email?: string;
}

type UserRow = typeof users.$inferSelect;

function toView(row: UserRow): AdminUserView {
  const { defaultCartType: _cart, defaultFeeGuest: _guest, defaultFeeMember: _member, ...user } = toSessionUser(row);
  return { ...user, mustSetPassword: row.mustSetPassword, createdAt: row.createdAt };
}

export const isBuiltInAdmin = (username: string) => username.toLowerCase() === BUILT_IN_ADMIN;

/** A row of the admin's user list: the user, and how many of their requests are held because they are disabled. */
export type AdminUserListItem = AdminUserView & { heldRequests: number };

export async function listUsers(deps: AdminUsersDeps): Promise<AdminUserListItem[]> {
  const rows = await deps.database.db
    .select()
    .from(users)
    .orderBy(asc(sql`lower(${users.username})`), asc(users.id));
  const held = await heldRequestCounts(deps.database.db);
  return rows.map((row) => ({ ...toView(row), heldRequests: held.get(row.id) ?? 0 }));
}

async function findUser(deps: AdminUsersDeps, id: number): Promise<UserRow> {
  const rows = await deps.database.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!rows[0]) throw adminError("admin.users.error_not_found", 404);
  return rows[0];
}

async function isUsernameTaken(deps: AdminUsersDeps, username: string): Promise<boolean> {
  const rows = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

/** The shared password rule, on the admin's form too: the member replaces it at first sign-in. */
function checkNewPassword(password: string, username: string): void {
  const problem = adminPasswordProblem(password, username);
  if (problem) throw new AppError(400, problem.message, problem.errorKey);
}

export async function createUser(deps: AdminUsersDeps, actor: SessionUser, input: NewUserInput): Promise<AdminUserView> {
  if (input.role === "superadmin" && actor.role !== "superadmin") throw adminError("admin.users.error_grant_superadmin", 403);
  if (await isUsernameTaken(deps, input.username)) throw adminError("admin.users.error_username_exists");
  checkNewPassword(input.password, input.username);
  const now = deps.clock.now();
  const [row] = await deps.database.db
    .insert(users)
    .values({
      username: input.username,
      passwordHash: await hashPassword(deps, input.password),
      role: input.role,
      status: input.status,
      name: input.name ?? "",
      memberId: input.memberId ?? "",
      clubEmail: input.southwoods_email ?? "",
      // A password an admin typed is known to someone else: the member chooses their own first.
      mustSetPassword: true,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toView(row);
}

function checkUpdateAllowed(actor: SessionUser, target: UserRow, changes: UserChanges): void {
  if (target.role === "superadmin" && actor.role !== "superadmin") throw adminError("admin.users.error_superadmin_only", 403);
  if (changes.role === "superadmin" && target.role !== "superadmin" && actor.role !== "superadmin") {
    throw adminError("admin.users.error_grant_superadmin", 403);
  }
  if (changes.username !== undefined && changes.username !== target.username) throw adminError("admin.users.error_username_locked");
  if (isBuiltInAdmin(target.username)) {
    if (changes.role !== undefined && changes.role !== target.role) throw adminError("admin.users.error_admin_role_locked");
    if (changes.status === "disabled") throw adminError("admin.users.error_admin_status_locked");
  }
  if (target.id === actor.id && changes.status === "disabled") throw adminError("admin.users.error_disable_self");
}

export async function updateUser(deps: AdminUsersDeps, actor: SessionUser, id: number, changes: UserChanges, actorSessionId: string | null = null): Promise<AdminUserView> {
  const target = await findUser(deps, id);
  checkUpdateAllowed(actor, target, changes);
  const hasNewPassword = Boolean(changes.password);
  const set: Partial<typeof users.$inferInsert> = { updatedAt: deps.clock.now() };
  if (changes.role !== undefined) set.role = changes.role;
  if (changes.status !== undefined) set.status = changes.status;
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.memberId !== undefined) set.memberId = changes.memberId;
  if (changes.southwoods_email !== undefined) set.clubEmail = changes.southwoods_email;
  if (hasNewPassword) {
    checkNewPassword(changes.password as string, target.username);
    set.passwordHash = await hashPassword(deps, changes.password as string);
    // An admin's own new password is theirs; one typed for somebody else must be replaced.
    set.mustSetPassword = id !== actor.id;
  }
  const [row] = await deps.database.db.update(users).set(set).where(eq(users.id, id)).returning();
  forgetCachedUser(deps, id);
  const isDisabled = target.status === "active" && row.status === "disabled";
  // A disabled user is out at once; a password set by an admin signs every other browser out
  // (except the admin's own session when they change their own password).
  if (isDisabled || hasNewPassword) await endUserSessions(deps, id, id === actor.id ? (actorSessionId ?? undefined) : undefined);
  if (!isDisabled) deps.notifier.publish({ type: "account_changed", userId: id });
  // Held requests go back to pending (or stay held) as the member's status now says.
  if (target.status !== row.status) deps.releaseEngine.wake();
  return toView(row);
}

export async function deleteUser(deps: AdminUsersDeps, actor: SessionUser, id: number): Promise<AdminUserView> {
  const target = await findUser(deps, id);
  if (target.id === actor.id) throw adminError("admin.users.error_delete_self", 403);
  if (target.role === "superadmin") throw adminError("admin.users.error_delete_superadmin", 403);
  await endUserSessions(deps, id);
  await deps.database.db.delete(users).where(eq(users.id, id));
  return toView(target);
}
