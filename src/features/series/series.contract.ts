/**
 * The contracts of the standing-request calls (decision 170): what each takes, who may call it,
 * and every answer it can give.
 */
import { z } from "@hono/zod-openapi";
import { answer, defineRoute, jsonBody, noContent, refusals } from "../../lib/contract.ts";
import { occurrenceChangeSchema, occurrenceDateParamSchema, seriesIdParamSchema, seriesInputSchema } from "./series-input.ts";
import { seriesAnswerSchema, seriesListSchema } from "./series.schemas.ts";

const tags = ["Standing requests"];
const occurrenceParams = z.object({ id: seriesIdParamSchema, date: occurrenceDateParamSchema });

export const seriesRoutes = {
  list: defineRoute({
    access: "member",
    method: "get",
    path: "/my/series",
    tags,
    summary: "The member's standing requests, each with its next dates and their states",
    responses: { 200: answer(seriesListSchema, "The member's standing requests, active first") },
  }),
  create: defineRoute({
    access: "member",
    method: "post",
    path: "/my/series",
    tags,
    summary: "Set a standing request: weekdays, a course or any, times or a range, the players, first and last date, dates to skip",
    request: { body: jsonBody(seriesInputSchema) },
    responses: { 201: answer(seriesAnswerSchema, "The new standing request, its dates that can be queued already queued"), ...refusals(400) },
  }),
  change: defineRoute({
    access: "member",
    method: "put",
    path: "/my/series/{id}",
    tags,
    summary: "Change a standing request: every date not yet released follows it",
    request: { params: z.object({ id: seriesIdParamSchema }), body: jsonBody(seriesInputSchema) },
    responses: { 200: answer(seriesAnswerSchema, "The changed standing request"), ...refusals(400, 404, 409) },
  }),
  end: defineRoute({
    access: "member",
    method: "post",
    path: "/my/series/{id}/end",
    tags,
    summary: "End a standing request: every date not yet released is cancelled",
    request: { params: z.object({ id: seriesIdParamSchema }), body: jsonBody(z.strictObject({}), "Nothing but an empty object") },
    responses: { 204: noContent("Ended"), ...refusals(404, 409) },
  }),
  skip: defineRoute({
    access: "member",
    method: "post",
    path: "/my/series/{id}/occurrences/{date}/skip",
    tags,
    summary: "Skip one date of a standing request (its request is cancelled unless released)",
    request: { params: occurrenceParams, body: jsonBody(z.strictObject({}), "Nothing but an empty object") },
    responses: { 204: noContent("Skipped"), ...refusals(400, 404, 409) },
  }),
  changeDate: defineRoute({
    access: "member",
    method: "post",
    path: "/my/series/{id}/occurrences/{date}/change",
    tags,
    summary: "Give one date of a standing request its own times",
    request: { params: occurrenceParams, body: jsonBody(occurrenceChangeSchema) },
    responses: { 204: noContent("Changed"), ...refusals(400, 404, 409) },
  }),
};
