/**
 * The schemas of the live data answers, in their own module: the live-data store is part of the
 * first bundle (the session store clears it on sign-out), and the member area's chunk provides
 * these to it (web/pages/member-area.ts), so the login page never downloads them.
 */
export {
  advisoriesResponseSchema,
  datesResponseSchema,
  rulesResponseSchema,
  teeTimesResponseSchema,
} from "../../src/features/availability/availability.schemas.ts";
export { bookingsResponseSchema, requestsResponseSchema } from "../../src/features/bookings/bookings-responses.schemas.ts";
export { savedPlayersResponseSchema } from "../../src/features/players/players-responses.schemas.ts";
