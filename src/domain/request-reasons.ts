/**
 * Why a booking request failed or was held, and what an attempt's answer was, as a UI-text key
 * with its context. The text is rendered from the editable UI text when the API answers, so an
 * admin can reword it (every visible string is editable, decision 009). Pure: the web imports it.
 */
export const REQUEST_REASON_KEYS = [
  "bookings.reason.no_time_available",
  "bookings.reason.not_opened_in_time",
  "bookings.reason.bad_credentials",
  "bookings.reason.unsettled",
  "bookings.reason.could_not_tell",
  "bookings.reason.club_timeout",
  "bookings.reason.club_slowed_down",
  "bookings.reason.page_not_understood",
  "bookings.reason.club_refused",
  "bookings.reason.no_club_login",
  "bookings.reason.member_disabled",
  "bookings.reason.member_held",
  "bookings.reason.restart_no_answer",
  "bookings.reason.booked",
  "bookings.reason.other",
  "readiness.reason.bad_login",
  "readiness.reason.no_login",
  "readiness.reason.club_unreachable",
  "readiness.reason.players",
  "readiness.reason.rule",
  "readiness.reason.not_offered",
  "readiness.reason.not_fixed",
  "partners.reason.declined_below_minimum",
  "partners.reason.not_accepted",
  "partners.reason.overlap",
] as const;

export type RequestReasonKey = (typeof REQUEST_REASON_KEYS)[number];

export interface RequestReason {
  key: RequestReasonKey;
  /**
   * Values for the text's {placeholders}; the club's own words go in `message`. Never `reason` or
   * `reasonKey`: a line that names a reason (a notification, a toast) puts the whole rendered
   * reason there beside these placeholders, and a reason holding one of them would be rendered
   * inside itself (RESERVED_REASON_PLACEHOLDERS).
   */
  context: Record<string, string>;
}

/** Placeholder names a reason's text must not use: the lines that name a reason use them for it. */
export const RESERVED_REASON_PLACEHOLDERS = ["reason", "reasonKey"] as const;

export const reason = (key: RequestReasonKey, context: Record<string, string> = {}): RequestReason => ({ key, context });

export function isRequestReasonKey(key: string): key is RequestReasonKey {
  return (REQUEST_REASON_KEYS as readonly string[]).includes(key);
}

/** Fills a text's {placeholders}; an unknown placeholder stays as written. */
export function renderReason(template: string, context: Record<string, string> | null | undefined): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => context?.[name] ?? whole);
}
