import { describe, expect, test } from "bun:test";
import { formatBytes, formatReleaseAt } from "../../src/domain/format.ts";

describe("formatBytes", () => {
  test("units in 1024 steps, one decimal above bytes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(1024 ** 2 * 2.25)).toBe("2.3 MB");
    expect(formatBytes(1024 ** 3 * 7.9)).toBe("7.9 GB");
    expect(formatBytes(1024 ** 4)).toBe("1.0 TB");
    expect(formatBytes(1024 ** 5)).toBe("1024.0 TB");
  });
  test("nonsense is 0 B", () => {
    expect(formatBytes(-5)).toBe("0 B");
    expect(formatBytes(Number.NaN)).toBe("0 B");
  });
});

test("formatReleaseAt is Manila time", () => {
  expect(formatReleaseAt(Date.UTC(2025, 2, 4, 23, 0))).toBe("Mar 5, 2025 07:00");
  expect(formatReleaseAt(Date.UTC(2025, 11, 31, 16, 5))).toBe("Jan 1, 2026 00:05");
});
