/**
 * The OpenAPI document (decision 170): a valid OpenAPI 3.0 document by structure, naming every
 * route the app serves with every status its guards can answer, served to admins only. Every
 * other API test checks each answer it gets against the same contracts (test/helpers/contract-check.ts);
 * the last tests here show that check failing on an answer its contract does not allow.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OPENAPI_INFO } from "../../src/app.ts";
import { apiDocumentSchema } from "../../src/features/system/openapi.schemas.ts";
import { groupRoutes } from "../../web/features/admin/api-reference-model.ts";
import { createContractChecker } from "../helpers/contract-check.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  "x-access"?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

let t: TestApp;
let document: Document;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.signIn("admin", ADMIN_PASSWORD);
  const response = await t.call("GET", "/v1/openapi.json", { cookie: admin });
  expect(response.status).toBe(200);
  document = (await response.json()) as Document;
});
afterAll(() => t.close());

const operations = () => Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })));

/** Every `$ref` anywhere in the document. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

describe("the document", () => {
  test("is an OpenAPI 3.0 document: version, info, paths of known methods, each with described responses", () => {
    expect(document.openapi).toMatch(/^3\.0\.\d+$/);
    expect(document.info).toMatchObject({ title: OPENAPI_INFO.info.title, version: OPENAPI_INFO.info.version });
    expect(operations().length).toBeGreaterThan(40);
    for (const { path, method, operation } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(path.startsWith("/"), where).toBe(true);
      expect(METHODS, where).toContain(method);
      expect(typeof operation.summary, where).toBe("string");
      expect(Object.keys(operation.responses).length, where).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(status, where).toMatch(/^[1-5]\d\d$/);
        expect(typeof response.description, `${where} ${status}`).toBe("string");
        for (const media of Object.values(response.content ?? {})) expect(media.schema, `${where} ${status}`).toBeDefined();
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) expect(media.schema, where).toBeDefined();
    }
  });

  test("declares each path's parameters as required path parameters, and only those", () => {
    for (const { path, method, operation } of operations()) {
      const named = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (operation.parameters ?? []).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(named);
      for (const parameter of operation.parameters ?? []) {
        expect(["path", "query", "header", "cookie"]).toContain(parameter.in);
        expect(parameter.schema).toBeDefined();
        if (parameter.in === "path") expect(parameter.required).toBe(true);
      }
    }
  });

  test("every reference names a component the document has, and every error is the one error shape", () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      expect((document.components as Record<string, Record<string, unknown>>)[section]?.[name], ref).toBeDefined();
    }
    for (const { path, method, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        // The probes answer 503 with their own report: not ready is not a refusal.
        if (Number(status) < 400 || (status === "503" && ["/healthz", "/readyz"].includes(path))) continue;
        expect(response.content?.["application/json"]?.schema, `${method} ${path} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  test("says who may call each route, and a signed-in route has the session's security scheme", () => {
    expect(document.components.securitySchemes?.session).toMatchObject({ type: "apiKey", in: "cookie" });
    for (const { path, method, operation } of operations()) {
      const where = `${method} ${path}`;
      expect(["public", "member", "admin"], where).toContain(operation["x-access"] ?? "none");
      const isSignedIn = operation["x-access"] !== "public";
      expect(operation.security ?? [], where).toEqual(isSignedIn ? [{ session: [] }] : []);
    }
  });
});

describe("the routes", () => {
  test("the document names exactly the routes the app serves", () => {
    const served = new Set(
      t.app.routes.filter((route) => route.method !== "ALL" && !route.path.endsWith("*")).map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, "{$1}")}`),
    );
    const documented = new Set(operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    expect([...documented].sort()).toEqual([...served].sort());
  });

  test("each route names the statuses its guards answer: 401 and 403 behind a sign-in, 413 and 415 for a write, 421 and 500 everywhere", () => {
    for (const { path, method, operation } of operations()) {
      const statuses = Object.keys(operation.responses).map(Number);
      const where = `${method} ${path}`;
      expect(statuses, where).toEqual(expect.arrayContaining([421, 500]));
      if (operation["x-access"] !== "public") expect(statuses, where).toEqual(expect.arrayContaining([401, 403]));
      if (method !== "get") expect(statuses, where).toEqual(expect.arrayContaining([400, 403, 413, 415]));
      if (operation.parameters?.length || operation.requestBody) expect(statuses, where).toContain(400);
    }
  });

  test("the document is for admins: 401 without a session, 403 for a member", async () => {
    expect((await t.call("GET", "/v1/openapi.json")).status).toBe(401);
    await t.createUser({ username: "mia", password: "mia-pass-1" });
    const member = await t.signIn("mia", "mia-pass-1");
    expect((await t.call("GET", "/v1/openapi.json", { cookie: member })).status).toBe(403);
  });
});

describe("the admin area's API page", () => {
  test("reads every route of the real document, each answer with its shape", () => {
    const groups = groupRoutes(apiDocumentSchema.parse(document));
    const routes = groups.flatMap((group) => group.routes);
    expect(routes).toHaveLength(operations().length);
    expect(groups.map((group) => group.name)).not.toContain("");
    const watches = routes.find((route) => route.method === "POST" && route.path === "/v1/my/watches");
    expect(watches?.access).toBe("member");
    expect(watches?.takes.find((part) => part.label === "body")?.shape).toContain("fromTime: string");
    expect(watches?.answers.find((part) => part.label === "201")?.shape).toContain('mode: "book" | "notify"');
    expect(watches?.answers.find((part) => part.label === "409")?.shape).toBe("{ message: string, errorKey?: string }");
    for (const route of routes) for (const part of [...route.takes, ...route.answers]) expect(part.shape, `${route.method} ${route.path} ${part.label}`).not.toBe("any");
  });
});

describe("the check of every answer against its contract", () => {
  const checker = () => createContractChecker(t.app);
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  test("passes an answer its contract allows", async () => {
    await checker().check("GET", "/v1/my/calendar?_=1", json({ url: null, createdAt: null }));
    await checker().check("POST", "/v1/my/watches/7/cancel", new Response(null, { status: 204 }));
    await checker().check("GET", "/v1/nowhere", json({ message: "No such API route.", errorKey: "request.no_route" }, 404));
  });

  test("fails a status the contract does not name, a field it does not name, a missing field, a body on a 204 and an unknown route's 200", async () => {
    await expect(checker().check("GET", "/v1/my/calendar", json({ message: "Gone" }, 410))).rejects.toThrow("does not name status 410");
    await expect(checker().check("GET", "/v1/my/calendar", json({ url: null, createdAt: null, token: "x" }))).rejects.toThrow('Unrecognized key: "token"');
    await expect(checker().check("GET", "/v1/my/calendar", json({ url: null }))).rejects.toThrow("createdAt");
    await expect(checker().check("POST", "/v1/my/watches/7/cancel", json({}, 204))).rejects.toThrow("no body");
    await expect(checker().check("GET", "/v1/nowhere", json({}))).rejects.toThrow("no contract names this route");
    await expect(checker().check("GET", "/v1/my/players", json({ message: "x", errorKey: "y", extra: 1 }, 401))).rejects.toThrow("extra");
  });
});
