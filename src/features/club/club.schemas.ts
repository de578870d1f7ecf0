/** What GET /v1/system/club answers (admins): checked by the web app before it trusts it. */
import * as z from "../../domain/zod-mini.ts";

export const clubStatusSchema = z.object({
  mode: z.enum(["demo", "live"]),
  url: z.string(),
  reachable: z.boolean(),
  lastError: z.nullable(z.string()),
  /** How the club writes numeric dates (CLUB_DATE_ORDER): day first, month first, or not read. */
  numericDateOrder: z.optional(z.nullable(z.enum(["dmy", "mdy"]))),
});
export type ClubStatusView = z.infer<typeof clubStatusSchema>;
