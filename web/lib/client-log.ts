/**
 * Client log sender (spec §4): entries go to POST /v1/client/log with keep-alive. The first failed send
 * switches the sender off for the rest of the session, with a single console warning, so a down
 * endpoint never turns into a stream of failing requests. The app's logger holds its entries until
 * the first screen has painted (web/lib/after-first-paint.ts), then sends them in order.
 */
import { afterFirstPaint } from "./after-first-paint.ts";
import { apiPaths } from "./api-paths.ts";

export type ClientLogLevel = "debug" | "info" | "warn" | "error";
export type LogContext = Record<string, unknown>;

export const CLIENT_LOG_URL = apiPaths.clientLog;
export const LOGGER_DOWN_WARNING = "Client logger endpoint is down; client logs are suppressed for the rest of this session.";

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
type ConsoleLike = Pick<Console, "warn" | "error">;

export interface ClientLoggerOptions {
  fetch?: FetchLike;
  console?: ConsoleLike;
  /** When a send may start; default at once. */
  schedule?: (send: () => void) => void;
}

export interface ClientLogger {
  log(level: ClientLogLevel, message: string, context?: LogContext): void;
  debug(message: string, context?: LogContext): void;
  info(message: string, context?: LogContext): void;
  warn(message: string, context?: LogContext): void;
  error(message: string, context?: LogContext): void;
  isEnabled(): boolean;
  /** Waits for the sends started so far (tests and page unload). */
  flush(): Promise<void>;
}

export function createClientLogger(options: ClientLoggerOptions = {}): ClientLogger {
  const send: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const output: ConsoleLike = options.console ?? globalThis.console;
  const schedule = options.schedule ?? ((send: () => void) => send());
  let isSenderOn = true;
  const pending = new Set<Promise<void>>();

  function switchOff(): void {
    if (!isSenderOn) return;
    isSenderOn = false;
    output.warn(LOGGER_DOWN_WARNING);
  }

  async function deliver(level: ClientLogLevel, message: string, context: LogContext): Promise<void> {
    try {
      const response = await send(CLIENT_LOG_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        keepalive: true,
        body: JSON.stringify({ level, message, context: toSerializable(context) }),
      });
      if (!response.ok) switchOff();
    } catch {
      switchOff();
    }
  }

  function log(level: ClientLogLevel, message: string, context: LogContext = {}): void {
    // Problems stay visible in the browser console even when the endpoint is down.
    if (level === "error") output.error(message, context);
    else if (level === "warn") output.warn(message, context);
    if (!isSenderOn) return;
    const sending = new Promise<void>((resolve) => {
      // An entry that waited is dropped if the endpoint went down meanwhile.
      schedule(() => resolve(isSenderOn ? deliver(level, message, context) : undefined));
    });
    pending.add(sending);
    void sending.finally(() => pending.delete(sending));
  }

  return {
    log,
    debug: (message, context) => log("debug", message, context),
    info: (message, context) => log("info", message, context),
    warn: (message, context) => log("warn", message, context),
    error: (message, context) => log("error", message, context),
    isEnabled: () => isSenderOn,
    flush: async () => {
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
