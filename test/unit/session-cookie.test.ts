import { describe, expect, test } from "bun:test";
import { sessionTokenOf } from "../../src/services/sessions.ts";

describe("sessionTokenOf", () => {
  test("finds the session cookie wherever it stands", () => {
    expect(sessionTokenOf("teebox_session=abc.def")).toBe("abc.def");
    expect(sessionTokenOf("theme=dark; teebox_session=abc; other=1")).toBe("abc");
    expect(sessionTokenOf("theme=dark;teebox_session=abc")).toBe("abc");
  });

  test("ignores other cookies that end with the same name, and empty or missing values", () => {
    expect(sessionTokenOf("xteebox_session=evil; teebox_session=good")).toBe("good");
    expect(sessionTokenOf("xteebox_session=evil")).toBeUndefined();
    expect(sessionTokenOf("teebox_session=")).toBeUndefined();
    expect(sessionTokenOf(undefined)).toBeUndefined();
  });

  test("a value that is not valid percent-encoding is no session", () => {
    expect(sessionTokenOf("teebox_session=%E0%A4%A")).toBeUndefined();
    expect(sessionTokenOf("teebox_session=a%20b")).toBe("a b");
  });
});
