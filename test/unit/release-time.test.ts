import { describe, expect, test } from "bun:test";
import { isReleased, releaseDate, releaseInstant } from "../../src/domain/release-time.ts";

const SETTINGS = { release_days_before: 7, release_time: "07:00" };

describe("releaseInstant", () => {
  test("play date minus the days, at the release time in Manila (UTC+8)", () => {
    expect(releaseInstant("2025-03-12", SETTINGS)).toBe(Date.UTC(2025, 2, 4, 23, 0));
    expect(new Date(releaseInstant("2025-03-12", SETTINGS)).toISOString()).toBe("2025-03-04T23:00:00.000Z");
  });

  test("across a month end", () => {
    expect(releaseDate("2025-03-03", SETTINGS)).toBe("2025-02-24");
    expect(releaseInstant("2025-03-03", { release_days_before: 3, release_time: "00:30" })).toBe(Date.UTC(2025, 1, 27, 16, 30));
  });

  test("across a year end", () => {
    expect(releaseInstant("2026-01-02", SETTINGS)).toBe(Date.UTC(2025, 11, 25, 23, 0));
  });

  test("across a leap day", () => {
    expect(releaseDate("2024-03-01", { release_days_before: 1 })).toBe("2024-02-29");
  });

  test("zero days before: the play date itself", () => {
    expect(releaseInstant("2025-03-05", { release_days_before: 0, release_time: "23:59" })).toBe(Date.UTC(2025, 2, 5, 15, 59));
  });
});

describe("isReleased", () => {
  const release = Date.UTC(2025, 2, 4, 23, 0);
  test("not before the instant, released at and after it", () => {
    expect(isReleased("2025-03-12", SETTINGS, release - 1)).toBe(false);
    expect(isReleased("2025-03-12", SETTINGS, release)).toBe(true);
    expect(isReleased("2025-03-12", SETTINGS, release + 1)).toBe(true);
  });
});
