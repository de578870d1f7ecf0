/** The contracts of the private calendar address and its feed (decision 170). */
import { z } from "@hono/zod-openapi";
import { answer, defineRoute, json, errorBodySchema, jsonBody } from "../../lib/contract.ts";
import { calendarAddressResponseSchema } from "./calendar.schemas.ts";

const tags = ["Calendar"];

export const calendarRoutes = {
  address: defineRoute({
    access: "member",
    method: "get",
    path: "/my/calendar",
    tags,
    summary: "The member's private calendar address, if one was made",
    responses: { 200: answer(calendarAddressResponseSchema, "The address, or nulls") },
  }),
  renew: defineRoute({
    access: "member",
    method: "post",
    path: "/my/calendar",
    tags,
    summary: "Make a new private calendar address; the old one stops working at once",
    request: { body: jsonBody(z.strictObject({}), "Nothing but an empty object") },
    responses: { 200: answer(calendarAddressResponseSchema, "The new address") },
  }),
  feed: defineRoute({
    access: "public",
    method: "get",
    path: "/calendar/{file}",
    tags,
    summary: "The iCalendar feed of a private address (`<token>.ics`): confirmed bookings and pending requests' release instants; the token is the credential",
    // The feed checks its token itself: an unknown file is a 404 like an unknown token.
    request: { params: z.object({ file: z.string() }) },
    responses: {
      200: { description: "The feed", content: { "text/calendar": { schema: z.string() } } },
      404: json(errorBodySchema, "No such address (never made, or replaced)"),
    },
  }),
};
