/**
 * Client log sender: entries go to POST /v1/client/log with keep-alive. The first failed
 * send switches the sender off for the rest of the session, with a single console warning, so a down
 * endpoint never turns into a stream of failing requests. The app's logger holds its entries until
 * the first screen has painted (web/lib/after-first-paint.ts).
 *
 * Entries are gathered and posted together (src/domain/client-log.ts): after CLIENT_LOG_FLUSH_MS,
 * once CLIENT_LOG_BATCH_MAX are waiting, at once for an error, and when the page is hidden or left.
 * A page that logs every API call (about ten as it loads) thus posts once per visit, so a member
 * moving quickly between pages stays far under the server's limit; only a flood reaches it.
 */
import { CLIENT_LOG_BATCH_MAX, CLIENT_LOG_FLUSH_MS, type ClientLogLevel } from "../../src/domain/client-log.ts";
import { afterFirstPaint } from "./after-first-paint.ts";
import { apiPaths } from "./api-paths.ts";

export type { ClientLogLevel };
export type LogContext = Record<string, unknown>;

export const CLIENT_LOG_URL = apiPaths.clientLog;
export const LOGGER_DOWN_WARNING = "Client logger endpoint is down; client logs are suppressed for the rest of this session.";

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
type ConsoleLike = Pick<Console, "warn" | "error">;

interface Entry {
  level: ClientLogLevel;
  message: string;
  context: LogContext;
}

export interface LogTimer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface ClientLoggerOptions {
  fetch?: FetchLike;
  console?: ConsoleLike;
  /** When an entry may join the waiting ones; default at once. */
  schedule?: (send: () => void) => void;
  /** The gathering timer (tests hand in their own). */
  timer?: LogTimer;
  /** Calls back when the page is hidden or left, so nothing waiting is lost; default the window's events. */
  onPageLeave?: (callback: () => void) => void;
}

export interface ClientLogger {
  log(level: ClientLogLevel, message: string, context?: LogContext): void;
  debug(message: string, context?: LogContext): void;
  info(message: string, context?: LogContext): void;
  warn(message: string, context?: LogContext): void;
  error(message: string, context?: LogContext): void;
  isEnabled(): boolean;
  /** Posts everything waiting now and waits for the posts started so far (tests and page unload). */
  flush(): Promise<void>;
}

const defaultTimer: LogTimer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function onBrowserPageLeave(callback: () => void): void {
  if (typeof window === "undefined" || typeof document === "undefined") return;
  window.addEventListener("pagehide", callback);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") callback();
  });
}

export function createClientLogger(options: ClientLoggerOptions = {}): ClientLogger {
  const send: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const output: ConsoleLike = options.console ?? globalThis.console;
  const schedule = options.schedule ?? ((run: () => void) => run());
  const timer = options.timer ?? defaultTimer;
  let isSenderOn = true;
  let waiting: Entry[] = [];
  let flushHandle: unknown;
  const pending = new Set<Promise<void>>();

  function switchOff(): void {
    if (!isSenderOn) return;
    isSenderOn = false;
    waiting = [];
    output.warn(LOGGER_DOWN_WARNING);
  }

  async function deliver(entries: Entry[]): Promise<void> {
    const serialised = entries.map((e) => ({ level: e.level, message: e.message, context: toSerializable(e.context) }));
    try {
      const response = await send(CLIENT_LOG_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        keepalive: true,
        // One entry alone is the product's own shape; several go as one post.
        body: JSON.stringify(serialised.length === 1 ? serialised[0] : { entries: serialised }),
      });
      if (!response.ok) switchOff();
    } catch {
      switchOff();
    }
  }

  /** Posts what is waiting, in posts of at most CLIENT_LOG_BATCH_MAX entries. */
  function postWaiting(): void {
    if (flushHandle !== undefined) timer.clear(flushHandle);
    flushHandle = undefined;
    while (isSenderOn && waiting.length > 0) {
      const sending = deliver(waiting.splice(0, CLIENT_LOG_BATCH_MAX));
      pending.add(sending);
      void sending.finally(() => pending.delete(sending));
    }
  }

  function join(entry: Entry): void {
    if (!isSenderOn) return;
    waiting.push(entry);
    if (entry.level === "error" || waiting.length >= CLIENT_LOG_BATCH_MAX) postWaiting();
    else flushHandle ??= timer.set(postWaiting, CLIENT_LOG_FLUSH_MS);
  }

  (options.onPageLeave ?? onBrowserPageLeave)(postWaiting);

  function log(level: ClientLogLevel, message: string, context: LogContext = {}): void {
    // Problems stay visible in the browser console even when the endpoint is down.
    if (level === "error") output.error(message, context);
    else if (level === "warn") output.warn(message, context);
    if (!isSenderOn) return;
    schedule(() => join({ level, message, context }));
  }

  return {
    log,
    debug: (message, context) => log("debug", message, context),
    info: (message, context) => log("info", message, context),
    warn: (message, context) => log("warn", message, context),
    error: (message, context) => log("error", message, context),
    isEnabled: () => isSenderOn,
    flush: async () => {
      postWaiting();
      await Promise.all([...pending]);
    },
  };
}

/** Errors do not survive JSON.stringify; keep their name and message. */
function toSerializable(context: LogContext): LogContext {
  const result: LogContext = {};
  for (const [key, value] of Object.entries(context)) {
    result[key] = value instanceof Error ? { name: value.name, message: value.message } : value;
  }
  return result;
}

export const clientLog: ClientLogger = createClientLogger({ schedule: afterFirstPaint });
