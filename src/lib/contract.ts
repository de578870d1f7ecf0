/**
 * A contract per route (decision 170): method, path, who may call it, its request schemas and a
 * response schema for every status it can answer, written with @hono/zod-openapi's createRoute.
 * From the contracts come the OpenAPI document (/v1/openapi.json), the handlers' input and answer
 * types, the web app's request and answer types (type-only imports, web/lib/api.ts), and the tests'
 * check of every answer (test/helpers/contract-check.ts).
 *
 * Inputs are checked by the project's one helper (src/lib/validate.ts) against the contract's
 * schemas, before the handler runs: a refusal is 400 `{ message, errorKey }` in UI text, never in
 * zod's words, exactly as before the contracts. (OpenAPIHono's own validators are not used: they
 * would answer in other words and read bodies differently.)
 */
import { createRoute, OpenAPIHono, z, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { Context, Handler, MiddlewareHandler, TypedResponse } from "hono";
import type { Shape } from "../domain/shape-check.ts";
import type { AppEnv } from "../deps.ts";
import type { core } from "zod";
import { documented } from "./answer-schemas.ts";
import type { ErrorStatus } from "./errors.ts";
import { requireOwnPassword, requireRole, requireUser } from "./middleware.ts";
import { readJson, readParams, readQuery } from "./validate.ts";

/** Who may call a route: anyone, a signed-in member (any role), or an admin. */
export type Access = "public" | "member" | "admin";

/** The one error shape (src/lib/errors.ts), registered once as a component of the document. */
export const errorBodySchema = z
  .object({
    message: z.string().openapi({ description: "The problem in the default wording of its UI text." }),
    errorKey: z.string().optional().openapi({ description: "The UI-text key of the problem, for the member's own wording." }),
  })
  .openapi("Error");

const ERROR_MEANINGS: Record<ErrorStatus, string> = {
  400: "The input was refused: the first problem, told in UI text",
  401: "Not signed in",
  403: "Not allowed: another role, a password still to choose, or a page that is not ours",
  404: "Not found (or not the caller's)",
  409: "In conflict with what is stored or running",
  413: "The request is too large",
  415: "Not sent as JSON",
  421: "A host name Teebox does not answer for",
  429: "Too many tries: wait for Retry-After seconds",
  500: "An unexpected error",
  502: "The club answered with an error",
  503: "Not ready",
  504: "The club did not answer in time",
};

type JsonContent<S extends z.ZodType> = { "application/json": { schema: S } };
export type JsonAnswer<S extends z.ZodType> = { description: string; content: JsonContent<S> };
type ErrorAnswer = JsonAnswer<typeof errorBodySchema>;
type ErrorAnswers<S extends ErrorStatus> = { [K in S]: ErrorAnswer };

/** A JSON answer with a classic zod schema (one the web app does not check). */
export function json<S extends z.ZodType>(schema: S, description: string): JsonAnswer<S> {
  return { description, content: { "application/json": { schema } } };
}

/**
 * A JSON answer whose schema is built when it is first read: by the document or the tests' check
 * of an answer, never by serving one. Built for every route as the contracts load, they took a
 * tenth of the binary's start (decision 194).
 */
function lazyJson<S extends z.ZodType>(build: () => S, description: string): JsonAnswer<S> {
  let schema: S | undefined;
  return {
    description,
    content: {
      "application/json": {
        get schema() {
          return (schema ??= build());
        },
      },
    },
  };
}

/** A JSON answer the web app checks with `schema` (zod/mini or the shape checker): the same schema, documented. */
export function answer<S extends core.$ZodType | Shape<unknown>>(schema: S, description: string) {
  return lazyJson(() => documented(schema), description);
}

/** An answer without a body (204). */
export function noContent(description: string): { description: string } {
  return { description };
}

/** The error answers of these statuses, for a route's own refusals. */
export function refusals<const S extends ErrorStatus[]>(...statuses: S): ErrorAnswers<S[number]> {
  return Object.fromEntries(statuses.map((status) => [status, json(errorBodySchema, ERROR_MEANINGS[status])])) as ErrorAnswers<S[number]>;
}

/** A JSON request body. */
export function jsonBody<S extends z.ZodType>(schema: S, description?: string) {
  return { description, required: true, content: { "application/json": { schema } } } as const;
}

/** The schema a body is read with, where it is not the one the document shows (ruledBody). */
const readAs = new WeakMap<object, z.ZodType>();

/**
 * A body whose fields are checked by a domain rule that tells each problem in its own words (the
 * admin area's rules in src/domain/admin-checks.ts, the settings' merge): documented and typed as
 * `shape`; here it is only read as JSON (`loose`: an object unless said otherwise), and the rule
 * checks it in the handler, as before the contracts.
 */
export function ruledBody<S extends z.ZodType>(shape: S, rule: string, loose: z.ZodType = z.record(z.string(), z.unknown())) {
  // Typed as what a caller sends (the shape), read by the handler as the JSON object it is.
  type Body = z.ZodType<Record<string, unknown>, z.input<S>>;
  // The fields are written out for the document only, when it is made; a request is read with `loose`.
  let documentedBody: Body | undefined;
  const body = {
    description: undefined,
    required: true,
    content: {
      "application/json": {
        get schema(): Body {
          const fields = () => z.toJSONSchema(shape, { target: "openapi-3.0", io: "input" }) as Record<string, unknown>;
          documentedBody ??= loose.openapi({ ...fields(), description: `Checked by ${rule}.` }) as unknown as Body;
          return documentedBody;
        },
      },
    },
  } as const;
  readAs.set(body, loose);
  return body;
}

/**
 * The statuses a route can answer before its handler runs: the guards in front of every route
 * (src/app.ts, src/lib/middleware.ts), its access guard, and the check of its input.
 */
function guardStatuses(spec: RouteSpec): ErrorStatus[] {
  const statuses: ErrorStatus[] = [421, 500];
  if (spec.access !== "public") statuses.push(401, 403);
  // Writes must be JSON from one of our pages, within the body limit; a body that is not JSON is a 400.
  if (spec.method !== "get") statuses.push(400, 403, 413, 415);
  if (spec.request?.params || spec.request?.query || spec.request?.body) statuses.push(400);
  return [...new Set(statuses)].sort();
}

type GuardStatus = 400 | 401 | 403 | 413 | 415 | 421 | 500;

export type RouteSpec = RouteConfig & {
  access: Access;
  /** The body is read by the handler (with validate.ts and this schema) after checks that must come first. */
  readsBodyItself?: true;
};

export type TeeboxRoute<R extends RouteSpec = RouteSpec> = R & { responses: R["responses"] & ErrorAnswers<GuardStatus>; getRoutingPath(): string };

/**
 * A route's contract. The error answers its guards can give are added to the ones it names, and
 * the access is written into the document (`security` and `x-access`).
 */
export function defineRoute<const R extends RouteSpec>(spec: R): TeeboxRoute<R> {
  const errors = refusals(...guardStatuses(spec));
  const security = spec.access === "public" ? [] : [{ session: [] }];
  return createRoute({ security, "x-access": spec.access, ...spec, responses: { ...errors, ...spec.responses } }) as unknown as TeeboxRoute<R>;
}

function accessGuards(access: Access): MiddlewareHandler<AppEnv>[] {
  if (access === "member") return [requireUser, requireOwnPassword];
  if (access === "admin") return [requireRole("admin", "superadmin"), requireOwnPassword];
  return [];
}

type BodySchema = { content?: Record<string, { schema?: unknown } | undefined> } | undefined;

/**
 * A JSON answer that is already serialised (the tee sheet is cached as JSON text, src/services/
 * kept-answers.ts), typed as the contract's answer `T` it was serialised from.
 */
export function serialisedJson<T>(c: Context, bytes: Uint8Array<ArrayBuffer>): TypedResponse<T, 200, "json"> {
  return c.body(bytes, 200, { "content-type": "application/json" }) as unknown as TypedResponse<T, 200, "json">;
}

/** Checks a request's path parameters, query and body against its contract with the one validation helper. */
function checkInput(route: RouteSpec): MiddlewareHandler<AppEnv> | null {
  const params = route.request?.params;
  const query = route.request?.query;
  const request = route.readsBodyItself ? undefined : (route.request?.body as BodySchema);
  const body = request && (readAs.get(request) ?? request.content?.["application/json"]?.schema);
  if (!params && !query && !body) return null;
  return async (c, next) => {
    if (params) c.req.addValidatedData("param", readParams(c, params) as object);
    if (query) c.req.addValidatedData("query", readQuery(c, query) as object);
    // Hono keeps validated input as objects; a body a rule reads may be any JSON value (the UI texts').
    if (body) c.req.addValidatedData("json", (await readJson(c, body as z.ZodType)) as object);
    await next();
  };
}

/**
 * A group of routes: an OpenAPIHono whose routes are added with their contracts. Each route gets
 * its access guards and its input check; its contract goes into the group's part of the document.
 */
export class RouteGroup extends OpenAPIHono<AppEnv> {
  handle<R extends TeeboxRoute>(route: R, handler: RouteHandler<R, AppEnv>): this {
    const { access, readsBodyItself: _itself, ...config } = route;
    this.openAPIRegistry.registerPath(config as RouteConfig);
    const input = checkInput(route);
    const steps = [...accessGuards(access), ...(input ? [input] : [])];
    this.on([route.method.toUpperCase()], [route.getRoutingPath()], ...steps, handler as unknown as Handler<AppEnv>);
    return this;
  }
}

export function routeGroup(): RouteGroup {
  return new RouteGroup();
}
