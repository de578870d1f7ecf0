import { describe, expect, test } from "bun:test";
import {
  addDays,
  daysBetween,
  dayName,
  formatClockTime,
  formatEventDate,
  formatLongDate,
  formatMonthDay,
  isHhMm,
  isIsoDate,
  manilaDate,
  manilaHour,
  manilaInstant,
  manilaTimeOfDay,
  minutesOf,
  normaliseTime,
  parseBookingDate,
  shortDayName,
  timeFromMinutes,
  weekdayOf,
} from "../../src/domain/manila-time.ts";

// The suite also runs with TZ=America/New_York: every expectation is written in Manila or UTC terms.
describe("Manila instants", () => {
  test("Manila is UTC+8 whatever the process zone", () => {
    const instant = Date.UTC(2025, 2, 4, 16, 30); // 2025-03-05 00:30 Manila
    expect(manilaDate(instant)).toBe("2025-03-05");
    expect(manilaTimeOfDay(instant)).toBe("00:30:00");
    expect(manilaHour(instant)).toBe(0);
    expect(manilaInstant("2025-03-05", "00:30")).toBe(instant);
  });

  test("US daylight-saving change does not move Manila times", () => {
    // 2025-03-09 is the US spring-forward day.
    expect(manilaInstant("2025-03-09", "07:00") - manilaInstant("2025-03-08", "07:00")).toBe(24 * 3600 * 1000);
    expect(manilaDate(manilaInstant("2025-03-09", "23:59:59"))).toBe("2025-03-09");
  });

  test("clock time for the header", () => {
    expect(formatClockTime(Date.UTC(2025, 2, 5, 1, 2, 3))).toBe("09:02:03");
    expect(formatClockTime(null)).toBe("--:--:--");
    expect(formatClockTime(Number.NaN)).toBe("--:--:--");
  });
});

describe("calendar", () => {
  test("addDays and daysBetween across month, year and leap day", () => {
    expect(addDays("2025-02-28", 1)).toBe("2025-03-01");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(daysBetween("2025-12-25", "2026-01-02")).toBe(8);
  });

  test("weekdays 1 = Monday … 7 = Sunday", () => {
    expect(weekdayOf("2025-03-03")).toBe(1);
    expect(weekdayOf("2025-03-09")).toBe(7);
    expect(dayName("2025-03-05")).toBe("Wednesday");
    expect([1, 7].map(shortDayName)).toEqual(["Mon", "Sun"]);
  });

  test("formats", () => {
    expect(formatEventDate("2025-03-05")).toBe("Mar 5, 2025");
    expect(formatMonthDay("2025-12-25")).toBe("Dec 25");
    expect(formatLongDate("2025-03-05")).toBe("Wednesday Mar 5, 2025");
  });

  test("validators", () => {
    expect(isIsoDate("2025-02-29")).toBe(false);
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isHhMm("23:59")).toBe(true);
    expect(isHhMm("24:00")).toBe(false);
    expect(isHhMm("7:00")).toBe(false);
  });

  test("parseBookingDate reads ISO and the club's format", () => {
    expect(parseBookingDate("2025-03-05")).toBe("2025-03-05");
    expect(parseBookingDate("Wednesday Mar 5, 2025")).toBe("2025-03-05");
    expect(parseBookingDate("Wednesday, March 5, 2025")).toBe("2025-03-05");
    expect(parseBookingDate("Feb 30, 2025")).toBeNull();
    expect(parseBookingDate("tomorrow")).toBeNull();
  });

  test("minutes", () => {
    expect(minutesOf("11:00")).toBe(660);
    expect(timeFromMinutes(664)).toBe("11:04");
  });
});

describe("normaliseTime", () => {
  test("24-hour and 12-hour forms", () => {
    expect(normaliseTime("07:04")).toBe("07:04");
    expect(normaliseTime("7:04")).toBe("07:04");
    expect(normaliseTime("07:04:00")).toBe("07:04");
    expect(normaliseTime(" 7:04 AM ")).toBe("07:04");
    expect(normaliseTime("12:08 am")).toBe("00:08");
    expect(normaliseTime("12:08 PM")).toBe("12:08");
    expect(normaliseTime("1:12PM")).toBe("13:12");
  });
  test("rejects nonsense", () => {
    expect(normaliseTime("13:00 PM")).toBeNull();
    expect(normaliseTime("0:30 AM")).toBeNull();
    expect(normaliseTime("24:00")).toBeNull();
    expect(normaliseTime("7.04")).toBeNull();
    expect(normaliseTime("")).toBeNull();
  });
});
