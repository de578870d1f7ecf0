/**
 * Every answer an API test gets is checked against its route's contract (decision 170): the route
 * must document the status, and a JSON answer must match that status's schema strictly (no field
 * the contract does not name), a 204 must be empty, a text answer must say its type. An answer to
 * a path no contract names must be the app's 404. test/helpers/api.ts runs this on every `call`.
 */
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { z } from "zod";
import { documented } from "../../src/lib/answer-schemas.ts";

interface ContractRoute {
  method: string;
  path: string;
  pattern: RegExp;
  /** Fixed segments count first, so /my/requests/check is not read as /my/requests/{id}. */
  fixedSegments: number;
  responses: RouteConfig["responses"];
}

type MediaContent = Record<string, { schema?: unknown } | undefined>;

/** What a path no route has can answer: 404, or a guard's refusal (host, JSON, origin, size) before it. */
const UNROUTED_STATUSES = [403, 404, 413, 415, 421];

function toPattern(path: string): RegExp {
  const escaped = path.split("/").map((segment) => (/^\{.+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^$()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${escaped.join("/")}$`);
}

export interface ContractChecker {
  /** The contract of a request, or null when no route has one. */
  routeOf(method: string, path: string): ContractRoute | null;
  /** Throws an Error naming the problem when the answer breaks its contract. */
  check(method: string, url: string, response: Response): Promise<void>;
}

export function createContractChecker(app: OpenAPIHono<never> | { openAPIRegistry: OpenAPIHono["openAPIRegistry"] }): ContractChecker {
  const routes: ContractRoute[] = app.openAPIRegistry.definitions
    .flatMap((definition) => (definition.type === "route" ? [definition.route] : []))
    .map((route) => ({
      method: route.method.toUpperCase(),
      path: route.path,
      pattern: toPattern(route.path),
      fixedSegments: route.path.split("/").filter((segment) => segment && !segment.startsWith("{")).length,
      responses: route.responses,
    }))
    .sort((a, b) => b.fixedSegments - a.fixedSegments);
  const strictSchemas = new Map<unknown, z.ZodType>();
  const strictOf = (schema: unknown) => {
    let strict = strictSchemas.get(schema);
    if (!strict) {
      strict = documented(schema as z.ZodType, { strict: true }) as z.ZodType;
      strictSchemas.set(schema, strict);
    }
    return strict;
  };

  const routeOf = (method: string, path: string) => routes.find((route) => route.method === method.toUpperCase() && route.pattern.test(path)) ?? null;

  return {
    routeOf,
    async check(method, url, response) {
      const path = new URL(url, "http://localhost").pathname;
      const where = `${method} ${path} answered ${response.status}`;
      const route = routeOf(method, path);
      const text = await response.clone().text();
      if (!route) {
        // A path no route has: the app's 404, unless a guard in front of every route answered first.
        if (!UNROUTED_STATUSES.includes(response.status)) throw new Error(`${where}, but no contract names this route`);
        return;
      }
      const answer = route.responses[String(response.status)] as { content?: MediaContent } | undefined;
      if (!answer)
        throw new Error(`${where}: the contract of ${route.method} ${route.path} does not name status ${response.status} (it names ${Object.keys(route.responses).join(", ")})`);
      const content = answer.content;
      if (!content) {
        if (text !== "") throw new Error(`${where}: the contract says no body, the answer has ${text.length} characters`);
        return;
      }
      const type = response.headers.get("content-type") ?? "";
      const mediaType = Object.keys(content).find((name) => type.toLowerCase().startsWith(name));
      if (!mediaType) throw new Error(`${where} as ${type || "no type"}; the contract says ${Object.keys(content).join(" or ")}`);
      if (mediaType !== "application/json") return;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`${where}: the answer is not JSON`);
      }
      const checked = strictOf(content[mediaType]?.schema).safeParse(body);
      if (!checked.success) {
        const problems = checked.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || "(the answer)"}: ${issue.message}`);
        throw new Error(`${where}, which does not match its contract (${route.method} ${route.path}):\n  ${problems.join("\n  ")}`);
      }
    },
  };
}
