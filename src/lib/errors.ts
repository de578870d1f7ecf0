/**
 * The one error shape Teebox answers with: `{ message, errorKey? }` and a fitting status.
 * `errorKey` is a UI-text key the web app can show in the member's language; `message` is that
 * key's default text (src/domain/ui-text), so a caller that shows the message shows UI text too.
 */
import { fillPlaceholders, type ProblemContext } from "../domain/problem.ts";
import { DEFAULT_UI_TEXT, type UiTextKey } from "../domain/ui-text/index.ts";

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421 | 429 | 500 | 502 | 503 | 504;

export class AppError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly errorKey?: string,
    /** Extra response headers (Retry-After on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): { message: string; errorKey?: string } {
    return this.errorKey ? { message: this.message, errorKey: this.errorKey } : { message: this.message };
  }
}

/** The text of a UI-text key with its {placeholders} filled: what an error answer says. */
export function errorText(key: UiTextKey, context?: ProblemContext): string {
  return fillPlaceholders(DEFAULT_UI_TEXT[key], context);
}

/** An error told with a UI text: the key is the errorKey, its default text the message. */
export function textError(status: ErrorStatus, key: UiTextKey, context?: ProblemContext, headers?: Record<string, string>): AppError {
  return new AppError(status, errorText(key, context), key, headers);
}

export const badRequest = (message: string, errorKey?: string) => new AppError(400, message, errorKey);
export const unauthorized = () => textError(401, "auth.required");
export const forbidden = (key: UiTextKey = "auth.forbidden") => textError(403, key);
export const notFound = (key: UiTextKey = "common.not_found") => textError(404, key);
export const conflict = (message: string, errorKey?: string) => new AppError(409, message, errorKey);
