import { describe, expect, test } from "bun:test";
import { checkOpenRequests, isPastTeeTime } from "../../src/domain/booking-submission.ts";
import { offeredDateRange } from "../../src/domain/date-kinds.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { DEFAULT_STORED_SETTINGS, mergeSettingsUpdate, SPEC_SETTING_KEYS } from "../../src/domain/settings.ts";
import { isTooLong, parseFormBoolean } from "../../src/domain/text-limits.ts";

describe("booking submission rules", () => {
  test("a tee time has passed at or before now on today's date, and any time of a past date", () => {
    expect(isPastTeeTime("2026-11-22", "08:59", "2026-11-22", "09:00")).toBe(true);
    expect(isPastTeeTime("2026-11-22", "09:00", "2026-11-22", "09:00")).toBe(true);
    expect(isPastTeeTime("2026-11-22", "09:01", "2026-11-22", "09:00")).toBe(false);
    expect(isPastTeeTime("2026-11-23", "05:00", "2026-11-22", "23:59")).toBe(false);
    expect(isPastTeeTime("2026-11-21", "23:00", "2026-11-22", "00:01")).toBe(true);
  });

  test("identical requests and the open-request allowance", () => {
    const open = (id: number, firstTime: string, isOpen = true) => ({ id, playDate: "2026-11-30", courseId: "masters", firstTime, isOpen });
    const candidate = { playDate: "2026-11-30", courseId: "masters", firstTime: "06:00" };
    expect(checkOpenRequests([open(1, "06:00")], candidate, 10)?.errorKey).toBe("booking.duplicate_request");
    // A confirmed twin is a duplicate too; editing the request itself is not.
    expect(checkOpenRequests([open(1, "06:00", false)], candidate, 10)?.errorKey).toBe("booking.duplicate_request");
    expect(checkOpenRequests([open(1, "06:00")], { ...candidate, editTarget: 1 }, 10)).toBeNull();
    expect(checkOpenRequests([open(1, "06:08"), open(2, "06:16")], candidate, 2)).toMatchObject({ errorKey: "booking.too_many_open", context: { max: 2 } });
    expect(checkOpenRequests([open(1, "06:08"), open(2, "06:16", false)], candidate, 2)).toBeNull();
  });

  test("the offered dates: today (tomorrow after the roll hour) and range − 1 days after", () => {
    const settings = { ui_date_range_days: 14, booking_roll_hour: 18 };
    expect(offeredDateRange(manilaInstant("2026-11-22", "09:00"), settings)).toEqual({ minDate: "2026-11-22", maxDate: "2026-12-05" });
    expect(offeredDateRange(manilaInstant("2026-11-22", "18:00"), settings)).toEqual({ minDate: "2026-11-23", maxDate: "2026-12-06" });
  });
});

describe("form values", () => {
  test("booleans as forms send them", () => {
    for (const value of [true, "true", "1", "on", "yes", 1, " TRUE "]) expect({ value, parsed: parseFormBoolean(value) }).toEqual({ value, parsed: true });
    for (const value of [false, "false", "0", "off", "no", "", 0]) expect({ value, parsed: parseFormBoolean(value) }).toEqual({ value, parsed: false });
    for (const value of ["maybe", 2, null, undefined, {}, []]) expect(parseFormBoolean(value)).toBeUndefined();
  });

  test("lengths are counted in characters after trimming", () => {
    expect(isTooLong("a".repeat(100), "userName")).toBe(false);
    expect(isTooLong(` ${"a".repeat(100)} `, "userName")).toBe(false);
    expect(isTooLong("a".repeat(101), "userName")).toBe(true);
    expect(isTooLong("⛳".repeat(100), "userName")).toBe(false);
  });
});

describe("settings saves", () => {
  const spec = Object.fromEntries(SPEC_SETTING_KEYS.map((key) => [key, DEFAULT_STORED_SETTINGS[key]]));
  const stored = { ...DEFAULT_STORED_SETTINGS, scraper_username: "admin", max_open_requests: 4 };

  test("the product's keys alone keep the others as stored", () => {
    const merged = mergeSettingsUpdate({ ...spec, release_days_before: "3" }, stored);
    expect(merged).toEqual({ ok: true, value: { ...stored, release_days_before: 3 } });
  });

  test("club_retry_minutes: bounded 1–60, kept as stored when a save omits it", () => {
    const keeps = { ...stored, club_retry_minutes: 7 };
    expect(mergeSettingsUpdate(spec, keeps)).toMatchObject({ ok: true, value: { club_retry_minutes: 7 } });
    expect(mergeSettingsUpdate({ ...spec, club_retry_minutes: "15" }, keeps)).toMatchObject({ ok: true, value: { club_retry_minutes: 15 } });
    expect(mergeSettingsUpdate({ ...spec, club_retry_minutes: 0 }, keeps)).toMatchObject({
      ok: false,
      problem: { errorKey: "settings.number_range", message: "club_retry_minutes must be a whole number from 1 to 60." },
    });
    expect(mergeSettingsUpdate({ ...spec, club_retry_minutes: 61 }, keeps)).toMatchObject({ ok: false, problem: { errorKey: "settings.number_range" } });
    expect(mergeSettingsUpdate({ ...spec, club_retry_minutes: "" }, keeps)).toMatchObject({ ok: false, problem: { errorKey: "settings.number_required" } });
    expect(DEFAULT_STORED_SETTINGS.club_retry_minutes).toBe(10);
  });

  test("an emptied or out-of-range number, a missing or unknown key are refused with a message", () => {
    expect(mergeSettingsUpdate({ ...spec, booking_roll_hour: "" }, stored)).toMatchObject({
      ok: false,
      problem: { errorKey: "settings.number_required", message: "booking_roll_hour needs a number." },
    });
    expect(mergeSettingsUpdate({ ...spec, max_open_requests: null }, stored)).toMatchObject({ ok: false, problem: { errorKey: "settings.number_required" } });
    expect(mergeSettingsUpdate({ ...spec, max_open_requests: 0 }, stored)).toMatchObject({
      ok: false,
      problem: { message: "max_open_requests must be a whole number from 1 to 100." },
    });
    expect(mergeSettingsUpdate({ ...spec, booking_roll_hour: "7.5" }, stored)).toMatchObject({ ok: false, problem: { errorKey: "settings.number_range" } });
    const { release_time: _missing, ...withoutReleaseTime } = spec;
    expect(mergeSettingsUpdate(withoutReleaseTime, stored)).toMatchObject({ ok: false, problem: { errorKey: "settings.missing_key" } });
    expect(mergeSettingsUpdate({ ...spec, __proto__x: 1 }, stored)).toMatchObject({ ok: false, problem: { errorKey: "settings.unknown_key" } });
  });
});
