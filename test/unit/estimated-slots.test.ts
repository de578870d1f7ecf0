import { describe, expect, test } from "bun:test";
import { generateEstimatedSlots, isMorning, isTimeInWindows } from "../../src/domain/estimated-slots.ts";
import type { AllowedWindows } from "../../src/domain/windows.ts";

const WED = "2025-03-05";
const SAT = "2025-03-08";
const SUN = "2025-03-09";

const windows: AllowedWindows = {
  DEFAULT: [{ start_time: "05:04", end_time: "05:30" }],
  SATURDAY_MASTERS: [{ start_time: "06:00", end_time: "06:16" }],
  SUNDAY_LEGENDS: [{ start_time: "10:48", end_time: "11:16" }],
};
const times = (slots: { time: string }[]) => slots.map((s) => s.time);

describe("generateEstimatedSlots", () => {
  test("8-minute steps from the window start, end inclusive, all AVAILABLE without slot id", () => {
    expect(generateEstimatedSlots(WED, "Parklands", windows)).toEqual([
      { time: "05:04", status: "AVAILABLE", slotId: null },
      { time: "05:12", status: "AVAILABLE", slotId: null },
      { time: "05:20", status: "AVAILABLE", slotId: null },
      { time: "05:28", status: "AVAILABLE", slotId: null },
    ]);
  });

  test("the window end itself is a slot when on the grid", () => {
    expect(times(generateEstimatedSlots(SAT, "Parklands", windows))).toEqual(["06:00", "06:08", "06:16"]);
  });

  test("Sunday Legends switches to 4 minutes from 11:00", () => {
    expect(times(generateEstimatedSlots(SUN, "Legends", windows))).toEqual(["10:48", "10:56", "11:04", "11:08", "11:12", "11:16"]);
  });

  test("Sunday on another course keeps 8 minutes", () => {
    expect(times(generateEstimatedSlots(SUN, "Parklands", windows))).toEqual(["10:48", "10:56", "11:04", "11:12"]);
  });

  test("a Legends course on a weekday uses the Legends windows at 8 minutes", () => {
    expect(times(generateEstimatedSlots(WED, "Legends", windows))).toEqual(["10:48", "10:56", "11:04", "11:12"]);
  });

  test("a window ending after 16:48 gives its later tee times: the windows decide, not a fixed latest time", () => {
    const late: AllowedWindows = { ...windows, DEFAULT: [{ start_time: "16:32", end_time: "17:30" }] };
    expect(times(generateEstimatedSlots(WED, "Parklands", late))).toEqual(["16:32", "16:40", "16:48", "16:56", "17:04", "17:12", "17:20", "17:28"]);
  });

  test("a custom latest time", () => {
    const late: AllowedWindows = { ...windows, DEFAULT: [{ start_time: "16:32", end_time: "17:30" }] };
    expect(times(generateEstimatedSlots(WED, "Parklands", late, "16:40"))).toEqual(["16:32", "16:40"]);
  });

  test("overlapping windows give sorted slots without duplicates", () => {
    const overlapping: AllowedWindows = {
      ...windows,
      DEFAULT: [
        { start_time: "07:00", end_time: "07:16" },
        { start_time: "05:04", end_time: "05:12" },
        { start_time: "07:08", end_time: "07:20" },
      ],
    };
    expect(times(generateEstimatedSlots(WED, "Parklands", overlapping))).toEqual(["05:04", "05:12", "07:00", "07:08", "07:16"]);
  });

  test("the default new window 05:04–16:48 gives 89 slots ending at 16:48", () => {
    const full: AllowedWindows = { ...windows, DEFAULT: [{ start_time: "05:04", end_time: "16:48" }] };
    const slots = times(generateEstimatedSlots(WED, "Parklands", full));
    expect(slots.length).toBe(89);
    expect(slots[0]).toBe("05:04");
    expect(slots.at(-1)).toBe("16:48");
  });

  test("no windows, no slots", () => {
    expect(generateEstimatedSlots(WED, "Parklands", { DEFAULT: [], SATURDAY_MASTERS: [], SUNDAY_LEGENDS: [] })).toEqual([]);
  });
});

describe("isTimeInWindows", () => {
  test("inside the applicable windows, both ends inclusive", () => {
    expect(isTimeInWindows(WED, "Parklands", "05:04", windows)).toBe(true);
    expect(isTimeInWindows(WED, "Parklands", "05:17", windows)).toBe(true);
    expect(isTimeInWindows(WED, "Parklands", "05:30", windows)).toBe(true);
    expect(isTimeInWindows(WED, "Parklands", "05:31", windows)).toBe(false);
    expect(isTimeInWindows(WED, "Parklands", "05:03", windows)).toBe(false);
  });
  test("uses the key of the date and course", () => {
    expect(isTimeInWindows(SAT, "Parklands", "05:04", windows)).toBe(false);
    expect(isTimeInWindows(SAT, "Parklands", "06:10", windows)).toBe(true);
  });
  test("rejects malformed times", () => {
    expect(isTimeInWindows(WED, "Parklands", "5:10", windows)).toBe(false);
  });
});

test("morning is before 12:00", () => {
  expect(isMorning("11:59")).toBe(true);
  expect(isMorning("12:00")).toBe(false);
});
