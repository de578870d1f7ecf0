/** The contract of the browser log (decision 170). */
import { z } from "@hono/zod-openapi";
import { CLIENT_LOG_BATCH_MAX, CLIENT_LOG_LEVELS } from "../../domain/client-log.ts";
import { defineRoute, jsonBody, noContent, refusals } from "../../lib/contract.ts";

const clientLogEntrySchema = z.object({
  level: z.enum(CLIENT_LOG_LEVELS),
  message: z.string().min(1).max(500),
  context: z.record(z.string(), z.unknown()).optional().default({}),
});
/** One entry, or a page's entries posted together. */
export const clientLogSchema = z.union([clientLogEntrySchema, z.strictObject({ entries: z.array(clientLogEntrySchema).min(1).max(CLIENT_LOG_BATCH_MAX) })]);

export const clientLogRoutes = {
  log: defineRoute({
    access: "public",
    method: "post",
    path: "/client/log",
    tags: ["Browser log"],
    summary: "Browser log entries, one or a page's together, written to the server log at their own level",
    readsBodyItself: true,
    request: { body: jsonBody(clientLogSchema) },
    responses: { 204: noContent("Written"), ...refusals(413, 429) },
  }),
};
