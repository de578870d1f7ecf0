/**
 * How Teebox hands a push to a push service: one small interface (like mail/transport.ts), so the
 * push job and its tests do not depend on how it is sent. The default posts with fetch, waits at
 * most `timeoutMs` for the answer, never follows a redirect (an endpoint is posted to, nowhere
 * else), and reads at most a few hundred characters of what the service said.
 */
import type { PushRequest } from "./web-push-request.ts";

export interface PushResponse {
  status: number;
  /** A 429's or 503's Retry-After header, as sent (read with retryAfterSeconds). */
  retryAfter: string | null;
  /** The start of the service's answer, for the outbox's last error. */
  text: string;
}

export interface PushTransport {
  /** The push service's answer; rejects with a PushNetworkError when none came. */
  send(request: PushRequest, signal?: AbortSignal): Promise<PushResponse>;
}

/** No answer: the service could not be reached, or did not answer in time. */
export class PushNetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PushNetworkError";
  }
}

const TEXT_KEPT = 300;

/** Seconds from a Retry-After header (seconds, or an HTTP date against `now`); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function createFetchPushTransport(options: { timeoutMs?: number } = {}): PushTransport {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    async send(request, signal) {
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await fetch(request.url, {
          method: "POST",
          headers: request.headers,
          body: request.body,
          redirect: "manual",
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (timeout.aborted) throw new PushNetworkError(`the push service did not answer within ${timeoutMs} ms`);
        throw new PushNetworkError(`the push service could not be reached (${error instanceof Error ? error.message : String(error)})`);
      }
      const text = (await response.text().catch(() => "")).slice(0, TEXT_KEPT);
      return { status: response.status, retryAfter: response.headers.get("retry-after"), text };
    },
  };
}
