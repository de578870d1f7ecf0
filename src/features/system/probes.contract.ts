/**
 * The contracts of what a supervisor and a maintainer's tools read, outside /v1 (decisions 132,
 * 170): /healthz, /readyz and /metrics, and of the OpenAPI document itself.
 */
import { z } from "@hono/zod-openapi";
import { answer, defineRoute, errorBodySchema, json } from "../../lib/contract.ts";
import { apiDocumentSchema } from "./openapi.schemas.ts";

const tags = ["Operations"];

const passSchema = z.object({ lastPassAt: z.number().nullable(), nextPassAt: z.number().nullable(), passesPerMinute: z.number(), errors: z.number() });
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "unreachable"]),
  jobs: z.record(z.string(), z.string()).openapi({ description: "Each job's status: online, errored or stopped" }),
  errors: z.record(z.string(), z.string()).openapi({ description: "The last error of each job whose last run failed" }),
  passes: z.record(z.string(), passSchema),
});
export const readinessSchema = z.object({ ready: z.boolean(), reasons: z.array(z.string()) });

export const probeRoutes = {
  health: defineRoute({
    access: "public",
    method: "get",
    path: "/healthz",
    tags,
    summary: "Whether the process, the database and every job are alive",
    responses: { 200: json(healthSchema, "All alive"), 503: json(healthSchema, "The database does not answer, or a job has stopped") },
  }),
  ready: defineRoute({
    access: "public",
    method: "get",
    path: "/readyz",
    tags,
    summary: "Healthy and fit for what is coming: armed for a near release, the club's sheets fresh",
    responses: { 200: json(readinessSchema, "Ready"), 503: json(readinessSchema, "Not ready, and why") },
  }),
  metrics: defineRoute({
    access: "public",
    method: "get",
    path: "/metrics",
    tags,
    summary: "Prometheus metrics: open from this machine, or with `Authorization: Bearer <METRICS_TOKEN>`",
    responses: {
      200: { description: "The metrics in the Prometheus text format", content: { "text/plain": { schema: z.string() } } },
      403: json(errorBodySchema, "Neither from this machine nor with the token"),
    },
  }),
};

export const documentRoutes = {
  openapi: defineRoute({
    access: "admin",
    method: "get",
    path: "/openapi.json",
    tags,
    summary: "This document: every route Teebox serves, with its input and every answer",
    responses: { 200: answer(apiDocumentSchema, "An OpenAPI 3.0 document") },
  }),
};
