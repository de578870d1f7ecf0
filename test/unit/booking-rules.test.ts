import { describe, expect, test } from "bun:test";
import {
  CLUB_MAX_PLAYERS,
  DEFAULT_LIMITS,
  NEW_RULE_DEFAULTS,
  findApplicableLimits,
  formatLimit,
  formatRuleDays,
  isCourseActiveOn,
  sortRuleDays,
  type BookingRule,
  type Holiday,
} from "../../src/domain/booking-rules.ts";

const WED = "2025-03-05";
const SAT = "2025-03-08";

const rule = (over: Partial<BookingRule>): BookingRule => ({
  id: 1,
  priority: 10,
  days_of_week: [1, 2, 3, 4, 5],
  applies_on_holidays: false,
  start_time: "05:00",
  end_time: "12:00",
  min_players: 2,
  max_players: 4,
  max_guests: 1,
  ...over,
});

describe("constants", () => {
  test("defaults", () => {
    expect(DEFAULT_LIMITS).toEqual({ minPlayers: 1, maxPlayers: 4, maxGuests: 3, rule: null });
    expect(CLUB_MAX_PLAYERS).toBe(4);
    expect(NEW_RULE_DEFAULTS).toEqual({
      priority: 10,
      days_of_week: [],
      applies_on_holidays: false,
      start_time: "05:00",
      end_time: "17:00",
      min_players: 1,
      max_players: 4,
      max_guests: 3,
    });
  });
});

describe("findApplicableLimits", () => {
  const weekday = rule({});
  test("a rule matching weekday and time applies", () => {
    expect(findApplicableLimits([weekday], [], WED, "07:00")).toEqual({
      minPlayers: 2,
      maxPlayers: 4,
      maxGuests: 1,
      rule: weekday,
    });
  });

  test("start and end are inclusive", () => {
    expect(findApplicableLimits([weekday], [], WED, "05:00").rule).toBe(weekday);
    expect(findApplicableLimits([weekday], [], WED, "12:00").rule).toBe(weekday);
    expect(findApplicableLimits([weekday], [], WED, "04:59")).toEqual(DEFAULT_LIMITS);
    expect(findApplicableLimits([weekday], [], WED, "12:01")).toEqual(DEFAULT_LIMITS);
  });

  test("another weekday gets the defaults", () => {
    expect(findApplicableLimits([weekday], [], SAT, "07:00")).toEqual(DEFAULT_LIMITS);
  });

  test("the lowest priority number wins, then the lowest id", () => {
    const loose = rule({ id: 2, priority: 10, max_guests: 3 });
    const strict = rule({ id: 3, priority: 1, max_guests: 0 });
    expect(findApplicableLimits([loose, strict], [], WED, "07:00").rule).toBe(strict);
    const twin = rule({ id: 9, priority: 10 });
    expect(findApplicableLimits([twin, loose], [], WED, "07:00").rule).toBe(loose);
  });

  test("on a holiday only holiday rules count, whatever the weekday", () => {
    const holidays: Holiday[] = [{ date: WED, name: "Ash Wednesday" }];
    expect(findApplicableLimits([weekday], holidays, WED, "07:00")).toEqual(DEFAULT_LIMITS);
    const holidayRule = rule({ id: 5, days_of_week: [6, 7], applies_on_holidays: true, max_guests: 2 });
    expect(findApplicableLimits([weekday, holidayRule], holidays, WED, "07:00").rule).toBe(holidayRule);
    expect(findApplicableLimits([weekday, holidayRule], holidays, WED, "13:00")).toEqual(DEFAULT_LIMITS);
  });

  test("a holiday rule applies on its weekdays when the day is not a holiday", () => {
    const holidayRule = rule({ id: 5, days_of_week: [6], applies_on_holidays: true });
    expect(findApplicableLimits([holidayRule], [], SAT, "07:00").rule).toBe(holidayRule);
    expect(findApplicableLimits([holidayRule], [], WED, "07:00")).toEqual(DEFAULT_LIMITS);
  });

  test("null limits mean no limit: four players, three guests, minimum one", () => {
    const open = rule({ min_players: null, max_players: null, max_guests: null });
    expect(findApplicableLimits([open], [], WED, "07:00")).toEqual({
      minPlayers: 1,
      maxPlayers: 4,
      maxGuests: 3,
      rule: open,
    });
  });

  test("limits never exceed the club's flight of four", () => {
    const big = rule({ max_players: 6, max_guests: 5 });
    expect(findApplicableLimits([big], [], WED, "07:00")).toMatchObject({ maxPlayers: 4, maxGuests: 3 });
  });
});

test("isCourseActiveOn uses the weekday 1=Mon..7=Sun", () => {
  expect(isCourseActiveOn({ days_active: [3] }, WED)).toBe(true);
  expect(isCourseActiveOn({ days_active: [1, 2, 4, 5, 6, 7] }, WED)).toBe(false);
  expect(isCourseActiveOn({ days_active: [7] }, "2025-03-09")).toBe(true);
});

test("sortRuleDays sorts, removes repeats and drops non-days", () => {
  expect(sortRuleDays([7, 1, 3, 1, 0, 8, 2.5])).toEqual([1, 3, 7]);
});

describe("formatRuleDays", () => {
  test("short names in week order, plus Hol", () => {
    expect(formatRuleDays({ days_of_week: [2, 1], applies_on_holidays: true })).toBe("Mon Tue Hol");
    expect(formatRuleDays({ days_of_week: [7, 6], applies_on_holidays: false })).toBe("Sat Sun");
    expect(formatRuleDays({ days_of_week: [], applies_on_holidays: true })).toBe("Hol");
    expect(formatRuleDays({ days_of_week: [], applies_on_holidays: false })).toBe("-");
  });
});

test("formatLimit shows '-' for no limit", () => {
  expect(formatLimit(null)).toBe("-");
  expect(formatLimit(undefined)).toBe("-");
  expect(formatLimit(0)).toBe("0");
  expect(formatLimit(3)).toBe("3");
});
