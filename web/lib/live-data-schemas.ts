/**
 * The schemas of the live data answers, in their own module: the live-data store is part of the
 * first bundle (the session store clears it on sign-out), and the member area's chunk provides
 * these to it (web/pages/member-area.ts), so the login page never downloads them.
 */
import { teeTimeDaySchema } from "../../src/domain/record-schemas.ts";
import * as z from "../../src/domain/zod-mini.ts";

/**
 * GET /v1/tee-times as the store first reads it: the days are then checked one at a time
 * (teeTimeDaySchema, with web/lib/api.ts checkListInSlices), the sheet being the largest answer.
 * Together the two check what teeTimesResponseSchema does.
 */
export const teeTimesEnvelopeSchema = z.object({ teeTimes: z.array(z.unknown()), lastScrapeTime: z.nullable(z.number()) });
export { teeTimeDaySchema };

export {
  advisoriesResponseSchema,
  datesResponseSchema,
  rulesResponseSchema,
} from "../../src/features/availability/availability.schemas.ts";
export { bookingsResponseSchema, requestsResponseSchema } from "../../src/features/bookings/bookings-responses.schemas.ts";
export { savedPlayersResponseSchema } from "../../src/features/players/players-responses.schemas.ts";
