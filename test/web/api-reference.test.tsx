import "../helpers/dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { fireEvent, render, within } from "@testing-library/react";
import { ApiReferenceTab } from "../../web/features/admin/api-reference.tsx";
import { describeSchema } from "../../web/features/admin/api-reference-model.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";

const ERROR = { $ref: "#/components/schemas/Error" };
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Teebox", version: "1" },
  components: { schemas: { Error: { type: "object", properties: { message: { type: "string" }, errorKey: { type: "string" } }, required: ["message"] } } },
  paths: {
    "/v1/my/watches/{id}/cancel": {
      post: {
        summary: "End one of the member's active watches",
        tags: ["Slot watches"],
        "x-access": "member",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
        responses: { "204": { description: "Ended" }, "404": { description: "Not found", content: { "application/json": { schema: ERROR } } } },
      },
    },
    "/v1/my/watches": {
      get: {
        summary: "The member's slot watches",
        tags: ["Slot watches"],
        "x-access": "member",
        responses: {
          "200": {
            description: "The member's watches",
            content: {
              "application/json": {
                schema: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: { id: { type: "number" }, mode: { type: "string", enum: ["book", "notify"] }, course: { type: "string", nullable: true } },
                    required: ["id", "mode"],
                  },
                },
              },
            },
          },
        },
      },
    },
    "/healthz": {
      get: {
        summary: "Whether all is alive",
        tags: ["Operations"],
        "x-access": "public",
        responses: {
          "200": { description: "All alive", content: { "application/json": { schema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] } } } },
        },
      },
    },
  },
};

afterEach(() => restoreFetch());

describe("the API tab", () => {
  test("lists every route by group with its method, path, summary and who may call it; a route opens to its inputs and answers", async () => {
    const calls = mockFetch((call) => (call.url.startsWith("/v1/openapi.json") ? jsonResponse(DOCUMENT) : undefined));
    const view = render(<ApiReferenceTab />);
    const watches = await view.findByRole("region", { name: "Slot watches" });
    expect(calls.map((c) => c.url)).toContain("/v1/openapi.json");
    expect(within(watches).getByText("2 routes")).toBeTruthy();
    const routes = within(watches).getAllByTestId("api-route");
    expect(routes.map((r) => r.querySelector("summary")?.textContent)).toEqual([
      "GET /v1/my/watchesThe member's slot watches (signed-in members)",
      "POST /v1/my/watches/{id}/cancelEnd one of the member's active watches (signed-in members)",
    ]);
    fireEvent.click(routes[0].querySelector("summary") as HTMLElement);
    expect(within(routes[0]).getByText('{ id: number, mode: "book" | "notify", course?: string | null }[]')).toBeTruthy();
    expect(within(routes[0]).getByText("Nothing")).toBeTruthy();
    expect(within(routes[1]).getByText("path id")).toBeTruthy();
    expect(within(routes[1]).getByText("no body")).toBeTruthy();
    expect(within(routes[1]).getByText("{ message: string, errorKey?: string }")).toBeTruthy();
    expect(view.getByRole("region", { name: "Operations" })).toBeTruthy();
    expect(view.getByRole("link", { name: "The OpenAPI document" }).getAttribute("href")).toBe("/v1/openapi.json");
  });

  test("says so when the document cannot be read", async () => {
    mockFetch((call) => (call.url.startsWith("/v1/openapi.json") ? jsonResponse({ message: "Not allowed.", errorKey: "auth.forbidden" }, 403) : undefined));
    const view = render(<ApiReferenceTab />);
    expect((await view.findByRole("alert")).textContent).toBe("Could not load the API description (403). Not allowed.");
  });
});

describe("a schema in short", () => {
  test("objects, optional fields, lists, maps, choices, null, references and a depth limit", () => {
    const components = { Error: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } };
    expect(describeSchema({ type: "object", additionalProperties: { type: "boolean" } })).toBe("{ [key]: boolean }");
    expect(describeSchema({ anyOf: [{ type: "string" }, { type: "integer" }] })).toBe("string | number");
    expect(describeSchema({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe("(string | number)[]");
    expect(describeSchema({ $ref: "#/components/schemas/Error" }, components)).toBe("{ message: string }");
    expect(
      describeSchema({
        type: "object",
        properties: { a: { type: "object", properties: { b: { type: "object", properties: { c: { type: "object", properties: { d: { type: "object", properties: {} } } } } } } } },
      }),
    ).toBe("{ a?: { b?: { c?: { d?: {…} } } } }");
    expect(describeSchema(undefined)).toBe("any");
  });
});
