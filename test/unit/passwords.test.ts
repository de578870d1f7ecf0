import { describe, expect, test } from "bun:test";
import { adminPasswordProblem, isPasswordToReplace, newPasswordProblem, passwordLength } from "../../src/domain/passwords.ts";

describe("the password rule", () => {
  test("8 to 128 characters, counted as a person counts them", () => {
    expect(newPasswordProblem("1234567")?.errorKey).toBe("password.too_short");
    expect(newPasswordProblem("12345678")).toBeNull();
    expect(newPasswordProblem("x".repeat(128))).toBeNull();
    expect(newPasswordProblem("x".repeat(129))).toMatchObject({ errorKey: "password.too_long", message: "Use at most 128 characters.", context: { max: 128 } });
    // Four emoji are four characters (eight UTF-16 units): too short.
    expect(passwordLength("⛳⛳⛳⛳")).toBe(4);
    expect(newPasswordProblem("⛳⛳⛳⛳")?.errorKey).toBe("password.too_short");
    expect(newPasswordProblem("demo1234")).toBeNull();
  });

  test("a member's own password is not their username", () => {
    expect(newPasswordProblem("Longusername", "longUsername")?.errorKey).toBe("password.same_as_username");
    expect(newPasswordProblem("longusername1", "longusername")).toBeNull();
  });

  test("the admin's form allows the username as the first password, else the rule", () => {
    expect(adminPasswordProblem("kim", "kim")).toBeNull();
    expect(adminPasswordProblem("kimkim", "kim")?.errorKey).toBe("password.too_short");
    expect(isPasswordToReplace(" Kim ", "kim")).toBe(true);
    expect(isPasswordToReplace("kim-own-pass", "kim")).toBe(false);
  });
});
