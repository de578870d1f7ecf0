import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../deps.ts";
import { type AppError, textError } from "../../lib/errors.ts";
import {
  CLIENT_LOG_ADDRESS_LIMIT,
  CLIENT_LOG_ANONYMOUS_LIMIT,
  CLIENT_LOG_MAX_BYTES,
  CLIENT_LOG_SESSION_LIMIT,
  CLIENT_LOG_TOTAL_LIMIT,
  CLIENT_LOG_WINDOW_MS,
  createWindowLimiter,
  retryAfterSeconds,
  takeAll,
  type WindowLimiter,
} from "../../lib/limits.ts";
import { maskSecrets } from "../../lib/logger.ts";
import { clientAddress } from "../../lib/middleware.ts";
import { readJson } from "../../lib/validate.ts";

const clientLogSchema = z.object({
  level: z.enum(["info", "warn", "error", "debug"]),
  message: z.string().min(1).max(500),
  context: z.record(z.string(), z.unknown()).optional().default({}),
});

/**
 * Browser log entries (spec §7), written to the server log at their own level. Anyone may send
 * them (the login page logs too), so each entry is bounded in size and counted per session, per
 * address (anonymous callers hardest) and in total: a flood is refused with 429 before it is
 * parsed or written, so the log grows by a bounded number of lines a minute.
 */
export function createClientLogRoutes() {
  const perSession = createWindowLimiter(CLIENT_LOG_SESSION_LIMIT, CLIENT_LOG_WINDOW_MS);
  const anonymousPerAddress = createWindowLimiter(CLIENT_LOG_ANONYMOUS_LIMIT, CLIENT_LOG_WINDOW_MS);
  const perAddress = createWindowLimiter(CLIENT_LOG_ADDRESS_LIMIT, CLIENT_LOG_WINDOW_MS);
  const total = createWindowLimiter(CLIENT_LOG_TOTAL_LIMIT, CLIENT_LOG_WINDOW_MS);
  return new Hono<AppEnv>().post("/log", async (c) => {
    const now = c.get("deps").clock.now();
    const sessionId = c.get("sessionId");
    const address = clientAddress(c);
    const pairs: [WindowLimiter, string][] = [
      sessionId ? [perSession, sessionId] : [anonymousPerAddress, address],
      [perAddress, address],
      [total, ""],
    ];
    if (!takeAll(pairs, now)) {
      throw textError(429, "client_log.rate_limited", undefined, { "retry-after": String(retryAfterSeconds(pairs, now)) });
    }
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > CLIENT_LOG_MAX_BYTES) throw tooLarge();
    const entry = await readJson(c, clientLogSchema);
    // Masked before it is measured: a long context must not slip past the masking as one string.
    const masked = maskSecrets(entry.context);
    const context = JSON.stringify(masked);
    if (context.length + entry.message.length > CLIENT_LOG_MAX_BYTES) throw tooLarge();
    c.get("deps").logger.log(entry.level, `client: ${entry.message}`, {
      userId: c.get("user")?.id ?? null,
      requestId: c.get("requestId"),
      context: masked,
    });
    return c.body(null, 204);
  });
}

function tooLarge(): AppError {
  return textError(413, "client_log.too_large", { max: CLIENT_LOG_MAX_BYTES });
}
