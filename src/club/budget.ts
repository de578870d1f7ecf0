/**
 * The politeness budget: how many requests Teebox may send to the club, per member's club login and
 * for the whole club (one address), as two token buckets; and the pause every request waits out
 * when the club asks Teebox to slow down (a 429, a 503 with Retry-After, a bot wall's challenge).
 * The adapter's door (http.ts) takes a token before every request except the release's first wave
 * at the instant, which keeps its timing (decision 145).
 *
 * When no token is left, what happens depends on the request's pace:
 * - `urgent` (the default: release retries, member actions, sign-ins, reconcile reads): waits for a
 *   token, served before the others; never dropped.
 * - `background` (bookings sync, readiness sign-ins): waits too, after every urgent request.
 * - `skip` (scraper pages, watch polls, the monitor's club probe): not sent, a ClubError('busy');
 *   the caller's next turn asks again.
 * - `release` (a release's own sign-ins, clock probes, sheet reads and posts): drawn first from the
 *   allowance the release opened for itself, sized by the requests due (decision 196), then as
 *   `urgent`. The member's bucket and a pause the club asked for still hold.
 */
import type { StoredSettings } from "../domain/settings.ts";
import type { Clock } from "../lib/clock.ts";
import { ClubError } from "./errors.ts";

export type ClubPace = "urgent" | "background" | "skip" | "release";

export interface BudgetLimits {
  /** Whole club: tokens added per minute, and the most that can be saved up. */
  clubPerMinute: number;
  clubBurst: number;
  /** Each member's club login: the same. */
  memberPerMinute: number;
  memberBurst: number;
}

/** The budget's sizes from the app settings (their defaults and bounds: src/domain/settings.ts). */
export function budgetLimitsOf(
  settings: Pick<StoredSettings, "club_requests_per_minute" | "club_request_burst" | "member_requests_per_minute" | "member_request_burst">,
): BudgetLimits {
  return {
    clubPerMinute: settings.club_requests_per_minute,
    clubBurst: settings.club_request_burst,
    memberPerMinute: settings.member_requests_per_minute,
    memberBurst: settings.member_request_burst,
  };
}

/** Why the club asked Teebox to slow down. */
export type SlowDownReason = "429" | "503" | "challenge";

export interface SlowDownSignal {
  reason: SlowDownReason;
  status: number;
  /** The club's Retry-After, when it gave one. */
  retryAfterMs: number | null;
}

/** From the club's first "slow down" until a request after the pause gets an ordinary answer. */
export interface SlowDownEpisode {
  startedAt: number;
  /** No request (but a first wave's) leaves before this. */
  pausedUntil: number;
  /** Slow-down answers in this episode. */
  signals: number;
  reason: SlowDownReason;
  status: number;
  retryAfterMs: number | null;
  endedAt: number | null;
}

export type EpisodeEvent = { type: "started" | "ended"; episode: SlowDownEpisode };

/** Without a Retry-After, the first pause of an episode; each further signal doubles it, up to the cap. */
export const DEFAULT_SLOW_DOWN_MS = 60_000;
export const MAX_DEFAULT_SLOW_DOWN_MS = 15 * 60_000;
/** A Retry-After is honoured within these bounds (a club's typo must not silence Teebox for a day). */
export const MIN_RETRY_AFTER_MS = 1000;
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** Member buckets are dropped once full (they say nothing then); swept every this many takes. */
const SWEEP_EVERY = 500;

interface Bucket {
  tokens: number;
  /** Tokens have been added up to this moment. */
  at: number;
}

/** Tokens a release opened for its own requests, over and above the club's bucket, until it lapses. */
interface Allowance {
  tokens: number;
  until: number;
}

interface Waiter {
  memberId: number | null;
  pace: Exclude<ClubPace, "skip">;
  resolve(): void;
  reject(error: ClubError): void;
}

export interface ClubBudget {
  /** Takes a token for one request: at once, after a wait, or (pace `skip`) a ClubError('busy'). */
  take(request: { memberId: number | null; pace: ClubPace }): Promise<void>;
  /** The club asked Teebox to slow down: every request waits the pause out. Returns the pause in ms. */
  slowDown(signal: SlowDownSignal): number;
  /** A request got an ordinary answer: an episode whose pause is over ends here. */
  noteAnswered(): void;
  /**
   * Opens an allowance of `tokens` for requests of pace `release` until `until` (a release sized by
   * the requests it has due, decision 196). Returns the call that closes it early (the release is over).
   */
  allow(tokens: number, until: number): () => void;
  /** Tokens left in the allowances open now. */
  allowed(): number;
  configure(limits: BudgetLimits): void;
  limits(): BudgetLimits;
  /** Requests waiting for a token now. */
  waiting(): number;
  /** Refuses every waiting request with ClubError('busy'): Teebox is stopping. */
  cancelWaiting(): void;
  /** The episode under way, and the last one that ended. */
  episodes(): { current: SlowDownEpisode | null; last: SlowDownEpisode | null };
}

