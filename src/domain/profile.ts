/**
 * The member's own account rules, shared by
 * the profile route and the web forms so both give the same messages.
 */
import type { DomainProblem } from "./problem.ts";
import { isTooLong, TEXT_LIMITS, type TextLimitKey } from "./text-limits.ts";
import { newPasswordProblem } from "./passwords.ts";

export const PROFILE_TEXTS = {
  "profile.name_required": "Full name is required.",
  "profile.member_id_required": "Membership number is required.",
  // The product's text names the club.
  "profile.email_required": "Southwoods email is required.",
  "profile.email_invalid": "Please enter a valid email address.",
  "password.mismatch": "New passwords do not match.",
  "profile.name_too_long": "Full name must be at most {max} characters.",
  "profile.member_id_too_long": "Membership number must be at most {max} characters.",
  "profile.email_too_long": "Southwoods email must be at most {max} characters.",
} as const;

export type ProfileProblemKey = keyof typeof PROFILE_TEXTS;

export type ProfileFields = { name: string; memberId: string; southwoods_email: string };
export type ProfileField = keyof ProfileFields;

const problem = (errorKey: ProfileProblemKey): DomainProblem => ({ message: PROFILE_TEXTS[errorKey], errorKey });
const tooLong = (errorKey: ProfileProblemKey, limit: TextLimitKey): DomainProblem => ({
  message: PROFILE_TEXTS[errorKey].replace("{max}", String(TEXT_LIMITS[limit])),
  errorKey,
  context: { max: TEXT_LIMITS[limit] },
});

/** Something@something.tld, no spaces: the shape check forms can make (the club decides the rest). */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

const isBlank = (value: string | null | undefined) => (value ?? "").trim() === "";

/** One problem per field that breaks a rule, for showing beside each field. */
export function profileFieldProblems(fields: ProfileFields): Partial<Record<ProfileField, DomainProblem>> {
  const problems: Partial<Record<ProfileField, DomainProblem>> = {};
  if (isBlank(fields.name)) problems.name = problem("profile.name_required");
  else if (isTooLong(fields.name, "userName")) problems.name = tooLong("profile.name_too_long", "userName");
  if (isBlank(fields.memberId)) problems.memberId = problem("profile.member_id_required");
  else if (isTooLong(fields.memberId, "memberId")) problems.memberId = tooLong("profile.member_id_too_long", "memberId");
  if (isBlank(fields.southwoods_email)) problems.southwoods_email = problem("profile.email_required");
  else if (isTooLong(fields.southwoods_email, "clubEmail")) problems.southwoods_email = tooLong("profile.email_too_long", "clubEmail");
  else if (!looksLikeEmail(fields.southwoods_email)) problems.southwoods_email = problem("profile.email_invalid");
  return problems;
}

/** The first problem, in the order the form shows the fields. */
export function checkProfileFields(fields: ProfileFields): DomainProblem | null {
  const problems = profileFieldProblems(fields);
  return problems.name ?? problems.memberId ?? problems.southwoods_email ?? null;
}

export type PasswordChange = { currentPassword: string; newPassword: string; confirmPassword: string };

/** The change-password button is enabled only when all three are filled, new equals confirm and the password rule holds. */
export function canChangePassword(change: PasswordChange): boolean {
  return (
    change.currentPassword !== "" &&
    change.newPassword !== "" &&
    change.confirmPassword !== "" &&
    change.newPassword === change.confirmPassword &&
    newPasswordProblem(change.newPassword) === null
  );
}

/** The password rule's problem to show under a new-password field once something is typed. */
export function typedPasswordProblem(password: string): DomainProblem | null {
  return password === "" ? null : newPasswordProblem(password);
}

/** The mismatch message shows once both new fields have something in them. */
export function isNewPasswordMismatch(newPassword: string, confirmPassword: string): boolean {
  return newPassword !== "" && confirmPassword !== "" && newPassword !== confirmPassword;
}

/** Setup step 1: Next only when the password is non-empty and equals the confirmation. */
export function isNewPasswordReady(password: string, confirmation: string): boolean {
  return password !== "" && password === confirmation && newPasswordProblem(password) === null;
}

/** Setup step 2: full name and membership number non-blank after trimming. */
export function isProfileStepReady(name: string, memberId: string): boolean {
  return !isBlank(name) && !isBlank(memberId);
}

/** Setup step 3: club email and password non-blank, and the email looks like one. */
export function isClubLoginReady(email: string, password: string): boolean {
  return !isBlank(email) && !isBlank(password) && looksLikeEmail(email);
}
