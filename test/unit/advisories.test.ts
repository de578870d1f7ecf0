import { describe, expect, test } from "bun:test";
import { createdAtMs, sortAdvisories, splitBulletContent } from "../../src/domain/advisories.ts";

describe("splitBulletContent", () => {
  test("splits at each bullet, trims and drops empties", () => {
    expect(splitBulletContent("Course notes: • Greens aerated  •• Cart path only • ")).toEqual(["Course notes:", "Greens aerated", "Cart path only"]);
  });
  test("content without a bullet stays one paragraph", () => {
    expect(splitBulletContent("  Closed on Monday. ")).toEqual(["Closed on Monday."]);
    expect(splitBulletContent("")).toEqual([]);
  });
});

describe("sortAdvisories", () => {
  test("active first, then newest first", () => {
    const list = [
      { id: 1, is_active: false, created_at: "2025-03-05T10:00:00Z" },
      { id: 2, is_active: true, created_at: "2025-03-01T10:00:00Z" },
      { id: 3, is_active: 1, created_at: "2025-03-04 10:00:00" },
      { id: 4, is_active: 0, created_at: Date.UTC(2025, 2, 6) },
    ];
    expect(sortAdvisories(list).map((a) => a.id)).toEqual([3, 2, 4, 1]);
    expect(list.map((a) => a.id)).toEqual([1, 2, 3, 4]);
  });
  test("equal times keep the higher id first", () => {
    const list = [
      { id: 1, is_active: true, created_at: 5 },
      { id: 2, is_active: true, created_at: 5 },
    ];
    expect(sortAdvisories(list).map((a) => a.id)).toEqual([2, 1]);
  });
  test("SQLite text times are UTC", () => {
    expect(createdAtMs("2025-03-04 10:00:00")).toBe(Date.UTC(2025, 2, 4, 10));
    expect(createdAtMs("garbage")).toBe(0);
    expect(createdAtMs(null)).toBe(0);
  });
});
