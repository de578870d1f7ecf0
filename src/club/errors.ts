/**
 * Typed failures of the club adapter. Callers switch on `kind`; nothing else about the
 * club's pages leaks out. Messages are for people and never carry a password.
 */
export const CLUB_ERROR_KINDS = [
  "bad_credentials",
  "not_yet_open",
  "slot_taken",
  "rule_refused",
  "player_not_found",
  "session_expired",
  "page_not_understood",
  "unavailable",
  "not_found",
  /** The club refused in words no family of phrasing knows; the message is its exact words. */
  "refused_unknown",
  /** The club has no such tee time on that date (or not under that slot id). */
  "no_such_time",
  /**
   * The club asked Teebox to slow down: a 429, a 503 with Retry-After, or a bot wall's challenge
   * page instead of the club's. Every request to the club waits out the pause (budget.ts).
   */
  "slow_down",
  /** Not sent at all: the politeness budget was spent for a request that skips to its next turn, or Teebox is stopping. */
  "busy",
] as const;

export type ClubErrorKind = (typeof CLUB_ERROR_KINDS)[number];

export interface ClubErrorDetails {
  /** Which page could not be read (page_not_understood). */
  page?: string;
  /** What was missing from it (page_not_understood). */
  missing?: string;
  /** The HTTP status, when the club answered with one. */
  status?: number;
  /** True when the club may have acted although we got no answer (a booking post that timed out). */
  isAmbiguous?: boolean;
  /** slow_down: how long every request to the club now waits (the club's Retry-After, or the default). */
  retryAfterMs?: number;
  cause?: unknown;
}

export class ClubError extends Error {
  readonly kind: ClubErrorKind;
  readonly page?: string;
  readonly missing?: string;
  readonly status?: number;
  readonly isAmbiguous: boolean;
  readonly retryAfterMs?: number;

  constructor(kind: ClubErrorKind, message: string, details: ClubErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "ClubError";
    this.kind = kind;
    this.page = details.page;
    this.missing = details.missing;
    this.status = details.status;
    this.isAmbiguous = details.isAmbiguous ?? false;
    this.retryAfterMs = details.retryAfterMs;
  }
}

export function isClubError(error: unknown, kind?: ClubErrorKind): error is ClubError {
  return error instanceof ClubError && (kind === undefined || error.kind === kind);
}

/** The parsers' one way to say "this is not the page we know". */
export function pageNotUnderstood(page: string, missing: string): ClubError {
  return new ClubError("page_not_understood", `The club's ${page} page could not be read: ${missing} not found.`, { page, missing });
}
