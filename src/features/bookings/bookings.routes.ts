import type { AppDeps } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { bookingsRoutes } from "./bookings.contract.ts";
import { bookingStory, requestStory } from "./bookings-story.ts";
import { listBookings, listRequests } from "./bookings.service.ts";
import { editBooking, type EditBookingDeps } from "./bookings-edit.ts";
import { syncMemberSoon } from "./bookings.actions.ts";

/** GET /v1/my/bookings, GET /v1/my/requests and their stories: the member's own, never anyone else's. */
export function createMyBookingsRoutes(deps: Pick<AppDeps, "database">) {
  const { db } = deps.database;
  return routeGroup()
    .handle(bookingsRoutes.bookings, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await listBookings(db, currentUser(c).id), 200);
    })
    .handle(bookingsRoutes.requests, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await listRequests(db, currentUser(c).id), 200);
    })
    .handle(bookingsRoutes.requestStory, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await requestStory(db, currentUser(c).id, c.req.valid("param").id), 200);
    })
    .handle(bookingsRoutes.bookingStory, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await bookingStory(db, currentUser(c).id, c.req.valid("param").bookingId), 200);
    });
}

/** POST /v1/bookings/{bookingId}/edit with a booking submission. */
export function createBookingsRoutes(deps: EditBookingDeps & Pick<AppDeps, "bookingsSync">) {
  return routeGroup().handle(bookingsRoutes.edit, async (c) => {
    const user = currentUser(c);
    const booking = await editBooking(deps, user, c.req.valid("param").bookingId, c.req.valid("json"));
    syncMemberSoon(deps, user.id);
    return c.json({ booking }, 200);
  });
}
