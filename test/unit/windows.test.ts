import { describe, expect, test } from "bun:test";
import {
  groupWindows,
  slotIntervalMinutes,
  windowKeyFor,
  windowsFor,
  type AllowedWindows,
} from "../../src/domain/windows.ts";

// 2025-03-05 is a Wednesday; 2025-03-08 a Saturday; 2025-03-09 a Sunday.
const WED = "2025-03-05";
const SAT = "2025-03-08";
const SUN = "2025-03-09";

describe("windowKeyFor", () => {
  test("a weekday is DEFAULT on every course: an admin's DEFAULT windows apply to Masters and Legends too", () => {
    expect(windowKeyFor(WED)).toBe("DEFAULT");
  });
  test("Saturday is SATURDAY_MASTERS, Sunday SUNDAY_LEGENDS", () => {
    expect(windowKeyFor(SAT)).toBe("SATURDAY_MASTERS");
    expect(windowKeyFor(SUN)).toBe("SUNDAY_LEGENDS");
  });
});

describe("slotIntervalMinutes", () => {
  test("8 minutes normally", () => {
    expect(slotIntervalMinutes(WED, "Legends", "12:00")).toBe(8);
    expect(slotIntervalMinutes(SAT, "Legends", "12:00")).toBe(8);
    expect(slotIntervalMinutes(SUN, "Masters", "12:00")).toBe(8);
    expect(slotIntervalMinutes(SUN, "Parklands", "12:00")).toBe(8);
  });
  test("4 minutes on Sunday Legends from 11:00", () => {
    expect(slotIntervalMinutes(SUN, "Legends", "10:59")).toBe(8);
    expect(slotIntervalMinutes(SUN, "Legends", "11:00")).toBe(4);
    expect(slotIntervalMinutes(SUN, "Legends Course", "15:20")).toBe(4);
  });
});

describe("windowsFor and groupWindows", () => {
  const windows: AllowedWindows = {
    DEFAULT: [{ start_time: "06:00", end_time: "07:00" }],
    SATURDAY_MASTERS: [],
    SUNDAY_LEGENDS: [{ start_time: "05:00", end_time: "06:00" }, { start_time: "bad", end_time: "07:00" }],
  };
  test("an empty special set falls back to DEFAULT", () => {
    expect(windowsFor(SAT, windows)).toEqual([{ start_time: "06:00", end_time: "07:00" }]);
  });
  test("unusable windows are dropped", () => {
    expect(windowsFor(SUN, windows)).toEqual([{ start_time: "05:00", end_time: "06:00" }]);
  });
  test("rows are grouped by upper-cased key and sorted; unknown keys dropped", () => {
    expect(
      groupWindows([
        { rule_key: "default", start_time: "12:00", end_time: "13:00" },
        { rule_key: "DEFAULT", start_time: "05:04", end_time: "11:00" },
        { rule_key: "OTHER", start_time: "05:00", end_time: "06:00" },
        { rule_key: " sunday_legends ", start_time: "06:00", end_time: "07:00" },
      ]),
    ).toEqual({
      DEFAULT: [
        { start_time: "05:04", end_time: "11:00" },
        { start_time: "12:00", end_time: "13:00" },
      ],
      SATURDAY_MASTERS: [],
      SUNDAY_LEGENDS: [{ start_time: "06:00", end_time: "07:00" }],
    });
  });
});
