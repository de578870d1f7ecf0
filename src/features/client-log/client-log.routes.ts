import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { type AppError, textError } from "../../lib/errors.ts";
import {
  CLIENT_LOG_ADDRESS_LIMIT,
  CLIENT_LOG_ANONYMOUS_LIMIT,
  CLIENT_LOG_MAX_BYTES,
  CLIENT_LOG_SESSION_ENTRY_LIMIT,
  CLIENT_LOG_SESSION_LIMIT,
  CLIENT_LOG_TOTAL_LIMIT,
  CLIENT_LOG_WINDOW_MS,
  createWindowLimiter,
  retryAfterSeconds,
  takeAll,
  type WindowLimiter,
} from "../../lib/limits.ts";
import { maskSecrets } from "../../lib/logger.ts";
import { clientAddress, type TrustDeps } from "../../lib/middleware.ts";
import { readJson } from "../../lib/validate.ts";
import { CLIENT_LOG_BATCH_MAX } from "../../domain/client-log.ts";
import { clientLogRoutes, clientLogSchema } from "./client-log.contract.ts";

/**
 * Browser log entries, written to the server log at their own level, one line each.
 * Anyone may send them (the login page logs too), so each entry is bounded in size, posts are
 * counted per session and per address (anonymous callers hardest), and entries per session and in
 * total: a flood is refused with 429 before it is parsed, or before anything is written, so the
 * log grows by a bounded number of lines a minute.
 */
export function createClientLogRoutes(deps: Pick<AppDeps, "clock" | "logger"> & TrustDeps) {
  const perSession = createWindowLimiter(CLIENT_LOG_SESSION_LIMIT, CLIENT_LOG_WINDOW_MS);
  const entriesPerSession = createWindowLimiter(CLIENT_LOG_SESSION_ENTRY_LIMIT, CLIENT_LOG_WINDOW_MS);
  const anonymousPerAddress = createWindowLimiter(CLIENT_LOG_ANONYMOUS_LIMIT, CLIENT_LOG_WINDOW_MS);
  const perAddress = createWindowLimiter(CLIENT_LOG_ADDRESS_LIMIT, CLIENT_LOG_WINDOW_MS);
  const total = createWindowLimiter(CLIENT_LOG_TOTAL_LIMIT, CLIENT_LOG_WINDOW_MS);
  const refused = (pairs: [WindowLimiter, string][], now: number) => textError(429, "client_log.rate_limited", undefined, { "retry-after": String(retryAfterSeconds(pairs, now)) });
  return routeGroup().handle(clientLogRoutes.log, async (c) => {
    const now = deps.clock.now();
    const sessionId = c.get("sessionId");
    const address = clientAddress(c, deps);
    const posts: [WindowLimiter, string][] = [sessionId ? [perSession, sessionId] : [anonymousPerAddress, address], [perAddress, address]];
    const post = takeAll(posts, now);
    if (!post) throw refused(posts, now);
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > CLIENT_LOG_MAX_BYTES * CLIENT_LOG_BATCH_MAX) throw tooLarge();
    // Read here, after the limits: a flood is refused before anything is parsed.
    const body = await readJson(c, clientLogSchema);
    const entries = "entries" in body ? body.entries : [body];
    // Masked before it is measured: a long context must not slip past the masking as one string.
    const masked = entries.map((entry) => ({ ...entry, context: maskSecrets(entry.context) }));
    if (masked.some((entry) => JSON.stringify(entry.context).length + entry.message.length > CLIENT_LOG_MAX_BYTES)) throw tooLarge();
    const lines: [WindowLimiter, string][] = [[total, ""], ...(sessionId ? [[entriesPerSession, sessionId] as [WindowLimiter, string]] : [])];
    if (!takeAll(lines, now, entries.length)) {
      post.giveBack();
      throw refused(lines, now);
    }
    const logger = deps.logger;
    for (const entry of masked) {
      logger.log(entry.level, `client: ${entry.message}`, { userId: c.get("user")?.id ?? null, requestId: c.get("requestId"), context: entry.context });
    }
    return c.body(null, 204);
  });
}

function tooLarge(): AppError {
  return textError(413, "client_log.too_large", { max: CLIENT_LOG_MAX_BYTES });
}
