import { describe, expect, test } from "bun:test";
import { DEFAULT_SETTINGS, DEFAULT_STORED_SETTINGS, appSettingsSchema, checkReleaseTime, readStoredSettings, serialiseSettings } from "../../src/domain/settings.ts";

test("defaults", () => {
  expect(DEFAULT_SETTINGS).toEqual({
    release_days_before: 7,
    release_time: "07:00",
    ui_date_range_days: 14,
    scraper_date_range_days: 8,
    booking_roll_hour: 18,
    courses_to_skip_on_full: [],
    smart_refresh_threshold_seconds: 300,
    log_level: "info",
    scraper_username: "",
  });
});

describe("checkReleaseTime", () => {
  const FORMAT = { message: "release_time must be in HH:MM format", errorKey: "settings.release_time_format" };
  const RANGE = { message: "release_time must be a valid time between 00:00 and 23:59", errorKey: "settings.release_time_range" };
  test("valid times", () => {
    expect(checkReleaseTime("00:00")).toBeNull();
    expect(checkReleaseTime("07:00")).toBeNull();
    expect(checkReleaseTime("23:59")).toBeNull();
  });
  test("wrong shape", () => {
    expect(checkReleaseTime("7:00")).toEqual(FORMAT);
    expect(checkReleaseTime("07:0")).toEqual(FORMAT);
    expect(checkReleaseTime("0700")).toEqual(FORMAT);
    expect(checkReleaseTime(" 07:00")).toEqual(FORMAT);
    expect(checkReleaseTime("")).toEqual(FORMAT);
  });
  test("HH:MM-shaped but out of range", () => {
    expect(checkReleaseTime("24:00")).toEqual(RANGE);
    expect(checkReleaseTime("12:60")).toEqual(RANGE);
    expect(checkReleaseTime("99:99")).toEqual(RANGE);
  });
});

describe("appSettingsSchema", () => {
  test("accepts the defaults and a full custom object", () => {
    expect(appSettingsSchema.parse(DEFAULT_STORED_SETTINGS)).toEqual(DEFAULT_STORED_SETTINGS);
    const custom = { ...DEFAULT_STORED_SETTINGS, courses_to_skip_on_full: ["masters"], log_level: "debug" as const, scraper_username: "admin" };
    expect(appSettingsSchema.parse(custom)).toEqual(custom);
  });
  test("rejects strings for numbers, fractions, out-of-bounds values and unknown keys", () => {
    expect(appSettingsSchema.safeParse({ ...DEFAULT_STORED_SETTINGS, ui_date_range_days: "14" }).success).toBe(false);
    expect(appSettingsSchema.safeParse({ ...DEFAULT_STORED_SETTINGS, booking_roll_hour: 18.5 }).success).toBe(false);
    expect(appSettingsSchema.safeParse({ ...DEFAULT_STORED_SETTINGS, booking_roll_hour: 25 }).success).toBe(false);
    expect(appSettingsSchema.safeParse({ ...DEFAULT_STORED_SETTINGS, ui_date_range_days: 0 }).success).toBe(false);
    expect(appSettingsSchema.safeParse({ ...DEFAULT_STORED_SETTINGS, log_level: "trace" }).success).toBe(false);
    expect(appSettingsSchema.safeParse({ ...DEFAULT_STORED_SETTINGS, extra: 1 }).success).toBe(false);
  });
  test("a bad release time reports the product's message", () => {
    const result = appSettingsSchema.safeParse({ ...DEFAULT_STORED_SETTINGS, release_time: "24:00" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe("release_time must be a valid time between 00:00 and 23:59");
  });
});

describe("stored settings", () => {
  test("round trip through text", () => {
    const custom = { ...DEFAULT_STORED_SETTINGS, courses_to_skip_on_full: ["a", "b"], release_days_before: 3 };
    expect(serialiseSettings(custom)).toMatchObject({ courses_to_skip_on_full: '["a","b"]', release_days_before: "3" });
    expect(readStoredSettings(serialiseSettings(custom))).toEqual(custom);
  });
  test("missing and invalid values fall back to their defaults", () => {
    expect(readStoredSettings({ release_days_before: "x", courses_to_skip_on_full: "[oops", ui_date_range_days: "", booking_roll_hour: "20" })).toEqual({
      ...DEFAULT_STORED_SETTINGS,
      booking_roll_hour: 20,
    });
  });
});
