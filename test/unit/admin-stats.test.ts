import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppDeps } from "../../src/deps.ts";
import { createJobRegistry } from "../../src/jobs/registry.ts";
import { createStatsSampler } from "../../src/features/admin/admin-stats.service.ts";

describe("system stats sampler", () => {
  test("reports the disk of the database file's folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "teebox-stats-"));
    try {
      const deps = { jobs: createJobRegistry(), database: { filePath: join(dir, "teebox.db") } } as unknown as AppDeps;
      const stats = await createStatsSampler().read(deps);
      const fs = statfsSync(dir);
      expect(stats.disk?.total).toBe(fs.blocks * fs.bsize);
      expect(stats.disk!.used).toBeGreaterThan(0);
      expect(stats.disk!.percent).toBeGreaterThan(0);
      expect(stats.disk!.percent).toBeLessThanOrEqual(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
