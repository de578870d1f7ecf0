/** The contracts of playing partners' calls (decision 170, decision 200). */
import { z } from "@hono/zod-openapi";
import { answer, defineRoute, jsonBody, refusals } from "../../lib/contract.ts";
import { answerInputSchema, invitationIdParamSchema, invitationSettingInputSchema, overlapsQuerySchema } from "./partners-input.ts";
import { answerResponseSchema, invitationSettingResponseSchema, invitationsResponseSchema, overlapsResponseSchema } from "./partners.schemas.ts";

const tags = ["Playing partners"];

export const partnersRoutes = {
  list: defineRoute({
    access: "member",
    method: "get",
    path: "/my/invitations",
    tags,
    summary: "The invitations the member received (with the booking once made) and the answers to those they sent, from today on, and whom they take invitations from",
    responses: { 200: answer(invitationsResponseSchema, "The invitations") },
  }),
  answer: defineRoute({
    access: "member",
    method: "post",
    path: "/my/invitations/{id}/answer",
    tags,
    summary: "Accept or decline an invitation; a partner who declines leaves the flight before the release",
    request: { params: z.object({ id: invitationIdParamSchema }), body: jsonBody(answerInputSchema) },
    responses: { 200: answer(answerResponseSchema, "The invitation as answered"), ...refusals(400, 404, 409) },
  }),
  setting: defineRoute({
    access: "member",
    method: "put",
    path: "/my/invitations/settings",
    tags,
    summary: "Whom the member takes invitations from: anyone, only members on their saved players list, or nobody",
    request: { body: jsonBody(invitationSettingInputSchema) },
    responses: { 200: answer(invitationSettingResponseSchema, "The setting as saved"), ...refusals(400) },
  }),
  overlaps: defineRoute({
    access: "member",
    method: "get",
    path: "/my/partners/overlaps",
    tags,
    summary: "Which members of a flight being composed are already in another flight that day at an overlapping time",
    request: { query: overlapsQuerySchema },
    responses: { 200: answer(overlapsResponseSchema, "The members in another flight, with its tee time"), ...refusals(400) },
  }),
};
