/**
 * The pure rules of standing requests: which dates a series plays (Manila dates, whatever the
 * process's zone), when a date can first be queued, what a time range means, the shape checks,
 * and the rotation that orders occurrences wanting one release (decision 181).
 */
import { describe, expect, test } from "bun:test";
import { manilaDate, manilaInstant } from "../../src/domain/manila-time.ts";
import { offeredDateRange } from "../../src/domain/date-kinds.ts";
import { checkSeriesCalendar, nextOccurrenceDates, occurrenceDates, playsOn, queueOpensAt, rotationOrder, timesInRange } from "../../src/domain/series.ts";

const weekly = { weekdays: [1, 3], startDate: "2026-11-23", endDate: "2026-12-09", skipDates: ["2026-12-02"] };
const SETTINGS = { ui_date_range_days: 14, booking_roll_hour: 18 };

describe("series dates", () => {
  test("Mondays and Wednesdays from the start to the end, less the skipped date", () => {
    expect(occurrenceDates(weekly, "2026-11-01", "2027-01-01")).toEqual(["2026-11-23", "2026-11-25", "2026-11-30", "2026-12-07", "2026-12-09"]);
    expect(occurrenceDates(weekly, "2026-11-26", "2026-12-07")).toEqual(["2026-11-30", "2026-12-07"]);
    expect(nextOccurrenceDates({ ...weekly, endDate: null }, "2026-12-08", 3)).toEqual(["2026-12-09", "2026-12-14", "2026-12-16"]);
    expect(playsOn(weekly, "2026-12-02")).toBe(false);
    expect(playsOn(weekly, "2026-11-24")).toBe(false);
    // Every weekday skipped for a year: the look ends rather than loops.
    expect(nextOccurrenceDates({ weekdays: [1], startDate: "2026-11-23", endDate: null, skipDates: [] }, "2026-11-23", 0)).toEqual([]);
  });

  test("a date is queueable from the roll hour, ui_date_range_days before it: exactly when the Book page first offers it", () => {
    const opens = queueOpensAt("2026-12-07", SETTINGS);
    expect(opens).toBe(manilaInstant("2026-11-23", "18:00"));
    // In Manila, whatever zone the process runs in (the suite runs in New York too).
    expect(manilaDate(opens)).toBe("2026-11-23");
    expect(offeredDateRange(opens - 1, SETTINGS).maxDate).toBe("2026-12-06");
    expect(offeredDateRange(opens, SETTINGS).maxDate).toBe("2026-12-07");
    expect(queueOpensAt("2026-12-07", { ui_date_range_days: 7, booking_roll_hour: 0 })).toBe(manilaInstant("2026-11-30"));
    expect(offeredDateRange(manilaInstant("2026-11-30"), { ui_date_range_days: 7, booking_roll_hour: 0 }).maxDate).toBe("2026-12-07");
  });

  test("a range means the grid's times inside it, in order", () => {
    expect(timesInRange("06:08", "06:24", ["06:32", "06:00", "06:08", "06:16", "06:24", "06:16"])).toEqual(["06:08", "06:16", "06:24"]);
    expect(timesInRange("09:00", "09:30", ["06:00"])).toEqual([]);
  });

  test("the shape checks, first problem wins", () => {
    const today = "2026-11-22";
    const check = (over: Partial<{ weekdays: number[]; startDate: string; endDate: string | null; skipDates: string[] }>) =>
      checkSeriesCalendar({ ...weekly, ...over }, today)?.key ?? null;
    expect(check({})).toBeNull();
    expect(check({ weekdays: [] })).toBe("series.error.no_weekdays");
    expect(check({ weekdays: [0] })).toBe("series.error.bad_weekday");
    expect(check({ startDate: "2026-02-30" })).toBe("series.error.bad_date");
    expect(check({ startDate: "2026-11-21" })).toBe("series.error.start_past");
    expect(check({ endDate: "2026-11-22" })).toBe("series.error.end_before_start");
    expect(check({ skipDates: ["2026-12-10"] })).toBe("series.error.skip_outside");
    expect(check({ startDate: "2028-01-01", endDate: null, skipDates: [] })).toBe("series.error.start_too_far");
  });
});

describe("the rotation among series wanting one release", () => {
  test("never-led series first (older first), then the one that led longest ago; the leader goes to the back", () => {
    const line = (entries: { seriesId: number; ledAt: number | null }[]) => rotationOrder(entries).map((e) => e.seriesId);
    expect(
      line([
        { seriesId: 3, ledAt: null },
        { seriesId: 1, ledAt: null },
        { seriesId: 2, ledAt: null },
      ]),
    ).toEqual([1, 2, 3]);
    expect(
      line([
        { seriesId: 1, ledAt: 100 },
        { seriesId: 2, ledAt: null },
        { seriesId: 3, ledAt: null },
      ]),
    ).toEqual([2, 3, 1]);
    expect(
      line([
        { seriesId: 1, ledAt: 100 },
        { seriesId: 2, ledAt: 200 },
        { seriesId: 3, ledAt: 50 },
      ]),
    ).toEqual([3, 1, 2]);
  });

  test("over weeks every series leads in turn, whatever their age", () => {
    let entries = [1, 2, 3, 4].map((seriesId) => ({ seriesId, ledAt: null as number | null }));
    const leaders: number[] = [];
    for (let week = 1; week <= 8; week++) {
      const [leader] = rotationOrder(entries);
      leaders.push(leader.seriesId);
      entries = entries.map((e) => (e.seriesId === leader.seriesId ? { ...e, ledAt: week } : e));
    }
    expect(leaders).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
  });
});
