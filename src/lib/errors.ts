/**
 * The one error shape Teebox answers with: `{ message, errorKey? }` and a fitting status.
 * `errorKey` is a UI-text key the web app can show in the member's language.
 */
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

export const badRequest = (message: string, errorKey?: string) => new AppError(400, message, errorKey);
export const unauthorized = (message = "Please sign in.", errorKey = "auth.required") => new AppError(401, message, errorKey);
export const forbidden = (message = "You do not have access to this.", errorKey = "auth.forbidden") => new AppError(403, message, errorKey);
export const notFound = (message = "Not found.", errorKey = "common.not_found") => new AppError(404, message, errorKey);
export const conflict = (message: string, errorKey?: string) => new AppError(409, message, errorKey);
