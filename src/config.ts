/**
 * The only reader of the environment. Every value is validated at start-up; a bad one stops
 * Teebox with one readable line naming the variable.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";

import { LOG_LEVELS, type LogLevel } from "./domain/settings.ts";
import { invalidNetworks } from "./lib/trust.ts";
import { parseSmtpUrl } from "./mail/smtp-url.ts";
import { addressOf } from "./mail/transport.ts";

export { LOG_LEVELS, type LogLevel };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** 32-byte key material: from SECRET_KEY, else read from (or created in) secretKeyFile. */
  secretKey: string | null;
  secretKeyFile: string;
  clubUrl: string | null;
  adminPassword: string | null;
  publicOrigin: string | null;
  logLevel: LogLevel | null;
  /** Reverse proxies whose X-Forwarded-For/-Proto are believed; null: loopback when publicOrigin is set, else none. */
  trustedProxies: string[] | null;
  /** Host names served besides localhost, loopback, the machine's own addresses and publicOrigin's host. */
  allowedHosts: string[];
  /** The SMTP server notification emails go through; null keeps them in the outbox, unsent. */
  smtpUrl: string | null;
  /** The sender of notification emails (`Teebox <teebox@example.com>`); required with smtpUrl. */
  mailFrom: string | null;
  /** How the club writes numeric dates ('05/03/2025'): day first or month first; null refuses them. */
  clubDateOrder: "dmy" | "mdy" | null;
  /** A bearer token that opens GET /metrics to callers beyond loopback; null: loopback only. */
  metricsToken: string | null;
  /** Pinged (GET) after each healthy minute, so an outside monitor notices when Teebox falls silent. */
  heartbeatUrl: string | null;
  /** The VAPID subject of pushes (`mailto:` or `https:`): PUSH_SUBJECT, else PUBLIC_ORIGIN when https, else MAIL_FROM's address. */
  pushSubject: string | null;
  /** Origins of push services devices may subscribe at beyond the well-known ones (PUSH_SERVICE_ORIGINS). */
  pushServiceOrigins: string[];
  /**
   * For benchmarks and tests only: the file of a simulated clock shared with the demo club
   * (src/lib/sim-clock.ts), so a soak lives through months in minutes; null runs on real time.
   */
  simClockFile: string | null;
}

export class ConfigError extends Error {}

const urlLike = z.string().refine((v) => {
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}, "must be a URL such as https://example.com");

