import { describe, expect, test } from "bun:test";
import { feeCategoryFor, firstOption, optionValues, pickOption, type FormOption } from "../../src/domain/form-options.ts";

const options: FormOption[] = [
  { category: "cartPreference", value: "Own Cart" },
  { category: "cartPreference", value: "Walking" },
  { category: "feePreferenceGuest", value: "Charge to my account" },
  { category: "playerType", value: "Member" },
  { category: "playerType", value: "Guest" },
];

describe("form options", () => {
  test("lists one category's values in stored order", () => {
    expect(optionValues(options, "cartPreference")).toEqual(["Own Cart", "Walking"]);
    expect(optionValues(options, "playerType")).toEqual(["Member", "Guest"]);
  });

  test("falls back to the product's defaults when a category has none", () => {
    expect(optionValues([], "cartPreference")).toEqual(["Rental Cart - Solo"]);
    expect(optionValues([], "feePreferenceGuest")).toEqual(["Charge my guest"]);
    expect(optionValues(options, "feePreferenceMember")).toEqual(["Charge to their account"]);
    expect(optionValues([], "playerType")).toEqual(["Member", "Spouse", "Dependent", "Guest", "Senior Care"]);
  });

  test("the first option is the wizard default", () => {
    expect(firstOption(options, "cartPreference")).toBe("Own Cart");
    expect(firstOption([], "feePreferenceMember")).toBe("Charge to their account");
  });

  test("guests and senior care use the guest fees, others the member fees", () => {
    expect(feeCategoryFor("Guest")).toBe("feePreferenceGuest");
    expect(feeCategoryFor("senior care")).toBe("feePreferenceGuest");
    expect(feeCategoryFor("Member")).toBe("feePreferenceMember");
    expect(feeCategoryFor("Dependent")).toBe("feePreferenceMember");
  });

  test("keeps a preferred value that is still offered, else takes the first", () => {
    expect(pickOption(options, "cartPreference", "Walking")).toBe("Walking");
    expect(pickOption(options, "cartPreference", "Golf Buggy")).toBe("Own Cart");
    expect(pickOption(options, "cartPreference", "")).toBe("Own Cart");
  });
});
