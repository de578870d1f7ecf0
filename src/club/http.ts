/**
 * The adapter's only door to the network: timeouts, a bounded number of requests in
 * flight, manual redirects (so an ended session is seen), and failures turned into
 * ClubError('unavailable'). Every request says what it is for and whose it is; it takes a token of
 * the politeness budget before it leaves (but the release's first wave, sent through `prepare`,
 * which keeps its timing) and is counted with what came of it (decision 145). A 429, a 503 with
 * Retry-After or a bot wall's challenge pauses every request to the club (decision 146).
 */
import type { Clock } from "../lib/clock.ts";
import type { ClubPace } from "./budget.ts";
import { readSlowDown } from "./classify.ts";
import { ClubError } from "./errors.ts";
import type { ClubPoliteness } from "./politeness.ts";
import type { CookieJar } from "./session.ts";
import type { ClubRequestKind, ClubRequestOutcome } from "./traffic.ts";

export interface ClubResponse {
  status: number;
  /** The Location of a redirect, as a path when it points at the club itself. */
  location: string | null;
  html: string;
  /** The club's Date header in epoch ms, or null. */
  clubDateMs: number | null;
  /** Our clock when the request was sent and when its answer arrived (fractional on a precise clock). */
  sentMs: number;
  receivedMs: number;
  /** How far those two readings may be from the true moments. */
  stampError: StampError;
  /**
   * Counts the request under what its page said (a booking refused, not yet open …); only for a
   * request sent with `outcomeFromPage` and answered 200, which is counted once this is called.
   */
  settle(outcome: ClubRequestOutcome): void;
}

/**
 * How far a reading of our clock may be from the true moment: Date.now() reads up to a whole
 * millisecond behind it and never ahead; a precise clock (decision 202) is off by its small error
 * either way.
 */
export interface StampError {
  behindMs: number;
  aheadMs: number;
}

export const WHOLE_MS_STAMPS: StampError = { behindMs: 1, aheadMs: 0 };

/** What a request is for, and for whom: how it is counted and what budget it draws from. */
export interface RequestPurpose {
  kind: ClubRequestKind;
  /** The member whose club login it uses; null for requests of no member (advisories, clock probes, checks). */
  memberId: number | null;
  /** What happens when the budget is spent (budget.ts); default `urgent`. */
  pace?: ClubPace;
}

export interface ClubRequest {
  purpose: RequestPurpose;
  method?: "GET" | "POST";
  form?: Record<string, string>;
  jar?: CookieJar;
  /** A booking post must say that an unanswered request may still have been acted on. */
  isAmbiguousIfUnanswered?: boolean;
  /** The caller reads a 200 answer's page for its outcome and counts it with `settle`. */
  outcomeFromPage?: boolean;
}

/** A request as it goes on the wire: plain data, so that another thread can send it. */
export interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
}

/** What came back for a wire request, as plain data, with our clock when it left and when it was answered. */
export interface WireAnswer {
  status: number;
  location: string | null;
  date: string | null;
  retryAfter: string | null;
  setCookies: string[];
  body: string;
  sentMs: number;
  receivedMs: number;
}

/**
 * Sends a wire request: fetch on this thread, or (for a release's first wave) the wave's own
 * thread, which sent it at the instant. Fails the way fetch does when nothing came back.
 */
export type WireSend = (request: WireRequest) => Promise<WireAnswer>;

/** A request built now, sent later: at a release instant only the network call itself is left to do. */
export interface PreparedRequest {
  wire: WireRequest;
  send(via?: WireSend): Promise<ClubResponse>;
}

export interface ClubHttp {
  send(path: string, request: ClubRequest): Promise<ClubResponse>;
  /** A request sent later without waiting for the budget: only for a release's first wave at the instant. */
  prepare(path: string, request: ClubRequest): PreparedRequest;
}

/** FIFO permits, so a burst at the release instant cannot open unbounded connections. */
function createLimiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (task) => {
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}

