/**
 * The one input-validation helper: parses with zod and answers 400 `{ message, errorKey }` naming
 * the first problem, so every route and socket action rejects bad input the same way.
 *
 * The answer never carries zod's own words: each problem is told with a UI text keyed by the
 * problem (`validation.*`, src/domain/ui-text/errors.ts) and the field it is about, or with the
 * UI-text key a schema names as its message (`z.string().min(1, "login.username_required")`).
 */
import type { Context } from "hono";
import type { z } from "zod";
import { fillPlaceholders, type ProblemContext } from "../domain/problem.ts";
import { DEFAULT_UI_TEXT, isUiTextKey, type UiTextKey } from "../domain/ui-text/index.ts";
import { AppError, textError } from "./errors.ts";

export interface InputProblem {
  message: string;
  errorKey: UiTextKey;
  context: ProblemContext;
}

type Issue = z.core.$ZodIssue;

/** Most choices named in a message: a longer list is cut (an enum of every UI-text key would be a page). */
const MAX_CHOICES_SHOWN = 8;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const step of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[step];
  }
  return value;
}

function fieldName(path: readonly PropertyKey[], label: string | undefined): string {
  const named = path.filter((step) => typeof step !== "symbol").map(String);
  if (label) named.unshift(label);
  return named.length > 0 ? named.join(".") : DEFAULT_UI_TEXT["validation.field.request"];
}

const TYPE_KEYS: Partial<Record<string, UiTextKey>> = {
  string: "validation.expected_text",
  number: "validation.expected_number",
  nan: "validation.expected_number",
  bigint: "validation.expected_whole_number",
  int: "validation.expected_whole_number",
  boolean: "validation.expected_true_false",
  array: "validation.expected_list",
  tuple: "validation.expected_list",
  set: "validation.expected_list",
  object: "validation.expected_object",
  record: "validation.expected_object",
  map: "validation.expected_object",
  undefined: "validation.expected_nothing",
  null: "validation.expected_nothing",
  void: "validation.expected_nothing",
  never: "validation.unknown_field",
};

const asLimit = (value: number | bigint) => (typeof value === "bigint" ? value.toString() : value);

/** The problem key and placeholders of one zod issue, by what went wrong (never by zod's wording). */
function keyOfIssue(issue: Issue, input: unknown): { key: UiTextKey; context: ProblemContext } {
  switch (issue.code) {
    case "invalid_type": {
      const isMissing = valueAt(input, issue.path) === undefined && issue.expected !== "undefined";
      return { key: isMissing ? "validation.required" : (TYPE_KEYS[issue.expected] ?? "validation.invalid"), context: {} };
    }
    case "too_small": {
      const min = asLimit(issue.minimum);
      if (issue.origin === "string") return { key: min === 1 ? "validation.required" : "validation.too_short", context: { min } };
      if (issue.origin === "array" || issue.origin === "set") return { key: "validation.too_few", context: { min } };
      return { key: "validation.too_small", context: { min } };
    }
    case "too_big": {
      const max = asLimit(issue.maximum);
      if (issue.origin === "string") return { key: "validation.too_long", context: { max } };
      if (issue.origin === "array" || issue.origin === "set") return { key: "validation.too_many", context: { max } };
      return { key: "validation.too_big", context: { max } };
    }
    case "invalid_format":
      return { key: issue.format === "email" ? "validation.bad_email" : "validation.bad_format", context: {} };
    case "invalid_value": {
      const values = issue.values.map((value) => JSON.stringify(value));
      const shown = values.length > MAX_CHOICES_SHOWN ? [...values.slice(0, MAX_CHOICES_SHOWN), "…"] : values;
      return { key: "validation.not_a_choice", context: { choices: shown.join(", ") } };
    }
    case "unrecognized_keys":
      return { key: "validation.unknown_field", context: {} };
    default:
      return { key: "validation.invalid", context: {} };
  }
}

/** The issue a member is told about: for a union, the first problem of the branch that came closest. */
function firstIssue(issues: readonly Issue[]): Issue | undefined {
  const issue = issues[0];
  if (issue?.code !== "invalid_union" || issue.errors.length === 0) return issue;
  const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
  const inner = firstIssue(closest);
  return inner ? { ...inner, path: [...issue.path, ...inner.path] } : issue;
}

/**
 * Describes the first problem of a failed parse. `label` names where the value came from when the
 * path alone would not (a path parameter's or a query field's name).
 */
export function describeIssue(error: z.ZodError, input: unknown, label?: string): InputProblem {
  const issue = firstIssue(error.issues);
  if (!issue) return { message: fillPlaceholders(DEFAULT_UI_TEXT["validation.invalid"], { field: fieldName([], label) }), errorKey: "validation.invalid", context: {} };
  const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys.slice(0, 3).map(String) : [];
  const path = unknownKeys.length > 0 ? [...issue.path, unknownKeys.join(", ")] : issue.path;
  const context: ProblemContext = { field: fieldName(path, label) };
  const limits = "minimum" in issue ? { min: asLimit(issue.minimum) } : "maximum" in issue ? { max: asLimit(issue.maximum) } : {};
  const params = issue.code === "custom" ? (issue.params as ProblemContext | undefined) : undefined;
  // A schema that names a UI-text key as its message has written the member's words itself.
  const own = isUiTextKey(issue.message) ? { key: issue.message, context: { ...limits, ...params } } : null;
  const { key, context: extra } = own ?? keyOfIssue(issue, input);
  Object.assign(context, extra);
  return { message: fillPlaceholders(DEFAULT_UI_TEXT[key], context), errorKey: key, context };
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, label?: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problem = describeIssue(result.error, value, label);
    throw new AppError(400, problem.message, problem.errorKey);
  }
  return result.data;
}

/** The JSON body of a request, unchecked (an empty body is `{}`); a body that is not JSON is refused. */
export async function readBody(c: Context): Promise<unknown> {
  try {
    const text = await c.req.text();
    return text === "" ? {} : JSON.parse(text);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw textError(400, "validation.bad_json");
  }
}

/** Reads the JSON body of a request and validates it. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return parseWith(schema, await readBody(c));
}

/** A path parameter: a value of the wrong shape is told as this address's `name` not being valid. */
export function readParam<S extends z.ZodType>(c: Context, name: string, schema: S): z.infer<S> {
  const value = c.req.param(name);
  const result = schema.safeParse(value);
  if (!result.success) throw textError(400, "validation.bad_param", { field: name });
  return result.data;
}

/**
 * The path parameters of a request (an object schema, a field per parameter): a value of the
 * wrong shape is told as the first such parameter of this address not being valid.
 */
export function readParams<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const value = c.req.param();
  const result = schema.safeParse(value);
  if (!result.success) throw textError(400, "validation.bad_param", { field: String(result.error.issues[0]?.path[0] ?? "id") });
  return result.data;
}

/** The query fields of a request, each problem named by its field. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}
