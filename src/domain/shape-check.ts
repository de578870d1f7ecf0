/**
 * A very small checker of JSON shapes, for the few answers the first screen reads (the session and
 * the UI text). It has the `safeParse` of a zod schema, so the web app's call helper treats both
 * alike, and costs a few hundred bytes where zod's core would cost the login page's whole margin.
 * Objects keep only the fields they name, like zod's `object`. Each shape also says what it is
 * (`form`), so the server can describe the same answer in its OpenAPI document (src/lib/answer-schemas.ts).
 */
export interface ShapeIssue {
  path: PropertyKey[];
  message: string;
}

export type ShapeResult<T> = { success: true; data: T } | { success: false; error: { issues: ShapeIssue[] } };

/** What a shape checks, in words a describer can read. */
export type ShapeForm =
  | { kind: "string" | "number" | "boolean" }
  | { kind: "oneOf"; values: readonly string[] }
  | { kind: "nullable"; inner: Shape<unknown> }
  | { kind: "array"; item: Shape<unknown> }
  | { kind: "object"; fields: Record<string, Shape<unknown>> }
  | { kind: "record"; value: Shape<unknown> };

export interface Shape<T> {
  readonly form: ShapeForm;
  safeParse(value: unknown): ShapeResult<T>;
  /** Returns the value as read, recording any difference in `issues`. */
  read(value: unknown, path: PropertyKey[], issues: ShapeIssue[]): T;
}

export type ShapeOf<S> = S extends Shape<infer T> ? T : never;

function shape<T>(form: ShapeForm, read: Shape<T>["read"]): Shape<T> {
  return {
    form,
    read,
    safeParse(value) {
      const issues: ShapeIssue[] = [];
      const data = read(value, [], issues);
      return issues.length === 0 ? { success: true, data } : { success: false, error: { issues } };
    },
  };
}

function primitive<T>(kind: "string" | "number" | "boolean"): Shape<T> {
  return shape({ kind }, (value, path, issues) => {
    const isKind = typeof value === kind && (kind !== "number" || Number.isFinite(value));
    if (!isKind) issues.push({ path, message: `expected a ${kind}` });
    return value as T;
  });
}

export const string = (): Shape<string> => primitive("string");
export const number = (): Shape<number> => primitive("number");
export const boolean = (): Shape<boolean> => primitive("boolean");

export function oneOf<const V extends readonly string[]>(values: V): Shape<V[number]> {
  return shape({ kind: "oneOf", values }, (value, path, issues) => {
    if (!values.includes(value as string)) issues.push({ path, message: `expected one of ${values.join(", ")}` });
    return value as V[number];
  });
}

export function nullable<T>(inner: Shape<T>): Shape<T | null> {
  return shape({ kind: "nullable", inner }, (value, path, issues) => (value === null ? null : inner.read(value, path, issues)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function array<T>(item: Shape<T>): Shape<T[]> {
  return shape({ kind: "array", item }, (value, path, issues) => {
    if (!Array.isArray(value)) {
      issues.push({ path, message: "expected a list" });
      return [];
    }
    return value.map((entry, i) => item.read(entry, [...path, i], issues));
  });
}

export function object<F extends Record<string, Shape<unknown>>>(fields: F): Shape<{ [K in keyof F]: ShapeOf<F[K]> }> {
  return shape({ kind: "object", fields }, (value, path, issues) => {
    if (!isRecord(value)) {
      issues.push({ path, message: "expected an object" });
      return {} as { [K in keyof F]: ShapeOf<F[K]> };
    }
    const result: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) result[key] = field.read(value[key], [...path, key], issues);
    return result as { [K in keyof F]: ShapeOf<F[K]> };
  });
}

/** A map of string keys to values of one shape. */
export function record<T>(valueShape: Shape<T>): Shape<Record<string, T>> {
  return shape({ kind: "record", value: valueShape }, (value, path, issues) => {
    if (!isRecord(value)) {
      issues.push({ path, message: "expected an object" });
      return {};
    }
    const result: Record<string, T> = {};
    for (const [key, entry] of Object.entries(value)) result[key] = valueShape.read(entry, [...path, key], issues);
    return result;
  });
}
