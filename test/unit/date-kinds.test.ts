import { describe, expect, test } from "bun:test";
import { dateKind, groupDatesByKind, listBookableDates, liveTeeTimes, toDateEntry, type TeeTimeDay } from "../../src/domain/date-kinds.ts";

// Manila is UTC+8: 2025-03-05 17:59 Manila is 09:59 UTC.
const at = (utcDay: number, utcHour: number, utcMinute = 0) => Date.UTC(2025, 2, utcDay, utcHour, utcMinute);

describe("listBookableDates", () => {
  test("starts today before the roll hour", () => {
    expect(listBookableDates(at(5, 9, 59), 3, 18)).toEqual([
      { dateStr: "2025-03-05", dayName: "Wednesday", monthDay: "Mar 5" },
      { dateStr: "2025-03-06", dayName: "Thursday", monthDay: "Mar 6" },
      { dateStr: "2025-03-07", dayName: "Friday", monthDay: "Mar 7" },
    ]);
  });

  test("starts tomorrow from the roll hour on", () => {
    expect(listBookableDates(at(5, 10, 0), 2, 18).map((d) => d.dateStr)).toEqual(["2025-03-06", "2025-03-07"]);
  });

  test("uses the Manila date, not UTC: 00:30 Manila is still the previous UTC day", () => {
    // 2025-03-04 16:30 UTC = 2025-03-05 00:30 Manila
    expect(listBookableDates(at(4, 16, 30), 1, 18)).toEqual([{ dateStr: "2025-03-05", dayName: "Wednesday", monthDay: "Mar 5" }]);
  });

  test("roll hour 24 never rolls, 0 always rolls", () => {
    expect(listBookableDates(at(5, 15, 59), 1, 24)[0].dateStr).toBe("2025-03-05");
    expect(listBookableDates(at(4, 16, 0), 1, 0)[0].dateStr).toBe("2025-03-06");
  });

  test("crosses month and year ends", () => {
    expect(listBookableDates(Date.UTC(2025, 11, 31, 11, 0), 2, 18)).toEqual([
      { dateStr: "2026-01-01", dayName: "Thursday", monthDay: "Jan 1" },
      { dateStr: "2026-01-02", dayName: "Friday", monthDay: "Jan 2" },
    ]);
  });

  test("zero days gives an empty list", () => {
    expect(listBookableDates(at(5, 1), 0, 18)).toEqual([]);
  });
});

const TODAY = "2025-03-05";
const day = (date: string, statuses: string[]): TeeTimeDay => ({
  date,
  course: "Masters",
  tee_times: statuses.map((status, i) => ({ time: `06:${String(i * 8).padStart(2, "0")}`, status, slotId: `s${i}` })),
});

describe("dateKind", () => {
  test("a date with data is live", () => {
    expect(dateKind("2025-03-06", TODAY, [day("2025-03-06", ["BOOKED"])])).toBe("live");
    expect(dateKind("2025-03-10", TODAY, [day("2025-03-10", ["AVAILABLE"])])).toBe("live");
  });

  test("today is live only with an available slot", () => {
    expect(dateKind(TODAY, TODAY, [day(TODAY, ["BOOKED", "AVAILABLE"])])).toBe("live");
    expect(dateKind(TODAY, TODAY, [day(TODAY, ["BOOKED", "BLOCKED"])])).toBe("unavailable");
  });

  test("without data: later than tomorrow is estimated, today and tomorrow unavailable", () => {
    expect(dateKind(TODAY, TODAY, [])).toBe("unavailable");
    expect(dateKind("2025-03-06", TODAY, [])).toBe("unavailable");
    expect(dateKind("2025-03-07", TODAY, [])).toBe("estimated");
  });

  test("an empty tee sheet is no data", () => {
    expect(dateKind("2025-03-06", TODAY, [day("2025-03-06", [])])).toBe("unavailable");
    expect(dateKind("2025-03-08", TODAY, [day("2025-03-08", [])])).toBe("estimated");
  });

  test("past dates are unavailable even with data", () => {
    expect(dateKind("2025-03-04", TODAY, [day("2025-03-04", ["AVAILABLE"])])).toBe("unavailable");
  });

  test("data of any course counts", () => {
    const days = [day("2025-03-06", []), { ...day("2025-03-06", ["BOOKED"]), course: "Legends" }];
    expect(dateKind("2025-03-06", TODAY, days)).toBe("live");
  });
});

test("groupDatesByKind splits live and estimated and drops the rest", () => {
  const entries = ["2025-03-05", "2025-03-06", "2025-03-07", "2025-03-08"].map(toDateEntry);
  const days = [day("2025-03-05", ["BOOKED"]), day("2025-03-07", ["AVAILABLE"])];
  expect(groupDatesByKind(entries, TODAY, days)).toEqual({
    live: [{ dateStr: "2025-03-07", dayName: "Friday", monthDay: "Mar 7" }],
    estimated: [{ dateStr: "2025-03-08", dayName: "Saturday", monthDay: "Mar 8" }],
  });
});

test("liveTeeTimes finds a course's sheet case-insensitively, null when empty or absent", () => {
  const days = [day("2025-03-06", ["AVAILABLE"]), { ...day("2025-03-06", []), course: "Legends" }];
  expect(liveTeeTimes("2025-03-06", "masters", days)).toEqual([{ time: "06:00", status: "AVAILABLE", slotId: "s0" }]);
  expect(liveTeeTimes("2025-03-06", "Legends", days)).toBeNull();
  expect(liveTeeTimes("2025-03-07", "Masters", days)).toBeNull();
});
