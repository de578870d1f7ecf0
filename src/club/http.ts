/**
 * The adapter's only door to the network: timeouts, a bounded number of requests in
 * flight, manual redirects (so an ended session is seen), and failures turned into
 * ClubError('unavailable').
 */
import type { Clock } from "../lib/clock.ts";
import { ClubError } from "./errors.ts";
import type { CookieJar } from "./session.ts";

export interface ClubResponse {
  status: number;
  /** The Location of a redirect, as a path when it points at the club itself. */
  location: string | null;
  html: string;
  /** The club's Date header in epoch ms, or null. */
  clubDateMs: number | null;
  /** Our clock when the request was sent and when its answer arrived. */
  sentMs: number;
  receivedMs: number;
}

export interface ClubRequest {
  method?: "GET" | "POST";
  form?: Record<string, string>;
  jar?: CookieJar;
  /** A booking post must say that an unanswered request may still have been acted on. */
  isAmbiguousIfUnanswered?: boolean;
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
  send(path: string, request?: ClubRequest): Promise<ClubResponse>;
  prepare(path: string, request?: ClubRequest): PreparedRequest;
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

export function createClubHttp(options: { baseUrl: string; timeoutMs: number; maxConnections: number; clock: Clock }): ClubHttp {
  const base = new URL(options.baseUrl);
  const limit = createLimiter(Math.max(1, options.maxConnections));

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

  const sendHere: WireSend = (wire) => fetchWire(wire, () => options.clock.now());

  async function sendBuilt(wire: WireRequest, request: ClubRequest, via: WireSend): Promise<ClubResponse> {
    let answer: WireAnswer;
    try {
      answer = await via(wire);
    } catch (error) {
      if (error instanceof ClubError) throw error;
      throw unreachable(error, options.timeoutMs, request.isAmbiguousIfUnanswered ?? false);
    }
    request.jar?.store(answer.setCookies);
    const clubDateMs = answer.date ? Date.parse(answer.date) : Number.NaN;
    if (answer.status >= 500) {
      const isAmbiguous = request.isAmbiguousIfUnanswered ?? false;
      const suffix = isAmbiguous ? " The club may still have acted on the request." : "";
      throw new ClubError("unavailable", `The club site answered ${answer.status}.${suffix}`, { status: answer.status, isAmbiguous });
    }
    return { status: answer.status, location: relativeLocation(answer.location), html: answer.body, clubDateMs: Number.isNaN(clubDateMs) ? null : clubDateMs, sentMs: answer.sentMs, receivedMs: answer.receivedMs };
  }

  return {
    send: (path, request = {}) => limit(() => sendBuilt(build(path, request), request, sendHere)),
    prepare(path, request = {}) {
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
  return { status: response.status, location: headers.get("location"), date: headers.get("date"), setCookies: headers.getSetCookie(), body, sentMs, receivedMs };
}

function unreachable(error: unknown, timeoutMs: number, isAmbiguous: boolean): ClubError {
  const isTimeout = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
  const what = isTimeout ? `did not answer within ${timeoutMs} ms` : "could not be reached";
  const suffix = isAmbiguous ? " The club may still have acted on the request." : "";
  return new ClubError("unavailable", `The club site ${what}.${suffix}`, { isAmbiguous, cause: error });
}
