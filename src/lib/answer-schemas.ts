/**
 * The answers' schemas as the OpenAPI document and the route contracts need them. The web app
 * checks answers with zod/mini schemas and, on its first screen, the domain's shape checker
 * (decision 020): small in its bundle, but the OpenAPI generator reads only classic zod. Rather
 * than writing every answer twice, each contract takes the web's own schema through
 * `documented()`, which builds the same schema in classic zod, so the document, the handlers'
 * answer types and the web's checks come from one definition and cannot drift apart.
 *
 * Answers are plain JSON records: objects, lists, maps, unions, enums, literals, text, numbers,
 * booleans, null. A schema with anything else (a transform, a default) is refused when the
 * contract is built, so a test or the start fails rather than the document lying.
 */
import { z } from "@hono/zod-openapi";
import type { core } from "zod";
import type { Shape, ShapeOf } from "../domain/shape-check.ts";

export interface DescribeOptions {
  /** Objects refuse fields they do not name (tests check answers this way; the document does not say it). */
  strict?: boolean;
}

type AnyZod = core.$ZodType;
type OutputOf<S> = S extends Shape<unknown> ? ShapeOf<S> : S extends AnyZod ? core.output<S> : never;

function isShape(schema: unknown): schema is Shape<unknown> {
  return typeof schema === "object" && schema !== null && "form" in schema && "read" in schema;
}

function fromShape(shape: Shape<unknown>, options: DescribeOptions): z.ZodType {
  const form = shape.form;
  switch (form.kind) {
    case "string":
      return z.string();
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "oneOf":
      return z.enum(form.values as [string, ...string[]]);
    case "nullable":
      return fromShape(form.inner, options).nullable();
    case "array":
      return z.array(fromShape(form.item, options));
    case "record":
      return z.record(z.string(), fromShape(form.value, options));
    case "object": {
      const fields = Object.fromEntries(Object.entries(form.fields).map(([key, field]) => [key, fromShape(field, options)]));
      return options.strict ? z.strictObject(fields) : z.object(fields);
    }
  }
}

function fromZod(schema: AnyZod, options: DescribeOptions): z.ZodType {
  const def = schema._zod.def as core.$ZodTypeDef & Record<string, unknown>;
  const inner = (key: string) => fromZod(def[key] as AnyZod, options);
  switch (def.type) {
    case "string":
      return z.string();
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "null":
      return z.null();
    case "unknown":
      return z.unknown();
    case "literal":
      return z.literal(def.values as [core.util.Literal, ...core.util.Literal[]]);
    case "enum":
      return z.enum(def.entries as core.util.EnumLike);
    case "array":
      return z.array(inner("element"));
    case "optional":
      return inner("innerType").optional();
    case "nullable":
      return inner("innerType").nullable();
    case "union":
      return z.union((def.options as AnyZod[]).map((option) => fromZod(option, options)) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    case "record":
      return z.record(fromZod(def.keyType as AnyZod, options) as z.ZodString, inner("valueType"));
    case "object": {
      const shape = def.shape as Record<string, AnyZod>;
      const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, fromZod(field, options)]));
      // A strictObject of the web's stays strict, a looseObject loose; a plain one is strict only when asked.
      const catchall = (def.catchall as AnyZod | undefined)?._zod.def.type;
      if (catchall === "unknown") return z.looseObject(fields);
      return options.strict || catchall === "never" ? z.strictObject(fields) : z.object(fields);
    }
    default:
      throw new Error(`an answer schema cannot be described: zod type "${def.type}" is not a plain JSON record`);
  }
}

/**
 * The classic zod schema of an answer the web app checks with `schema` (zod/mini, classic zod, or
 * the domain's shape checker), typed with what that schema reads.
 */
export function documented<S extends AnyZod | Shape<unknown>>(schema: S, options: DescribeOptions = {}): z.ZodType<OutputOf<S>> {
  const built = isShape(schema) ? fromShape(schema, options) : fromZod(schema as AnyZod, options);
  return built as z.ZodType<OutputOf<S>>;
}