export interface ClubBudgetOptions {
  clock: Clock;
  limits: BudgetLimits;
  /** Told once when an episode starts and once when it ends (the audit log and the server log). */
  onEpisode?: (event: EpisodeEvent) => void;
}

export function createClubBudget(options: ClubBudgetOptions): ClubBudget {
  const { clock } = options;
  let limits = options.limits;
  const club: Bucket = { tokens: limits.clubBurst, at: clock.now() };
  const members = new Map<number, Bucket>();
  const waiters: Waiter[] = [];
  const allowances = new Set<Allowance>();
  let pausedUntil = 0;
  let current: SlowDownEpisode | null = null;
  let last: SlowDownEpisode | null = null;
  let takes = 0;
  let timer: { at: number; abort: AbortController } | null = null;

  const perMs = (perMinute: number) => perMinute / 60_000;

  function refill(bucket: Bucket, perMinute: number, burst: number, now: number): void {
    if (now <= bucket.at) return;
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perMs(perMinute));
    bucket.at = now;
  }

  function memberBucket(memberId: number, now: number): Bucket {
    let bucket = members.get(memberId);
    if (!bucket) {
      bucket = { tokens: limits.memberBurst, at: now };
      members.set(memberId, bucket);
    }
    refill(bucket, limits.memberPerMinute, limits.memberBurst, now);
    return bucket;
  }

  /** When a bucket will hold a whole token again. */
  const readyAt = (bucket: Bucket, perMinute: number, now: number) =>
    bucket.tokens >= 1 ? Math.max(now, bucket.at) : Math.max(now, bucket.at) + Math.ceil((1 - bucket.tokens) / perMs(perMinute));

  function sweep(now: number): void {
    const waitingFor = new Set(waiters.map((w) => w.memberId));
    for (const [id, bucket] of members) {
      refill(bucket, limits.memberPerMinute, limits.memberBurst, now);
      if (bucket.tokens >= limits.memberBurst && !waitingFor.has(id)) members.delete(id);
    }
  }

  /** Takes one token from the club and the member, if both have one now. */
  function tryTake(memberId: number | null, now: number): boolean {
    if (now < pausedUntil) return false;
    refill(club, limits.clubPerMinute, limits.clubBurst, now);
    if (club.tokens < 1) return false;
    const own = memberId === null ? null : memberBucket(memberId, now);
    if (own && own.tokens < 1) return false;
    club.tokens -= 1;
    if (own) own.tokens -= 1;
    if (++takes % SWEEP_EVERY === 0) sweep(now);
    return true;
  }

  /** Takes one token from an open allowance and the member, if both have one now. */
  function tryTakeAllowed(memberId: number | null, now: number): boolean {
    if (now < pausedUntil) return false;
    let open: Allowance | null = null;
    for (const allowance of allowances) {
      if (allowance.until <= now || allowance.tokens < 1) allowances.delete(allowance);
      else open ??= allowance;
    }
    if (!open) return false;
    const own = memberId === null ? null : memberBucket(memberId, now);
    if (own && own.tokens < 1) return false;
    open.tokens -= 1;
    if (own) own.tokens -= 1;
    return true;
  }

  /** Grants tokens to the waiters in order (urgent first), then sleeps until the next could go. */
  function pump(): void {
    const now = clock.now();
    let next = Number.POSITIVE_INFINITY;
    let isClubSpent = false;
    for (let i = 0; i < waiters.length; ) {
      const waiter = waiters[i];
      if (now < pausedUntil) {
        next = pausedUntil;
        break;
      }
      if (waiter.pace === "release" && tryTakeAllowed(waiter.memberId, now)) {
        waiters.splice(i, 1);
        waiter.resolve();
        continue;
      }
      // The club's tokens go in order: nobody behind the first waiter may take one first (a
      // release's requests behind it still draw on their allowance).
      if (isClubSpent) {
        i++;
        continue;
      }
      refill(club, limits.clubPerMinute, limits.clubBurst, now);
      if (club.tokens < 1) {
        next = Math.min(next, readyAt(club, limits.clubPerMinute, now));
        isClubSpent = true;
        i++;
        continue;
      }
      if (tryTake(waiter.memberId, now)) {
        waiters.splice(i, 1);
        waiter.resolve();
        continue;
      }
      // Only this member's login is spent: the waiters behind it may go.
      next = Math.min(next, readyAt(memberBucket(waiter.memberId!, now), limits.memberPerMinute, now));
      i++;
    }
    if (waiters.length === 0 || !Number.isFinite(next)) return;
    arm(Math.max(next, now + 1));
  }

  function arm(at: number): void {
    if (timer && timer.at <= at) return;
    timer?.abort.abort();
    const abort = new AbortController();
    timer = { at, abort };
    void clock.sleepUntil(at, abort.signal).then(() => {
      if (abort.signal.aborted) return;
      timer = null;
      pump();
    });
  }

  function busy(memberId: number | null): ClubError {
    const now = clock.now();
    if (now < pausedUntil) return new ClubError("busy", `Not sent: the club asked Teebox to slow down; requests wait until ${new Date(pausedUntil).toISOString()}.`);
    const isMemberSpent = memberId !== null && club.tokens >= 1 && memberBucket(memberId, now).tokens < 1;
    return new ClubError(
      "busy",
      isMemberSpent ? "Not sent: this member's request budget at the club is spent for now." : "Not sent: Teebox's request budget for the club is spent for now.",
    );
  }

  return {
    take({ memberId, pace }) {
      const now = clock.now();
      if (pace === "release" && tryTakeAllowed(memberId, now)) return Promise.resolve();
      if (waiters.length === 0 && tryTake(memberId, now)) return Promise.resolve();
      if (pace === "skip") return Promise.reject(busy(memberId));
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { memberId, pace, resolve, reject };
        // Urgent (and release) requests go before every background one, in arrival order within each.
        const at = pace !== "background" ? waiters.findIndex((w) => w.pace === "background") : -1;
        if (at === -1) waiters.push(waiter);
        else waiters.splice(at, 0, waiter);
        pump();
      });
    },
    slowDown(signal) {
      const now = clock.now();
      const sameEpisode = current !== null;
      const defaultPause = Math.min(MAX_DEFAULT_SLOW_DOWN_MS, DEFAULT_SLOW_DOWN_MS * 2 ** (sameEpisode ? current!.signals : 0));
      const pauseMs = signal.retryAfterMs === null ? defaultPause : Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, signal.retryAfterMs));
      pausedUntil = Math.max(pausedUntil, now + pauseMs);
      // After the pause one request goes, then the steady rate: not a burst of saved-up tokens.
      club.tokens = 1;
      club.at = pausedUntil;
      const facts = { reason: signal.reason, status: signal.status, retryAfterMs: signal.retryAfterMs, pausedUntil };
      if (current) Object.assign(current, facts, { signals: current.signals + 1 });
      else {
        current = { startedAt: now, signals: 1, endedAt: null, ...facts };
        options.onEpisode?.({ type: "started", episode: { ...current } });
      }
      if (waiters.length > 0) {
        timer?.abort.abort();
        timer = null;
        pump();
      }
      return pausedUntil - now;
    },
    noteAnswered() {
      if (!current) return;
      const now = clock.now();
      if (now < current.pausedUntil) return;
      current.endedAt = now;
      last = current;
      current = null;
      options.onEpisode?.({ type: "ended", episode: { ...last } });
    },
    allow(tokens, until) {
      const allowance: Allowance = { tokens: Math.max(0, Math.floor(tokens)), until };
      allowances.add(allowance);
      if (waiters.length > 0) pump();
      return () => {
        allowances.delete(allowance);
      };
    },
    allowed() {
      const now = clock.now();
      let tokens = 0;
      for (const allowance of allowances) if (allowance.until > now) tokens += allowance.tokens;
      return Math.floor(tokens);
    },
    configure(next) {
      limits = next;
      club.tokens = Math.min(club.tokens, next.clubBurst);
      for (const bucket of members.values()) bucket.tokens = Math.min(bucket.tokens, next.memberBurst);
      if (waiters.length > 0) pump();
    },
    limits: () => limits,
    waiting: () => waiters.length,
    cancelWaiting() {
      const refused = waiters.splice(0);
      timer?.abort.abort();
      timer = null;
      for (const waiter of refused) waiter.reject(new ClubError("busy", "Not sent: Teebox is stopping."));
    },
    episodes: () => ({ current: current ? { ...current } : null, last: last ? { ...last } : null }),
  };
}
