import { describe, expect, test } from "bun:test";
import {
  canChangePassword,
  checkProfileFields,
  isClubLoginReady,
  isNewPasswordMismatch,
  isNewPasswordReady,
  isProfileStepReady,
  looksLikeEmail,
  profileFieldProblems,
} from "../../src/domain/profile.ts";

const complete = { name: "Ana Cruz", memberId: "SW-1003", southwoods_email: "ana@southwoods.demo" };

describe("profile fields", () => {
  test("a complete profile has no problem", () => {
    expect(checkProfileFields(complete)).toBeNull();
    expect(profileFieldProblems(complete)).toEqual({});
  });

  test("each rule has the product's message, per field", () => {
    expect(profileFieldProblems({ name: " ", memberId: "", southwoods_email: "" })).toEqual({
      name: { message: "Full name is required.", errorKey: "profile.name_required" },
      memberId: { message: "Membership number is required.", errorKey: "profile.member_id_required" },
      southwoods_email: { message: "Southwoods email is required.", errorKey: "profile.email_required" },
    });
    expect(profileFieldProblems({ ...complete, southwoods_email: "ana@southwoods" }).southwoods_email).toEqual({
      message: "Please enter a valid email address.",
      errorKey: "profile.email_invalid",
    });
  });

  test("the first problem follows the form's order", () => {
    expect(checkProfileFields({ name: "", memberId: "", southwoods_email: "x" })?.errorKey).toBe("profile.name_required");
    expect(checkProfileFields({ ...complete, memberId: "", southwoods_email: "x" })?.errorKey).toBe("profile.member_id_required");
    expect(checkProfileFields({ ...complete, southwoods_email: "x" })?.errorKey).toBe("profile.email_invalid");
  });

  test("email shape", () => {
    expect(looksLikeEmail(" ana@southwoods.demo ")).toBe(true);
    expect(looksLikeEmail("ana@southwoods")).toBe(false);
    expect(looksLikeEmail("ana cruz@southwoods.demo")).toBe(false);
    expect(looksLikeEmail("@southwoods.demo")).toBe(false);
  });
});

describe("password forms", () => {
  test("change password needs all three and new equal to confirm", () => {
    expect(canChangePassword({ currentPassword: "a", newPassword: "bbbbbbbb", confirmPassword: "bbbbbbbb" })).toBe(true);
    expect(canChangePassword({ currentPassword: "", newPassword: "bbbbbbbb", confirmPassword: "bbbbbbbb" })).toBe(false);
    expect(canChangePassword({ currentPassword: "a", newPassword: "", confirmPassword: "" })).toBe(false);
    expect(canChangePassword({ currentPassword: "a", newPassword: "bbbbbbbb", confirmPassword: "cccccccc" })).toBe(false);
    // The password rule (8 to 128 characters) before anything is sent.
    expect(canChangePassword({ currentPassword: "a", newPassword: "b", confirmPassword: "b" })).toBe(false);
    expect(canChangePassword({ currentPassword: "a", newPassword: "b".repeat(129), confirmPassword: "b".repeat(129) })).toBe(false);
  });

  test("the mismatch shows only once both new fields are filled", () => {
    expect(isNewPasswordMismatch("b", "")).toBe(false);
    expect(isNewPasswordMismatch("b", "c")).toBe(true);
    expect(isNewPasswordMismatch("b", "b")).toBe(false);
  });
});

describe("setup wizard steps", () => {
  test("step 1: non-empty and equal", () => {
    expect(isNewPasswordReady("password", "password")).toBe(true);
    expect(isNewPasswordReady("", "")).toBe(false);
    expect(isNewPasswordReady("password", "passworD")).toBe(false);
    expect(isNewPasswordReady("pw", "pw")).toBe(false);
  });

  test("step 2: name and member id non-blank after trimming", () => {
    expect(isProfileStepReady("Ana", "SW-1")).toBe(true);
    expect(isProfileStepReady("  ", "SW-1")).toBe(false);
    expect(isProfileStepReady("Ana", " ")).toBe(false);
  });

  test("step 3: email and password non-blank, email shaped", () => {
    expect(isClubLoginReady("ana@southwoods.demo", "pw")).toBe(true);
    expect(isClubLoginReady("ana@southwoods.demo", " ")).toBe(false);
    expect(isClubLoginReady("ana", "pw")).toBe(false);
    expect(isClubLoginReady("", "pw")).toBe(false);
  });
});
