import { describe, expect, test } from "bun:test";
import { checkCourse, checkHolidayDate, checkHolidayName, checkMessage, checkRule, checkWindow, parseWholeNumber } from "../../src/domain/admin-checks.ts";

const keyOf = (checked: { ok: boolean; problem?: { key: string } }) => (checked.ok ? "ok" : checked.problem!.key);

describe("admin checks", () => {
  test("course: id and name, at least one day, days sorted", () => {
    expect(keyOf(checkCourse({ id: " ", name: "X", days_active: [1] }))).toBe("admin.courses.error_required");
    expect(keyOf(checkCourse({ id: "a b", name: "X", days_active: [1] }))).toBe("admin.courses.error_id_invalid");
    expect(keyOf(checkCourse({ id: "x", name: "X", days_active: [] }))).toBe("admin.courses.error_days");
    expect(keyOf(checkCourse({ id: "x", name: "X", days_active: [8] }))).toBe("admin.courses.error_days");
    expect(checkCourse({ id: " x ", name: " X ", days_active: [7, 1, 1] })).toEqual({ ok: true, value: { id: "x", name: "X", days_active: [1, 7] } });
  });

  test("window: rule key upper-cased and required, HH:MM in order", () => {
    expect(checkWindow({ rule_key: " default ", start_time: "05:04", end_time: "16:48" })).toEqual({
      ok: true,
      value: { rule_key: "DEFAULT", start_time: "05:04", end_time: "16:48" },
    });
    expect(keyOf(checkWindow({ rule_key: "", start_time: "05:04", end_time: "16:48" }))).toBe("admin.windows.error_rule_key");
    expect(keyOf(checkWindow({ rule_key: "A", start_time: "5:04", end_time: "16:48" }))).toBe("admin.windows.error_start");
    expect(keyOf(checkWindow({ rule_key: "A", start_time: "05:04", end_time: "16:60" }))).toBe("admin.windows.error_end");
    expect(keyOf(checkWindow({ rule_key: "A", start_time: "10:00", end_time: "09:00" }))).toBe("admin.windows.error_order");
  });

  test("holiday: date required and real; empty name is no name", () => {
    expect(keyOf(checkHolidayDate(""))).toBe("admin.holidays.error_date_required");
    expect(keyOf(checkHolidayDate("2026-02-30"))).toBe("admin.holidays.error_date_invalid");
    expect(checkHolidayName("  ")).toEqual({ ok: true, value: null });
  });

  test("message: title and content required", () => {
    expect(keyOf(checkMessage({ title: "", content: "x" }))).toBe("admin.frontpage.error_title");
    expect(keyOf(checkMessage({ title: "x", content: "" }))).toBe("admin.frontpage.error_content");
    expect(checkMessage({ title: "t", content: "c" })).toEqual({ ok: true, value: { title: "t", content: "c", is_active: true, eventDate: null } });
  });

  test("rule: integers parsed, empty limits null, bounds", () => {
    expect(parseWholeNumber(" 7 ")).toBe(7);
    expect(parseWholeNumber("")).toBeNull();
    expect(parseWholeNumber("1.5")).toBeNaN();
    const base = { days_of_week: [3, 1], start_time: "05:00", end_time: "17:00" };
    expect(checkRule({ ...base, priority: "", min_players: "", max_players: null, max_guests: "2" })).toEqual({
      ok: true,
      value: { priority: 10, days_of_week: [1, 3], applies_on_holidays: false, start_time: "05:00", end_time: "17:00", min_players: null, max_players: null, max_guests: 2 },
    });
    expect(keyOf(checkRule({ ...base, max_guests: 4 }))).toBe("admin.rules.error_limit");
    expect(keyOf(checkRule({ ...base, min_players: 3, max_players: 2 }))).toBe("admin.rules.error_min_max");
    expect(keyOf(checkRule({ ...base, days_of_week: [0] }))).toBe("admin.rules.error_days");
  });
});
