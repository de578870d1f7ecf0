/** The contracts of the member's bookings and requests, their stories, and the edit of a booking (decision 170). */
import { z } from "@hono/zod-openapi";
import { bookingSubmissionSchema } from "../../domain/booking-submission-schema.ts";
import { answer, defineRoute, jsonBody, refusals } from "../../lib/contract.ts";
import { bookingsResponseSchema, editedBookingResponseSchema, requestsResponseSchema, requestStoryResponseSchema } from "./bookings-responses.schemas.ts";
import { bookingIdParamSchema, requestIdParamSchema } from "./bookings.schemas.ts";

const tags = ["Bookings"];

export const bookingsRoutes = {
  bookings: defineRoute({
    access: "member",
    method: "get",
    path: "/my/bookings",
    tags,
    summary: "The member's confirmed bookings",
    responses: { 200: answer(bookingsResponseSchema, "The bookings, by date and time") },
  }),
  requests: defineRoute({
    access: "member",
    method: "get",
    path: "/my/requests",
    tags,
    summary: "The member's open and failed booking requests, with every post the release engine made",
    responses: { 200: answer(requestsResponseSchema, "The requests") },
  }),
  requestStory: defineRoute({
    access: "member",
    method: "get",
    path: "/my/requests/{id}/story",
    tags,
    summary: "What was tried for one of the member's requests: each post, when it left, the club's answer, the sheet after",
    request: { params: z.object({ id: requestIdParamSchema }) },
    responses: { 200: answer(requestStoryResponseSchema, "The story"), ...refusals(400, 404) },
  }),
  bookingStory: defineRoute({
    access: "member",
    method: "get",
    path: "/my/bookings/{bookingId}/story",
    tags,
    summary: "How one of the member's bookings was made: the request and its posts, or the slot watch",
    request: { params: z.object({ bookingId: bookingIdParamSchema }) },
    responses: { 200: answer(requestStoryResponseSchema, "The story"), ...refusals(400, 404) },
  }),
  edit: defineRoute({
    access: "member",
    method: "post",
    path: "/bookings/{bookingId}/edit",
    tags,
    summary: "Change a booking: other players are an edit at the club; another date, course or time books the new slot first and cancels the old one once it is confirmed",
    request: { params: z.object({ bookingId: bookingIdParamSchema }), body: jsonBody(bookingSubmissionSchema, "A booking submission") },
    responses: { 200: answer(editedBookingResponseSchema, "The booking as it now is"), ...refusals(404, 409, 502, 504) },
  }),
};
