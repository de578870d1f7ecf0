import { describe, expect, test } from "bun:test";
import { array, boolean, nullable, number, object, oneOf, record, string } from "../../src/domain/shape-check.ts";

describe("the small shape checker of the first screen's answers", () => {
  const user = object({ id: number(), role: oneOf(["user", "admin"] as const), tags: array(string()), note: nullable(string()), ok: boolean() });

  test("reads a matching value, keeping only the named fields", () => {
    expect(user.safeParse({ id: 1, role: "admin", tags: ["a"], note: null, ok: true, extra: 1 })).toEqual({
      success: true,
      data: { id: 1, role: "admin", tags: ["a"], note: null, ok: true },
    });
  });

  test("names every difference with its path", () => {
    const result = user.safeParse({ id: Number.NaN, role: "owner", tags: ["a", 2], ok: "yes" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues.map((i) => i.path.join("."))).toEqual(["id", "role", "tags.1", "note", "ok"]);
  });

  test("refuses the wrong kind of value at the top", () => {
    for (const value of [null, [], "x", 3, undefined]) expect(user.safeParse(value).success).toBe(false);
    expect(array(number()).safeParse({}).success).toBe(false);
    expect(record(string()).safeParse([]).success).toBe(false);
  });

  test("a record checks every value", () => {
    expect(record(string()).safeParse({ "a.b": "x" })).toEqual({ success: true, data: { "a.b": "x" } });
    const bad = record(string()).safeParse({ "a.b": "x", "c.d": 4 });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path.join("."))).toEqual(["c.d"]);
  });
});
