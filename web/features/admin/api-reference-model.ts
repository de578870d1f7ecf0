/**
 * The API page's reading of the OpenAPI document: its routes grouped as the document tags them,
 * and each JSON schema written the short way a person reads it (`{ id: number, name?: string }`).
 */
import type { ApiDocument, ApiOperation } from "../../../src/features/system/openapi.schemas.ts";

export interface RoutePart {
  /** Where the input goes (path, query, body) or the answer's status. */
  label: string;
  description: string | null;
  /** The shape in short, or null when there is no body. */
  shape: string | null;
}

export interface RouteEntry {
  method: string;
  path: string;
  summary: string;
  access: string;
  takes: RoutePart[];
  answers: RoutePart[];
}

export interface RouteGroupEntry {
  name: string;
  routes: RouteEntry[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** How deep a shape is written out; deeper parts are shown as `{…}`. */
const MAX_DEPTH = 4;

/** A JSON schema in short: objects with their fields (`?` when optional), lists, maps, choices, `| null`. */
export function describeSchema(schema: unknown, components: Json = {}, depth = 0): string {
  if (!isObject(schema)) return "any";
  const nullable = schema.nullable === true ? " | null" : "";
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop() ?? schema.$ref;
    return depth >= MAX_DEPTH || !isObject(components[name]) ? name : describeSchema(components[name], components, depth);
  }
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ") + nullable;
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map((option) => describeSchema(option, components, depth)).join(" | ") + nullable;
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((part) => describeSchema(part, components, depth)).join(" & ") + nullable;
  if (schema.type === "array") return `${wrapped(describeSchema(schema.items, components, depth + 1))}[]${nullable}`;
  if (schema.type === "object" || isObject(schema.properties) || schema.additionalProperties !== undefined) return describeObject(schema, components, depth) + nullable;
  if (typeof schema.type === "string") return (schema.type === "integer" ? "number" : schema.type) + nullable;
  return "any";
}

/** A choice in a list needs brackets (`(string | number)[]`); a choice inside an object's braces does not. */
function wrapped(shape: string): string {
  let depth = 0;
  for (let i = 0; i < shape.length; i++) {
    const c = shape[i];
    if (c === "{" || c === "(") depth += 1;
    else if (c === "}" || c === ")") depth -= 1;
    else if (depth === 0 && (shape.startsWith(" | ", i) || shape.startsWith(" & ", i))) return `(${shape})`;
  }
  return shape;
}

function describeObject(schema: Json, components: Json, depth: number): string {
  if (depth >= MAX_DEPTH) return "{…}";
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.entries(properties).map(([name, field]) => `${name}${required.has(name) ? "" : "?"}: ${describeSchema(field, components, depth + 1)}`);
  if (isObject(schema.additionalProperties)) fields.push(`[key]: ${describeSchema(schema.additionalProperties, components, depth + 1)}`);
  else if (schema.additionalProperties === true && fields.length === 0) fields.push("[key]: any");
  return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
}

function jsonSchemaOf(content: Record<string, { schema?: unknown }> | undefined): { type: string; schema: unknown } | null {
  const [type, media] = Object.entries(content ?? {})[0] ?? [];
  return type ? { type, schema: media?.schema } : null;
}

function inputsOf(operation: ApiOperation, components: Json): RoutePart[] {
  const parts: RoutePart[] = (operation.parameters ?? []).map((parameter) => ({
    label: `${parameter.in} ${parameter.name}${parameter.required ? "" : "?"}`,
    description: null,
    shape: describeSchema(parameter.schema, components),
  }));
  const body = jsonSchemaOf(operation.requestBody?.content);
  if (body) parts.push({ label: "body", description: operation.requestBody?.description ?? describedBy(body.schema), shape: describeSchema(body.schema, components) });
  return parts;
}

const describedBy = (schema: unknown) => (isObject(schema) && typeof schema.description === "string" ? schema.description : null);

function answersOf(operation: ApiOperation, components: Json): RoutePart[] {
  return Object.entries(operation.responses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, response]) => {
      const body = jsonSchemaOf(response.content);
      const shape = body ? (body.type === "application/json" ? describeSchema(body.schema, components) : body.type) : null;
      return { label: status, description: response.description ?? null, shape };
    });
}

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

/** Every route of the document, in groups by their first tag, each group's routes by path then method. */
export function groupRoutes(document: ApiDocument): RouteGroupEntry[] {
  const components = document.components?.schemas ?? {};
  const groups = new Map<string, RouteEntry[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHOD_ORDER.includes(method)) continue;
      const name = operation.tags?.[0] ?? "";
      const routes = groups.get(name) ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? "",
        access: operation["x-access"] ?? "public",
        takes: inputsOf(operation, components),
        answers: answersOf(operation, components),
      });
      groups.set(name, routes);
    }
  }
  const byPath = (a: RouteEntry, b: RouteEntry) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method.toLowerCase()) - METHOD_ORDER.indexOf(b.method.toLowerCase());
  return [...groups].map(([name, routes]) => ({ name, routes: routes.sort(byPath) })).sort((a, b) => a.name.localeCompare(b.name));
}
