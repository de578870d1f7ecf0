/**
 * Structured log lines on stdout: one JSON object per line with time, level, message and fields.
 * The level can change at run time (the log_level setting). Fields whose names look like secrets
 * are masked, so a password can never reach a log line by accident.
 */
import type { LogLevel } from "../config.ts";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /pass(word)?|secret|token|cookie|authorization|sealed/i;

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  log(level: LogLevel, message: string, fields?: LogFields): void;
  setLevel(level: LogLevel): void;
  level(): LogLevel;
  child(fields: LogFields): Logger;
}

export function maskSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  // Deeper than anything Teebox logs: dropped rather than written unmasked.
  if (depth > 6) return "[too deep]";
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_FIELD.test(key) ? "[masked]" : maskSecrets(v, depth + 1);
  return out;
}

export function createLogger(initial: LogLevel = "info", write: (line: string) => void = (line) => process.stdout.write(`${line}\n`), now: () => number = Date.now): Logger {
  const state = { level: initial };
  const make = (bound: LogFields): Logger => {
    const log = (level: LogLevel, message: string, fields?: LogFields) => {
      if (ORDER[level] < ORDER[state.level]) return;
      const extra = maskSecrets({ ...bound, ...fields }) as LogFields;
      write(JSON.stringify({ time: new Date(now()).toISOString(), level, message, ...extra }));
    };
    return {
      log,
      debug: (m, f) => log("debug", m, f),
      info: (m, f) => log("info", m, f),
      warn: (m, f) => log("warn", m, f),
      error: (m, f) => log("error", m, f),
      setLevel: (level) => {
        state.level = level;
      },
      level: () => state.level,
      child: (fields) => make({ ...bound, ...fields }),
    };
  };
  return make({});
}
