import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../deps.ts";
import { maskSecrets } from "../../lib/logger.ts";
import { readJson } from "../../lib/validate.ts";

const clientLogSchema = z.object({
  level: z.enum(["info", "warn", "error", "debug"]),
  message: z.string().min(1).max(500),
  context: z.record(z.string(), z.unknown()).optional().default({}),
});

/** Browser log entries (spec §7), written to the server log at their own level. */
export function createClientLogRoutes() {
  return new Hono<AppEnv>().post("/log", async (c) => {
    const entry = await readJson(c, clientLogSchema);
    // Masked before it is cut short: a long context must not slip past the masking as one string.
    const masked = maskSecrets(entry.context);
    const context = JSON.stringify(masked);
    c.get("deps").logger.log(entry.level, `client: ${entry.message}`, {
      userId: c.get("user")?.id ?? null,
      requestId: c.get("requestId"),
      context: context.length > 2000 ? `${context.slice(0, 2000)}…` : masked,
    });
    return c.body(null, 204);
  });
}
