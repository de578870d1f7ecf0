/** What GET /v1/system/club answers (admins): checked by the web app before it trusts it. */
import * as z from "../../domain/zod-mini.ts";

export const clubStatusSchema = z.object({
  mode: z.enum(["demo", "live"]),
  url: z.string(),
  reachable: z.boolean(),
  lastError: z.nullable(z.string()),
});
export type ClubStatusView = z.infer<typeof clubStatusSchema>;
