/**
 * The one input-validation helper: parses with zod and answers 400 `{ message, errorKey }`
 * naming the first problem, so every route and socket action rejects bad input the same way.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { AppError, badRequest } from "./errors.ts";

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input.";
  // Messages written for members (ending with a period) stand alone; zod's own get the field name.
  if (/[.!]$/.test(issue.message)) return issue.message;
  const path = issue.path.join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, errorKey = "validation.invalid"): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeIssue(result.error), errorKey);
  return result.data;
}

/** Reads the JSON body of a request and validates it. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    const text = await c.req.text();
    body = text === "" ? {} : JSON.parse(text);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest("The request body is not valid JSON.", "validation.bad_json");
  }
  return parseWith(schema, body);
}

export function readParam<S extends z.ZodType>(c: Context, name: string, schema: S): z.infer<S> {
  return parseWith(schema, c.req.param(name), "validation.bad_param");
}