const fields = {
  PORT: z
    .string()
    .regex(/^\d+$/, "must be a whole number from 0 to 65535")
    .transform(Number)
    .refine((n) => n <= 65535, "must be a whole number from 0 to 65535"),
  HOST: z.string().min(1),
  DATA_DIR: z.string().min(1),
  DATABASE_URL: z.string().regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/, "must start with file:, libsql://, http(s):// or ws(s)://"),
  SECRET_KEY: z.string().min(16, "must be at least 16 characters"),
  SECRET_KEY_FILE: z.string().min(1),
  CLUB_URL: urlLike,
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters"),
  PUBLIC_ORIGIN: urlLike.transform((v) => new URL(v).origin),
  TRUSTED_PROXIES: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => invalidNetworks(list).length === 0, "must be a comma-separated list of addresses or networks such as 127.0.0.1, 10.0.0.0/8"),
  ALLOWED_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((list) => list.every((h) => /^[a-z0-9.\-:[\]]+$/.test(h)), "must be a comma-separated list of host names such as teebox.example.com"),
  CLUB_DATE_ORDER: z.enum(["dmy", "mdy"], { message: "must be dmy (day first, 05/03/2025 = 5 March) or mdy (month first)" }),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(", ")}` }),
  SMTP_URL: z.string().superRefine((value, ctx) => {
    try {
      parseSmtpUrl(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: error instanceof TypeError ? "must be a URL such as smtp://user:password@mail.example.com:587" : (error as Error).message });
    }
  }),
  MAIL_FROM: z.string().refine((v) => addressOf(v) !== null, "must be an email address, optionally with a name: Teebox <teebox@example.com>"),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters"),
  HEARTBEAT_URL: urlLike.refine((v) => /^https?:/.test(v), "must be an http(s) URL such as https://hc-ping.com/<uuid>"),
  PUSH_SUBJECT: z
    .string()
    .refine(
      (v) => /^mailto:[^\s@]+@[^\s@]+$/.test(v) || (URL.canParse(v) && new URL(v).protocol === "https:"),
      "must be a mailto: address or an https: URL, such as mailto:admin@example.com",
    ),
  PUSH_SERVICE_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((o) => URL.canParse(o) && /^https?:$/.test(new URL(o).protocol) && new URL(o).origin === o.replace(/\/$/, "")),
      "must be a comma-separated list of origins such as https://push.example.com",
    )
    .transform((list) => list.map((o) => new URL(o).origin)),
  TEEBOX_SIM_CLOCK: z
    .string()
    .min(1)
    .refine((v) => existsSync(v), "must name the simulated clock file a benchmark created (benchmarks and tests only)"),
} as const;

/** What an error line may show of a value: never a secret, nor the password inside a URL. */
function shown(name: FieldName, raw: string): string {
  if (name === "SECRET_KEY" || name === "ADMIN_PASSWORD" || name === "METRICS_TOKEN") return "…";
  if (name === "SMTP_URL") return raw.replace(/\/\/[^@/]*@/, "//…@");
  return raw;
}

type FieldName = keyof typeof fields;

function read<K extends FieldName>(env: Record<string, string | undefined>, name: K): z.infer<(typeof fields)[K]> | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const parsed = fields[name].safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`${name} ${parsed.error.issues[0]?.message ?? "is invalid"} (got ${JSON.stringify(shown(name, raw))})`);
  }
  return parsed.data as z.infer<(typeof fields)[K]>;
}

/** Reads and validates the environment; creates the data folder. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const dataDir = resolve(read(env, "DATA_DIR") ?? "data");
  const simClockFile = read(env, "TEEBOX_SIM_CLOCK");
  const config: Config = {
    port: read(env, "PORT") ?? 3000,
    host: read(env, "HOST") ?? "0.0.0.0",
    dataDir,
    databaseUrl: read(env, "DATABASE_URL") ?? `file:${join(dataDir, "teebox.db")}`,
    secretKey: read(env, "SECRET_KEY") ?? null,
    secretKeyFile: resolve(read(env, "SECRET_KEY_FILE") ?? join(dataDir, "secret.key")),
    clubUrl: read(env, "CLUB_URL") ?? null,
    adminPassword: read(env, "ADMIN_PASSWORD") ?? null,
    publicOrigin: read(env, "PUBLIC_ORIGIN") ?? null,
    logLevel: read(env, "LOG_LEVEL") ?? null,
    trustedProxies: read(env, "TRUSTED_PROXIES") ?? null,
    allowedHosts: read(env, "ALLOWED_HOSTS") ?? [],
    smtpUrl: read(env, "SMTP_URL") ?? null,
    mailFrom: read(env, "MAIL_FROM") ?? null,
    clubDateOrder: read(env, "CLUB_DATE_ORDER") ?? null,
    metricsToken: read(env, "METRICS_TOKEN") ?? null,
    heartbeatUrl: read(env, "HEARTBEAT_URL") ?? null,
    pushSubject: null,
    pushServiceOrigins: read(env, "PUSH_SERVICE_ORIGINS") ?? [],
    simClockFile: simClockFile ? resolve(simClockFile) : null,
  };
  config.pushSubject = read(env, "PUSH_SUBJECT") ?? defaultPushSubject(config);
  if (config.smtpUrl && !config.mailFrom) {
    throw new ConfigError("MAIL_FROM must be set when SMTP_URL is: the sender of notification emails, such as Teebox <teebox@example.com>");
  }
  try {
    // Created readable by the owner only: it holds the database, its key file and backups.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError(`DATA_DIR cannot be created (${(error as Error).message})`);
  }
  return config;
}

/** Whom a push service's operator can write to about Teebox's pushes, when PUSH_SUBJECT is unset. */
function defaultPushSubject(config: Config): string | null {
  if (config.publicOrigin?.startsWith("https:")) return config.publicOrigin;
  const address = config.mailFrom ? addressOf(config.mailFrom) : null;
  return address ? `mailto:${address}` : null;
}

/**
 * The club login `teebox check-club` uses without asking: CLUB_EMAIL and CLUB_PASSWORD. Either
 * may be missing; the command then asks for it.
 */
export function loadClubCheckLogin(env: Record<string, string | undefined> = process.env): { email: string | null; password: string | null } {
  return { email: env.CLUB_EMAIL?.trim() || null, password: env.CLUB_PASSWORD || null };
}
