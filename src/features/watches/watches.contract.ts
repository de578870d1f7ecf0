/**
 * The contracts of the slot-watch calls and the readiness check (decision 170): what each takes,
 * who may call it, and every answer it can give.
 */
import { z } from "@hono/zod-openapi";
import { answer, defineRoute, jsonBody, noContent, refusals } from "../../lib/contract.ts";
import { createWatchSchema, watchIdParamSchema } from "./watches-input.ts";
import { readinessResultSchema, watchCreatedSchema, watchesResponseSchema } from "./watches.schemas.ts";

const tags = ["Slot watches"];

export const watchesRoutes = {
  list: defineRoute({
    access: "member",
    method: "get",
    path: "/my/watches",
    tags,
    summary: "The member's slot watches, with what each found or why it ended and every post it tried",
    responses: { 200: answer(watchesResponseSchema, "The member's watches") },
  }),
  create: defineRoute({
    access: "member",
    method: "post",
    path: "/my/watches",
    tags,
    summary: "Watch for a free slot: checked as a booking request is, at the first and the last time of the range",
    request: { body: jsonBody(createWatchSchema) },
    responses: { 201: answer(watchCreatedSchema, "The new watch"), ...refusals(400, 409) },
  }),
  cancel: defineRoute({
    access: "member",
    method: "post",
    path: "/my/watches/{id}/cancel",
    tags,
    summary: "End one of the member's active watches",
    request: { params: z.object({ id: watchIdParamSchema }) },
    responses: { 204: noContent("Ended"), ...refusals(404, 409) },
  }),
  checkRequests: defineRoute({
    access: "member",
    method: "post",
    path: "/my/requests/check",
    tags,
    summary: "Check the member's pending requests now, as if each were released (signs in at the club)",
    request: { body: jsonBody(z.strictObject({}), "Nothing but an empty object") },
    responses: { 200: answer(readinessResultSchema, "How many requests were checked and how many have a problem"), ...refusals(429) },
  }),
};
