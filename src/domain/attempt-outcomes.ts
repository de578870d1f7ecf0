/**
 * What a member reads for the outcome of one booking post (a request's "What was tried", a watch's
 * "Tried" line): the stored outcome codes (the club answer's kind, `confirmed`, `unknown`) each
 * told by a UI text with its default here, never the code itself. Pure: the web imports it.
 */
export const ATTEMPT_OUTCOME_TEXTS = {
  "attempts.outcome.confirmed": "booked",
  "attempts.outcome.slot_taken": "taken by someone else",
  "attempts.outcome.not_yet_open": "not open for booking yet",
  "attempts.outcome.no_such_time": "no such tee time at the club",
  "attempts.outcome.rule_refused": "refused for a club rule",
  "attempts.outcome.player_not_found": "a player was not found at the club",
  "attempts.outcome.bad_credentials": "the club did not accept your club login",
  "attempts.outcome.session_expired": "the club ended the session",
  "attempts.outcome.page_not_understood": "the club's answer could not be read",
  "attempts.outcome.unavailable": "the club did not answer",
  "attempts.outcome.slow_down": "the club asked Teebox to slow down",
  "attempts.outcome.busy": "not sent: Teebox was holding back its requests to the club",
  "attempts.outcome.not_found": "not found at the club",
  "attempts.outcome.refused": "refused by the club",
  "attempts.outcome.refused_unknown": "refused by the club",
  "attempts.outcome.unknown": "no answer before Teebox stopped",
  "attempts.outcome.not_booked": "no answer; the club's list showed it did not book",
  "attempts.outcome.waiting": "waiting for the club's answer",
  "attempts.outcome.other": "another answer from the club",
} as const satisfies Record<string, string>;

export type AttemptOutcomeKey = keyof typeof ATTEMPT_OUTCOME_TEXTS;

/** The UI-text key of a stored outcome: null is a post still waiting for its answer; a code no text knows reads as "another answer". */
export function attemptOutcomeKey(outcome: string | null | undefined): AttemptOutcomeKey {
  if (outcome === null || outcome === undefined) return "attempts.outcome.waiting";
  const key = `attempts.outcome.${outcome}`;
  return Object.hasOwn(ATTEMPT_OUTCOME_TEXTS, key) ? (key as AttemptOutcomeKey) : "attempts.outcome.other";
}
