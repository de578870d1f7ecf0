/**
 * The one rule for Teebox passwords (ASVS 5.0 V6.2): 8 to 128 characters, any characters,
 * no composition rules; a member's own new password may not be their username. The setup wizard,
 * the change-password form and the admin's user form show it before submitting, and the server
 * enforces it with the same keys.
 */
import type { DomainProblem } from "./problem.ts";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

export const PASSWORD_TEXTS = {
  "password.rule": "Use {min} to {max} characters.",
  "password.too_short": "Use at least {min} characters.",
  "password.too_long": "Use at most {max} characters.",
  "password.same_as_username": "Choose a password that is not your username.",
  "password.must_change": "Please choose your own password before you continue.",
} as const;

const fill = (text: string) => text.replace("{min}", String(MIN_PASSWORD_LENGTH)).replace("{max}", String(MAX_PASSWORD_LENGTH));
const problem = (errorKey: keyof typeof PASSWORD_TEXTS): DomainProblem => ({
  message: fill(PASSWORD_TEXTS[errorKey]),
  errorKey,
  context: { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH },
});

/** Length in characters as a person counts them (an emoji is one), not UTF-16 units. */
export function passwordLength(password: string): number {
  return [...password].length;
}

/**
 * The problem with a new password, or null. `username` is given when a member chooses their own
 * password: it may not be the username. An admin's first password for a member may be anything
 * the length allows (the member replaces it at first sign-in).
 */
export function newPasswordProblem(password: string, username?: string): DomainProblem | null {
  const length = passwordLength(password);
  if (length < MIN_PASSWORD_LENGTH) return problem("password.too_short");
  if (length > MAX_PASSWORD_LENGTH) return problem("password.too_long");
  if (username !== undefined && password.trim().toLowerCase() === username.trim().toLowerCase()) return problem("password.same_as_username");
  return null;
}

/**
 * The admin's user form: the username itself (the product's first password, replaced in the setup
 * wizard) or any password the length rule allows. Either way the member must replace it.
 */
export function adminPasswordProblem(password: string, username: string): DomainProblem | null {
  return password === username ? null : newPasswordProblem(password);
}

/** The rule as one line for the forms ("Use 8 to 128 characters."). */
export const PASSWORD_RULE_TEXT = fill(PASSWORD_TEXTS["password.rule"]);

/** A password someone else typed, or the username, must be replaced before anything else. */
export function isPasswordToReplace(password: string, username: string): boolean {
  return password.trim().toLowerCase() === username.trim().toLowerCase();
}