export function createClubHttp(options: { baseUrl: string; timeoutMs: number; maxConnections: number; clock: Clock; politeness: ClubPoliteness }): ClubHttp {
  const base = new URL(options.baseUrl);
  const limit = createLimiter(Math.max(1, options.maxConnections));
  const { traffic, budget } = options.politeness;

  function relativeLocation(location: string | null): string | null {
    if (!location) return null;
    const url = new URL(location, base);
    return url.origin === base.origin ? url.pathname + url.search : url.href;
  }

  function build(path: string, request: ClubRequest): WireRequest {
    const headers: Record<string, string> = { accept: "text/html" };
    const cookie = request.jar?.header();
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (request.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(request.form).toString();
    }
    return { url: new URL(path, base).href, method: request.method ?? "GET", headers, body, timeoutMs: options.timeoutMs };
  }

  // Stamped finely where the clock can: a clock probe's bounds are only as tight as its stamps.
  const { precise } = options.clock;
  const stamp = precise ? () => precise.now() : () => options.clock.now();
  const stampError = (): StampError => (precise ? { behindMs: precise.errorMs(), aheadMs: precise.errorMs() } : WHOLE_MS_STAMPS);
  const sendHere: WireSend = (wire) => fetchWire(wire, stamp);

  async function sendBuilt(wire: WireRequest, request: ClubRequest, via: WireSend): Promise<ClubResponse> {
    const { kind, memberId } = request.purpose;
    const count = (outcome: ClubRequestOutcome) => traffic.record(kind, memberId, outcome);
    let answer: WireAnswer;
    try {
      answer = await via(wire);
    } catch (error) {
      count(isTimeout(error) ? "timeout" : "unreachable");
      if (error instanceof ClubError) throw error;
      throw unreachable(error, options.timeoutMs, request.isAmbiguousIfUnanswered ?? false);
    }
    request.jar?.store(answer.setCookies);
    const parsedDate = answer.date ? Date.parse(answer.date) : Number.NaN;
    const clubDateMs = Number.isNaN(parsedDate) ? null : parsedDate;
    const slow = readSlowDown({ status: answer.status, retryAfter: answer.retryAfter, html: answer.body, clubNowMs: clubDateMs ?? options.clock.now() });
    if (slow) {
      count(slow.reason === "challenge" ? "challenge" : slow.status === 429 ? "429" : "5xx");
      throw slowDown(slow, budget.slowDown(slow), request.isAmbiguousIfUnanswered ?? false);
    }
    budget.noteAnswered();
    if (answer.status >= 500) {
      count("5xx");
      const isAmbiguous = request.isAmbiguousIfUnanswered ?? false;
      const suffix = isAmbiguous ? " The club may still have acted on the request." : "";
      throw new ClubError("unavailable", `The club site answered ${answer.status}.${suffix}`, { status: answer.status, isAmbiguous });
    }
    let isCounted = false;
    const settle = (outcome: ClubRequestOutcome) => {
      if (isCounted) return;
      isCounted = true;
      count(outcome);
    };
    if (!(request.outcomeFromPage && answer.status === 200)) settle(answer.status >= 400 ? "4xx" : "ok");
    return {
      status: answer.status,
      location: relativeLocation(answer.location),
      html: answer.body,
      clubDateMs,
      sentMs: answer.sentMs,
      receivedMs: answer.receivedMs,
      stampError: stampError(),
      settle,
    };
  }

  /** Waits for the budget (or, pace `skip`, is refused by it) and then sends. */
  async function sendPolitely(path: string, request: ClubRequest): Promise<ClubResponse> {
    const { kind, memberId, pace = "urgent" } = request.purpose;
    try {
      await budget.take({ memberId, pace });
    } catch (error) {
      if (error instanceof ClubError && error.kind === "busy" && pace === "skip") traffic.recordSkipped(kind);
      throw error;
    }
    return limit(() => sendBuilt(build(path, request), request, sendHere));
  }

  return {
    send: sendPolitely,
    prepare(path, request) {
      const wire = build(path, request);
      // A post sent through `via` is a release wave's, which keeps its own count of posts in flight.
      return { wire, send: (via) => (via ? sendBuilt(wire, request, via) : limit(() => sendBuilt(wire, request, sendHere))) };
    },
  };
}

/** Sends a wire request with fetch on the calling thread, timed by `now`. */
export async function fetchWire(wire: WireRequest, now: () => number): Promise<WireAnswer> {
  const sentMs = now();
  const response = await fetch(wire.url, { method: wire.method, headers: wire.headers, body: wire.body, redirect: "manual", signal: AbortSignal.timeout(wire.timeoutMs) });
  return readWireAnswer(response, sentMs, now());
}

/** A fetch response as plain data (its body read). */
export async function readWireAnswer(response: Response, sentMs: number, receivedMs: number): Promise<WireAnswer> {
  const body = await response.text();
  const { headers } = response;
  return {
    status: response.status,
    location: headers.get("location"),
    date: headers.get("date"),
    retryAfter: headers.get("retry-after"),
    setCookies: headers.getSetCookie(),
    body,
    sentMs,
    receivedMs,
  };
}

const SLOW_DOWN_WORDS = {
  "429": "The club answered 429 (too many requests)",
  "503": "The club answered 503 and said when to come back",
  challenge: "A bot wall's challenge page answered instead of the club",
} as const;

/**
 * A booking post answered by a bot wall or a 503 may have reached the club behind it (a firewall
 * that reads answers, a gateway that gave up after the club acted): its outcome is unknown, as
 * after a timeout. A 429 is a refusal to do the work (decision 146).
 */
function slowDown(signal: { reason: keyof typeof SLOW_DOWN_WORDS; status: number }, pauseMs: number, isBookingPost: boolean): ClubError {
  const isAmbiguous = isBookingPost && signal.reason !== "429";
  const suffix = isAmbiguous ? " The club may still have acted on the request." : "";
  return new ClubError("slow_down", `${SLOW_DOWN_WORDS[signal.reason]}: Teebox pauses every request to the club for ${Math.round(pauseMs / 1000)} s.${suffix}`, {
    status: signal.status,
    retryAfterMs: pauseMs,
    isAmbiguous,
  });
}

const isTimeout = (error: unknown) => error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");

function unreachable(error: unknown, timeoutMs: number, isAmbiguous: boolean): ClubError {
  const what = isTimeout(error) ? `did not answer within ${timeoutMs} ms` : "could not be reached";
  const suffix = isAmbiguous ? " The club may still have acted on the request." : "";
  return new ClubError("unavailable", `The club site ${what}.${suffix}`, { isAmbiguous, cause: error });
}
