import { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { currentUser } from "../../lib/middleware.ts";
import { readBody, readParam } from "../../lib/validate.ts";
import { bookingIdParamSchema, requestIdParamSchema } from "./bookings.schemas.ts";
import { bookingStory, requestStory } from "./bookings-story.ts";
import { listBookings, listRequests } from "./bookings.service.ts";
import { editBooking } from "./bookings-edit.ts";
import { syncMemberSoon } from "./bookings.actions.ts";

/** GET /v1/my/bookings, GET /v1/my/requests and their stories: the member's own, never anyone else's. */
export function createMyBookingsRoutes() {
  return new Hono<AppEnv>()
    .get("/bookings", async (c) => {
      const user = currentUser(c);
      c.header("cache-control", "no-store");
      return c.json(await listBookings(c.get("deps").database.db, user.id));
    })
    .get("/requests", async (c) => {
      const user = currentUser(c);
      c.header("cache-control", "no-store");
      return c.json(await listRequests(c.get("deps").database.db, user.id));
    })
    .get("/requests/:id/story", async (c) => {
      const user = currentUser(c);
      c.header("cache-control", "no-store");
      return c.json(await requestStory(c.get("deps").database.db, user.id, readParam(c, "id", requestIdParamSchema)));
    })
    .get("/bookings/:bookingId/story", async (c) => {
      const user = currentUser(c);
      c.header("cache-control", "no-store");
      return c.json(await bookingStory(c.get("deps").database.db, user.id, readParam(c, "bookingId", bookingIdParamSchema)));
    });
}

/** POST /v1/bookings/{bookingId}/edit with a booking submission. */
export function createBookingsRoutes() {
  return new Hono<AppEnv>().post("/:bookingId/edit", async (c) => {
    const user = currentUser(c);
    const deps = c.get("deps");
    const bookingId = readParam(c, "bookingId", bookingIdParamSchema);
    const payload = await readBody(c);
    const booking = await editBooking(deps, user, bookingId, payload);
    syncMemberSoon(deps, user.id);
    return c.json({ booking });
  });
}
