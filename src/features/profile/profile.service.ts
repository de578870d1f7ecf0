/**
 * The member's own account: profile details with the club login (sealed, verified against the club
 * before it is stored) and the Teebox password.
 */
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { users } from "../../db/schema.ts";
import { optionValues, type FormOptionCategory } from "../../domain/form-options.ts";
import { normaliseMemberId } from "../../domain/players.ts";
import { checkProfileFields } from "../../domain/profile.ts";
import { newPasswordProblem } from "../../domain/passwords.ts";
import { ClubError } from "../../club/errors.ts";
import { type AppError, badRequest, notFound, textError } from "../../lib/errors.ts";
import type { UiTextKey } from "../../domain/ui-text/index.ts";
import { recordAudit } from "../../services/audit.service.ts";
import type { SessionUser } from "../../domain/session-user.ts";
import { hashPassword, verifyPassword } from "../../services/passwords.ts";
import { endUserSessions, forgetCachedUser, toSessionUser, type SessionDeps } from "../../services/sessions.ts";
import { listFormOptions } from "../../services/options-and-texts.service.ts";
import { openClubPassword } from "../../club/club-passwords.ts";
import type { UpdateProfileInput } from "./profile.schemas.ts";

type UserRow = typeof users.$inferSelect;

/** What the member's own account calls use of the app. */
export type ProfileDeps = SessionDeps & Pick<AppDeps, "club" | "secretBox" | "notifier" | "passwordCost">;

async function findUser(deps: ProfileDeps, userId: number): Promise<UserRow> {
  const rows = await deps.database.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!rows[0]) throw notFound("profile.not_found");
  return rows[0];
}

const DEFAULT_FIELDS: readonly { field: "defaultCartType" | "defaultFeeGuest" | "defaultFeeMember"; category: FormOptionCategory; errorKey: UiTextKey }[] = [
  { field: "defaultCartType", category: "cartPreference", errorKey: "profile.invalid_cart" },
  { field: "defaultFeeGuest", category: "feePreferenceGuest", errorKey: "profile.invalid_fee_guest" },
  { field: "defaultFeeMember", category: "feePreferenceMember", errorKey: "profile.invalid_fee_member" },
];

/** The default cart and fees are selects over the admin's form options. */
async function checkDefaults(deps: ProfileDeps, input: UpdateProfileInput): Promise<void> {
  const options = await listFormOptions(deps.database.db);
  for (const { field, category, errorKey } of DEFAULT_FIELDS) {
    const value = input[field];
    if (!optionValues(options, category).includes(value)) {
      throw textError(400, errorKey);
    }
  }
}

/** A club failure as the member should read it on the profile form (never the password). */
function clubLoginError(error: unknown): AppError {
  if (!(error instanceof ClubError)) throw error;
  switch (error.kind) {
    case "bad_credentials":
      return textError(400, "profile.club_login_invalid");
    case "unavailable":
      return error.status === undefined ? textError(504, "profile.club_timeout") : textError(502, "profile.club_unavailable");
    default:
      return textError(502, "profile.club_unavailable");
  }
}

async function verifyClubLogin(deps: ProfileDeps, email: string, password: string): Promise<void> {
  try {
    await deps.club.verifyCredentials(email, password);
  } catch (error) {
    throw clubLoginError(error);
  }
}

/**
 * Saves the profile. A changed club login (email, or a new password) is signed in to the club
 * first; the password is stored sealed and a blank one keeps the stored password.
 */
export async function updateProfile(deps: ProfileDeps, userId: number, input: UpdateProfileInput): Promise<SessionUser> {
  const problem = checkProfileFields(input);
  if (problem) throw badRequest(problem.message, problem.errorKey);
  await checkDefaults(deps, input);
  const row = await findUser(deps, userId);
  const email = input.southwoods_email.trim();
  const newPassword = input.golf_password && input.golf_password.trim() !== "" ? input.golf_password : null;
  const isEmailChanged = email.toLowerCase() !== row.clubEmail.trim().toLowerCase();
  // Opened only when it is needed (a changed email); one this key cannot open is asked for again.
  const passwordToCheck = newPassword ?? (isEmailChanged && row.clubPasswordSealed ? openClubPassword(deps, row.clubPasswordSealed) : null);
  // Without any club password there is no login to check yet; the email alone is kept.
  if ((isEmailChanged || newPassword) && passwordToCheck) await verifyClubLogin(deps, email, passwordToCheck);

  const now = deps.clock.now();
  const [updated] = await deps.database.db
    .update(users)
    .set({
      name: input.name.trim(),
      memberId: normaliseMemberId(input.memberId),
      clubEmail: email,
      ...(newPassword ? { clubPasswordSealed: deps.secretBox.seal(newPassword) } : {}),
      defaultCartType: input.defaultCartType,
      defaultFeeGuest: input.defaultFeeGuest,
      defaultFeeMember: input.defaultFeeMember,
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning();
  forgetCachedUser(deps, userId);
  if (isEmailChanged || newPassword) {
    await recordAudit(deps.database.db, { at: now, actorUserId: userId, action: "profile.club_login", target: email, outcome: "saved" });
  }
  deps.notifier.publish({ type: "profile_saved", userId });
  return toSessionUser(updated);
}

const incorrectPassword = () => textError(400, "password.error_incorrect");

/**
 * Replaces the Teebox password after checking the current one. Every other session of the member
 * ends, so a password someone else knew stops working at once.
 */
async function replacePassword(deps: ProfileDeps, userId: number, sessionId: string | null, current: string, next: string): Promise<void> {
  const row = await findUser(deps, userId);
  if (!(await verifyPassword(current, row.passwordHash))) throw incorrectPassword();
  const problem = newPasswordProblem(next, row.username);
  if (problem) throw badRequest(problem.message, problem.errorKey);
  const now = deps.clock.now();
  await deps.database.db
    .update(users)
    .set({ passwordHash: await hashPassword(deps, next), mustSetPassword: false, updatedAt: now })
    .where(eq(users.id, userId));
  forgetCachedUser(deps, userId);
  await endUserSessions(deps, userId, sessionId ?? undefined);
  await recordAudit(deps.database.db, { at: now, actorUserId: userId, action: "password.change", target: row.username, outcome: "changed" });
}

export async function changePassword(
  deps: ProfileDeps,
  userId: number,
  sessionId: string | null,
  input: { currentPassword: string; newPassword: string; confirmPassword: string },
): Promise<void> {
  if (!input.currentPassword || !input.newPassword || !input.confirmPassword) {
    throw textError(400, "password.fields_required");
  }
  if (input.newPassword !== input.confirmPassword) throw textError(400, "password.mismatch");
  await replacePassword(deps, userId, sessionId, input.currentPassword, input.newPassword);
}

export async function setFirstPassword(deps: ProfileDeps, userId: number, sessionId: string | null, input: { currentPassword: string; newPassword: string }): Promise<void> {
  if (!input.newPassword) throw textError(400, "password.new_required");
  await replacePassword(deps, userId, sessionId, input.currentPassword, input.newPassword);
}
