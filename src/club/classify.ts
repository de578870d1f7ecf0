/**
 * The one classifier of the club's answers to a booking, edit or cancel post. Clubs write
 * refusals for people, each in its own words; these families of phrasing turn them into what
 * the engine does next. The first family that matches wins, so the narrow ones come first
 * ('not available yet: booking opens on …' is not yet open, not taken).
 */
import type { ClubErrorKind } from "./errors.ts";

export type RefusalKind = Extract<ClubErrorKind, "session_expired" | "not_yet_open" | "player_not_found" | "rule_refused" | "slot_taken" | "no_such_time" | "refused_unknown">;

export interface RefusalFamily {
  kind: Exclude<RefusalKind, "refused_unknown">;
  /** What the engine does with it, for the people reading this table. */
  meaning: string;
  phrasings: RegExp[];
}

export const REFUSAL_FAMILIES: readonly RefusalFamily[] = [
  {
    kind: "session_expired",
    meaning: "the club ended the session: sign in again",
    phrasings: [/\bsession\b.*\b(expired|ended|timed?\s*out|invalid)\b/i, /\b(sign|log)\s*(in|on)\s+again\b/i, /\bplease\s+(sign|log)\s*in\b/i],
  },
  {
    kind: "not_yet_open",
    meaning: "the date is not open yet: the same time again",
    phrasings: [/\bnot\s+(yet\s+)?open\b/i, /\bopens?\s+(on|at)\b/i, /\bwill\s+open\b/i, /\btoo\s+early\b/i, /\bbooking\s+window\b/i, /\bnot\s+yet\s+(released|available)\b/i],
  },
  {
    kind: "player_not_found",
    meaning: "a player the club does not know: failed with the club's words",
    phrasings: [/\b(player|member)\s+not\s+found\b/i, /\bno\s+member\s+found\b/i, /\bunknown\s+member\b/i],
  },
  {
    kind: "no_such_time",
    meaning: "the club has no such tee time (or not under that id): the next time, never a failure",
    phrasings: [
      /\b(tee\s*)?time\b.*\b(does\s+not|doesn't)\s+exist\b/i,
      /\bno\s+such\s+(tee\s*)?(time|slot)\b/i,
      /\b(tee\s*time|slot)\b.*\b(not\s+found|unknown|invalid|not\s+offered)\b/i,
      /\b(invalid|unknown)\s+(tee\s*)?(time|slot)\b/i,
    ],
  },
  {
    kind: "rule_refused",
    meaning: "a rule or a limit of the club: failed with the club's words",
    phrasings: [
      /\bper\s+(day|member|week|month|booking|flight|household)\b/i,
      /\bguests?\b/i,
      /\blimit\b/i,
      /\b(maximum|minimum|at\s+(least|most)|exceed)/i,
      /\b(does\s+not\s+exist|invalid|unknown|already\s+passed|has\s+passed|required|not\s+allowed|not\s+permitted|only\s+members)\b/i,
      /\bneeds?\s+a\b/i,
    ],
  },
  {
    kind: "slot_taken",
    meaning: "someone else has the time: the next time at once",
    phrasings: [
      /\btaken\b/i,
      /\b(just\s+)?(been\s+)?(reserved|booked)\s+by\s+(another|someone)/i,
      /\balready\s+(been\s+)?(booked|reserved)\b/i,
      /\bno\s+longer\s+available\b/i,
      /\b(unavailable|not\s+available)\b/i,
      /\b(full|fully\s+booked)\b/i,
    ],
  },
];

/**
 * The kind of a refusal. One in no family is 'refused_unknown', kept with the club's exact
 * words: the engine goes on to the next time rather than giving up on the member.
 */
export function classifyRefusal(message: string): RefusalKind {
  const text = message.replace(/\s+/g, " ");
  return REFUSAL_FAMILIES.find((family) => family.phrasings.some((p) => p.test(text)))?.kind ?? "refused_unknown";
}

/**
 * A bot wall's page in place of the club's ("Just a moment...", "Checking your browser", a
 * captcha): a CDN or firewall in front of the club decided Teebox looks like a bot. The first
 * phrasings are strong enough to trust on any status; the rest only on a refusal status, since a
 * club's own login page may carry a captcha widget.
 */
const CHALLENGE_ALWAYS: readonly RegExp[] = [
  /<title>\s*(just a moment|attention required)\b/i,
  /\bchecking (if the site connection is secure|your browser)\b/i,
  /\b(cf-browser-verification|cf_chl_|challenge-platform|cf-challenge)/i,
  /\bddos protection by\b/i,
];
const CHALLENGE_ON_REFUSAL: readonly RegExp[] = [
  /<title>\s*access denied\b/i,
  /\bcaptcha\b/i,
  /\bverify (that )?you are (a )?human\b/i,
  /\bbot (protection|detection)\b/i,
  /\brequest (was )?blocked\b/i,
  /\benable javascript and cookies to continue\b/i,
];

export function isChallengePage(status: number, html: string): boolean {
  if (CHALLENGE_ALWAYS.some((p) => p.test(html))) return true;
  return (status === 403 || status === 429 || status === 503) && CHALLENGE_ON_REFUSAL.some((p) => p.test(html));
}

/** Retry-After as a pause: delay-seconds, or an HTTP date read against the club's own Date header when it sent one. */
export function parseRetryAfter(value: string | null, clubNowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - clubNowMs);
}

export interface SlowDownAnswer {
  reason: "429" | "503" | "challenge";
  status: number;
  retryAfterMs: number | null;
}

/**
 * Whether an answer is the club asking Teebox to slow down: a 429, a 503 that says when to come
 * back (Retry-After; a bare 503 is the club in trouble, decision 115), or a bot wall's challenge.
 */
export function readSlowDown(answer: { status: number; retryAfter: string | null; html: string; clubNowMs: number }): SlowDownAnswer | null {
  const retryAfterMs = parseRetryAfter(answer.retryAfter, answer.clubNowMs);
  if (isChallengePage(answer.status, answer.html)) return { reason: "challenge", status: answer.status, retryAfterMs };
  if (answer.status === 429) return { reason: "429", status: 429, retryAfterMs };
  if (answer.status === 503 && retryAfterMs !== null) return { reason: "503", status: 503, retryAfterMs };
  return null;
}
