/**
 * The availability contracts: tee times with the last scrape time, the bookable
 * dates, the booking rules bundle and the advisories. The web app checks every answer against
 * these (zod/mini: small in its bundle); the types are what the service returns.
 */
import * as z from "../../domain/zod-mini.ts";
import {
  allowedWindowsSchema,
  appSettingsSchema,
  bookingRuleSchema,
  advisorySchema,
  courseSchema,
  dateEntrySchema,
  holidaySchema,
  teeTimeDaySchema,
} from "../../domain/record-schemas.ts";

export type { DateEntry, TeeTimeDay } from "../../domain/date-kinds.ts";

/** GET /v1/tee-times. */
export const teeTimesResponseSchema = z.object({
  teeTimes: z.array(teeTimeDaySchema),
  /** Epoch ms at which the last run that stored data finished; null before the first one. */
  lastScrapeTime: z.nullable(z.number()),
});
export type TeeTimesResponse = z.infer<typeof teeTimesResponseSchema>;

/** GET /v1/system/dates. */
export const datesResponseSchema = z.array(dateEntrySchema);

/** GET /v1/system/rules. */
export const rulesResponseSchema = z.object({
  bookingRules: z.object({ rules: z.array(bookingRuleSchema), holidays: z.array(holidaySchema) }),
  courseSchedule: z.array(courseSchema),
  appSettings: appSettingsSchema,
  allowedWindows: allowedWindowsSchema,
});
export type RulesResponse = z.infer<typeof rulesResponseSchema>;

export { advisorySchema, type Advisory } from "../../domain/record-schemas.ts";

/** GET /v1/advisories. */
export const advisoriesResponseSchema = z.object({
  /** Read from the club's site, in the club's order. */
  scraped: z.array(advisorySchema),
  /** Active front-page messages written by admins, newest first. */
  internal: z.array(advisorySchema),
});
export type AdvisoriesResponse = z.infer<typeof advisoriesResponseSchema>;
