import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppDeps } from "../../src/deps.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { createJobRegistry } from "../../src/jobs/registry.ts";
import { createSecretBox } from "../../src/lib/secret-box.ts";
import { createStatsSampler, diskFigures } from "../../src/features/admin/admin-stats.service.ts";

describe("system stats sampler", () => {
  test("reports the disk of the database file's folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "teebox-stats-"));
    const memory = openDatabase("file::memory:");
    await migrate(memory, 0);
    try {
      const database = { ...memory, filePath: join(dir, "teebox.db") };
      const slotWatch = { stats: async () => ({ activeWatches: 0, pollsPerMinute: 0, pollSeconds: 60 }) };
      const deps = { jobs: createJobRegistry(() => 0), database, secretBox: createSecretBox(Buffer.alloc(32, 1)), slotWatch } as unknown as AppDeps;
      const stats = await createStatsSampler().read(deps);
      const fs = statfsSync(dir);
      expect(stats.disk?.total).toBe(fs.blocks * fs.bsize);
      expect(stats.disk!.used).toBeGreaterThan(0);
      expect(stats.disk!.percent).toBeGreaterThan(0);
      expect(stats.disk!.percent).toBeLessThanOrEqual(100);
      expect(stats.unreadableClubPasswords).toBe(0);
    } finally {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("disk figures", () => {
  test("the percentage is computed as df does: used ÷ (used + available)", () => {
    // 100 blocks, 40 free of which 5 reserved for root: 60 used, 35 available.
    const figures = diskFigures({ blocks: 100, bfree: 40, bavail: 35, bsize: 4096 });
    expect(figures.used).toBe(60 * 4096);
    expect(figures.total).toBe(100 * 4096);
    // 60 / 95 = 63.16 %, rounded up as df does (not 60 / 100 = 60 %).
    expect(figures.percent).toBe(63.2);
    expect(diskFigures({ blocks: 100, bfree: 5, bavail: 0, bsize: 512 }).percent).toBe(100);
    expect(diskFigures({ blocks: 0, bfree: 0, bavail: 0, bsize: 512 }).percent).toBe(0);
  });
});
