/**
 * Whether an error answer is one a member or an admin can act on: its errorKey is a UI-text key
 * and its message that key's default text with the placeholders filled, never a validator's words.
 */
import { DEFAULT_UI_TEXT, isUiTextKey } from "../../src/domain/ui-text/index.ts";

/** zod's own phrasing (v3 and v4), which must never reach a member. */
export const VALIDATOR_WORDS =
  /Invalid input|Invalid option|expected [a-z]+, received|received NaN|Too (small|big):|Unrecognized key|Invalid (string|email address|enum value)|must match pattern|Required$/;

/** Whether `message` is `template` with each {placeholder} filled by some text. */
export function isTextOf(template: string, message: string): boolean {
  const pattern = template
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${pattern}$`).test(message);
}

/** What is wrong with an error answer's wording, or null when it is UI text with its key. */
export function wordingProblem(body: { message?: unknown; errorKey?: unknown }): string | null {
  const { message, errorKey } = body;
  if (typeof message !== "string" || typeof errorKey !== "string") return `not { message, errorKey }: ${JSON.stringify(body).slice(0, 200)}`;
  if (VALIDATOR_WORDS.test(message)) return `validator wording: ${message.slice(0, 200)}`;
  if (!isUiTextKey(errorKey)) return `errorKey ${errorKey} is no UI-text key (${message.slice(0, 200)})`;
  if (!isTextOf(DEFAULT_UI_TEXT[errorKey], message)) return `message "${message.slice(0, 200)}" is not the text of ${errorKey}`;
  return null;
}
