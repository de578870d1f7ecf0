/**
 * The soak's hold on Teebox's processes (scripts/bench/soak/processes.ts). A week's kill -9 and
 * SIGTERM restart can fall in the same phase of one day; asked at once, they must run one after the
 * other. Run together, the SIGTERM found the killed process already gone while the kill's start was
 * under way, its own start raced that one, and a Teebox nobody tracked was left serving on the data
 * folder: every later start was refused ("already served by another Teebox") and reported as
 * Teebox ending on its own, day after day, though Teebox had done nothing wrong.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTeeboxProcess, type TeeboxHandle } from "../../scripts/bench/soak/processes.ts";

const dir = mkdtempSync(join(tmpdir(), "teebox-soak-processes-"));
const dataDir = join(dir, "data");
const pidFile = join(dataDir, "teebox.pid");
let teebox: TeeboxHandle | null = null;

afterAll(async () => {
  await teebox?.stop();
  // Whatever the handle lost track of is stopped too, so a failing run leaves nothing behind.
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    if (pid > 0) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const answers = (url: string) =>
  fetch(`${url}/healthz`).then(
    async (r) => {
      await r.arrayBuffer();
      return true;
    },
    () => false,
  );

test("a kill -9 and a SIGTERM restart asked at once run one after the other: the Teebox that serves is the one tracked, and none is left behind", async () => {
  // No club is needed to start and serve: nothing listens on port 9 of loopback.
  const env = { CLUB_URL: "http://127.0.0.1:9", ADMIN_PASSWORD: "soak-processes-password", SECRET_KEY: "soak-processes-secret-0123456789ab", LOG_LEVEL: "warn" };
  teebox = await startTeeboxProcess(env, dataDir);

  const [killed, termed] = await Promise.all([teebox.restartKilled(), teebox.restartGracefully(20)]);
  expect(killed.startMs).toBeGreaterThan(0);
  // The SIGTERM reached a live Teebox (the one the kill's start brought up) and it stopped cleanly.
  expect(termed.code).toBe(0);
  expect(termed.race?.bothServed).toBe(false);

  // The serving Teebox is the one the handle tracks.
  expect(teebox.isRunning()).toBe(true);
  expect(Number(readFileSync(pidFile, "utf8").trim())).toBe(teebox.pid());
  expect(await answers(teebox.url)).toBe(true);
  expect(teebox.ends().map((end) => end.how)).toEqual(["kill", "term"]);

  // Stopped, nothing answers on its port any more and no pid file names a server.
  const url = teebox.url;
  await teebox.stop();
  expect(await answers(url)).toBe(false);
  expect(existsSync(pidFile)).toBe(false);
}, 120_000);
