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

export interface ClubHttp {
  send(path: string, request?: ClubRequest): Promise<ClubResponse>;
  /**
   * Builds a request now and sends it later, when the returned function is called: at a release
   * instant only the network call itself is left to do.
   */
  prepare(path: string, request?: ClubRequest): () => Promise<ClubResponse>;
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

  interface BuiltRequest {
    url: URL;
    init: { method: string; headers: Record<string, string>; body: string | undefined; redirect: "manual" };
  }

  function build(path: string, request: ClubRequest): BuiltRequest {
    const headers: Record<string, string> = { accept: "text/html" };
    const cookie = request.jar?.header();
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (request.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(request.form).toString();
    }
    return { url: new URL(path, base), init: { method: request.method ?? "GET", headers, body, redirect: "manual" } };
  }

  async function sendBuilt(built: BuiltRequest, request: ClubRequest): Promise<ClubResponse> {
    const sentMs = options.clock.now();
    try {
      const response = await fetch(built.url, { ...built.init, signal: AbortSignal.timeout(options.timeoutMs) });
      const receivedMs = options.clock.now();
      const html = await response.text();
      request.jar?.store(response.headers.getSetCookie());
      const dateHeader = response.headers.get("date");
      const clubDateMs = dateHeader ? Date.parse(dateHeader) : Number.NaN;
      if (response.status >= 500) {
        const isAmbiguous = request.isAmbiguousIfUnanswered ?? false;
        const suffix = isAmbiguous ? " The club may still have acted on the request." : "";
        throw new ClubError("unavailable", `The club site answered ${response.status}.${suffix}`, { status: response.status, isAmbiguous });
      }
      return { status: response.status, location: relativeLocation(response.headers.get("location")), html, clubDateMs: Number.isNaN(clubDateMs) ? null : clubDateMs, sentMs, receivedMs };
    } catch (error) {
      if (error instanceof ClubError) throw error;
      throw unreachable(error, options.timeoutMs, request.isAmbiguousIfUnanswered ?? false);
    }
  }

  return {
    send: (path, request = {}) => limit(() => sendBuilt(build(path, request), request)),
    prepare(path, request = {}) {
      const built = build(path, request);
      return () => limit(() => sendBuilt(built, request));
    },
  };
}

function unreachable(error: unknown, timeoutMs: number, isAmbiguous: boolean): ClubError {
  const isTimeout = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
  const what = isTimeout ? `did not answer within ${timeoutMs} ms` : "could not be reached";
  const suffix = isAmbiguous ? " The club may still have acted on the request." : "";
  return new ClubError("unavailable", `The club site ${what}.${suffix}`, { isAmbiguous, cause: error });
}
