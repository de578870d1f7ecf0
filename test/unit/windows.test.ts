import { describe, expect, test } from "bun:test";
import { groupWindows, slotIntervalMinutes, windowCoverage, windowKeyFor, windowsFor, type AllowedWindows } from "../../src/domain/windows.ts";

// 2025-03-05 is a Wednesday; 2025-03-08 a Saturday; 2025-03-09 a Sunday.
const WED = "2025-03-05";
const SAT = "2025-03-08";
const SUN = "2025-03-09";

describe("windowKeyFor", () => {
  test("weekday on a plain course is DEFAULT", () => {
    expect(windowKeyFor(WED, "Parklands")).toBe("DEFAULT");
  });
  test("Saturday or a Masters course is SATURDAY_MASTERS", () => {
    expect(windowKeyFor(SAT, "Parklands")).toBe("SATURDAY_MASTERS");
    expect(windowKeyFor(WED, "Masters Course")).toBe("SATURDAY_MASTERS");
    expect(windowKeyFor(WED, "the masters")).toBe("SATURDAY_MASTERS");
  });
  test("Sunday or a Legends course is SUNDAY_LEGENDS", () => {
    expect(windowKeyFor(SUN, "Parklands")).toBe("SUNDAY_LEGENDS");
    expect(windowKeyFor(WED, "Legends")).toBe("SUNDAY_LEGENDS");
  });
  test("Saturday/Masters wins when both apply", () => {
    expect(windowKeyFor(SAT, "Legends")).toBe("SATURDAY_MASTERS");
    expect(windowKeyFor(SUN, "Masters")).toBe("SATURDAY_MASTERS");
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
    SUNDAY_LEGENDS: [
      { start_time: "05:00", end_time: "06:00" },
      { start_time: "bad", end_time: "07:00" },
    ],
  };
  test("an empty special set falls back to DEFAULT", () => {
    expect(windowsFor(SAT, "Parklands", windows)).toEqual([{ start_time: "06:00", end_time: "07:00" }]);
  });
  test("unusable windows are dropped", () => {
    expect(windowsFor(SUN, "Parklands", windows)).toEqual([{ start_time: "05:00", end_time: "06:00" }]);
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

describe("windowCoverage", () => {
  test("says which courses and days each set reaches: with only Masters and Legends, DEFAULT reaches none", () => {
    const demo = [
      { name: "Masters", days_active: [1, 2, 3, 4, 5, 6] },
      { name: "Legends", days_active: [2, 3, 4, 5, 6, 7] },
    ];
    expect(windowCoverage(demo)).toEqual({
      DEFAULT: [],
      SATURDAY_MASTERS: [
        { course: "Masters", days: [1, 2, 3, 4, 5, 6] },
        { course: "Legends", days: [6] },
      ],
      SUNDAY_LEGENDS: [{ course: "Legends", days: [2, 3, 4, 5, 7] }],
    });
    expect(windowCoverage([{ name: "Championship", days_active: [7, 1, 6] }])).toEqual({
      DEFAULT: [{ course: "Championship", days: [1] }],
      SATURDAY_MASTERS: [{ course: "Championship", days: [6] }],
      SUNDAY_LEGENDS: [{ course: "Championship", days: [7] }],
    });
  });
});
