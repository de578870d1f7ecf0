/**
 * One engine per database, with real processes: two Teebox servers (`bun src/main.ts`) started
 * 0, 10, 20 and 50 ms apart on one data folder, many times, on a new and on an existing database.
 * In every try exactly one serves and runs its jobs; the other exits non-zero with one clear line
 * naming the first, and nothing else (no stack trace, no SQLITE_BUSY). A server killed with
 * SIGKILL leaves nothing in the way: the next start proceeds at once.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "..", "..");
const STAGGERS_MS = [0, 10, 20, 50];
const SERVING_LINE = /^Teebox is running at http:\/\/127\.0\.0\.1:\d+$/m;
const REFUSAL_LINE = /^Teebox cannot start: DATA_DIR (.+) is already served by another Teebox \(pid (\d+)\)$/;
const START_TIMEOUT_MS = 30_000;

interface Run {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  stdout: string;
  stderr: string;
  /** Resolves when the process has said it serves, or has exited. */
  settled: Promise<void>;
}

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "teebox-one-engine-"));
  folders.push(dir);
  return dir;
}

function startServer(dataDir: string): Run {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
    cwd: ROOT,
    // A club nobody answers at: the jobs run (and fail to reach it) without the demo club's work.
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SECRET_KEY: "one-engine-test-key-0123456789",
      CLUB_URL: "http://127.0.0.1:9",
      ADMIN_PASSWORD: "one-engine-admin-1",
      LOG_LEVEL: "info",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const run: Run = { proc, stdout: "", stderr: "", settled: Promise.resolve() };
  const read = async (stream: ReadableStream<Uint8Array>, into: "stdout" | "stderr", onText: () => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      run[into] += decoder.decode(chunk);
      onText();
    }
  };
  run.settled = new Promise<void>((resolve) => {
    const check = () => {
      if (SERVING_LINE.test(run.stdout)) resolve();
    };
    void read(proc.stdout, "stdout", check);
    void read(proc.stderr, "stderr", check);
    void proc.exited.then(() => resolve());
  });
  return run;
}

async function settle(run: Run): Promise<void> {
  let timer: Timer | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${START_TIMEOUT_MS} ms:\n${run.stdout}\n${run.stderr}`)), START_TIMEOUT_MS)),
  );
  try {
    await Promise.race([run.settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What one try saw: who served (and ran its jobs), and what the other said. */
interface Outcome {
  serving: number;
  runningJobs: number;
  refusal: { lines: string[]; code: number | null; namedPid: number | null; namesTheServer: boolean } | null;
}

/** Starts two servers `staggerMs` apart, waits until each serves or has exited, then stops the one serving. */
async function race(dataDir: string, staggerMs: number, stopWith: "SIGTERM" | "SIGKILL"): Promise<Outcome> {
  const first = startServer(dataDir);
  if (staggerMs > 0) await Bun.sleep(staggerMs);
  const second = startServer(dataDir);
  const runs = [first, second];
  try {
    await Promise.all(runs.map(settle));
    const served = runs.filter((r) => SERVING_LINE.test(r.stdout));
    const refused = runs.filter((r) => !SERVING_LINE.test(r.stdout));
    let refusal: Outcome["refusal"] = null;
    if (refused.length === 1) {
      const [other] = refused;
      await other.proc.exited;
      const lines = other.stderr.split("\n").filter((line) => line.trim() !== "");
      const namedPid = Number(REFUSAL_LINE.exec(lines[0] ?? "")?.[2] ?? NaN);
      refusal = {
        lines,
        code: other.proc.exitCode,
        namedPid: Number.isNaN(namedPid) ? null : namedPid,
        namesTheServer: served.length === 1 && namedPid === served[0].proc.pid,
      };
    }
    return {
      serving: served.length,
      // Logged once every job has started, after the HTTP server.
      runningJobs: runs.filter((r) => r.stdout.includes('"message":"Teebox is serving"')).length,
      refusal,
    };
  } finally {
    for (const run of runs) if (run.proc.exitCode === null) run.proc.kill(stopWith);
    await Promise.all(runs.map((r) => r.proc.exited));
  }
}

/** A lock file whose holder was killed leaves no journal for the next start to roll back. */
const leftBehind = (dataDir: string) => ["teebox.db-lock-journal"].filter((name) => existsSync(join(dataDir, name)));

const expected = (dataDir: string) => ({
  serving: 1,
  runningJobs: 1,
  refusal: { lines: [expect.stringMatching(REFUSAL_LINE)], code: 1, namedPid: expect.any(Number), namesTheServer: true },
  folder: expect.stringContaining(dataDir),
});

async function tryStaggers(dataDir: string, rounds: number, stopWith: (round: number) => "SIGTERM" | "SIGKILL", freshEachTime: boolean) {
  for (let round = 0; round < rounds; round++) {
    for (const staggerMs of STAGGERS_MS) {
      const dir = freshEachTime ? newDataDir() : dataDir;
      const outcome = await race(dir, staggerMs, stopWith(round));
      const folder = REFUSAL_LINE.exec(outcome.refusal?.lines[0] ?? "")?.[1] ?? "";
      expect({ staggerMs, round, ...outcome, folder, leftBehind: leftBehind(dir) }).toEqual({ staggerMs, round, ...expected(dir), leftBehind: [] });
    }
  }
}

test("on a new data folder, two servers started 0 to 50 ms apart: exactly one serves, the other refuses in one line", async () => {
  await tryStaggers("", 1, () => "SIGTERM", true);
}, 120_000);

test("on an existing database, two servers started 0 to 50 ms apart: exactly one serves; after a kill -9 the next start proceeds", async () => {
  const dataDir = newDataDir();
  // The database exists (migrated, seeded) before the races start.
  const once = startServer(dataDir);
  await settle(once);
  expect(once.stdout).toMatch(SERVING_LINE);
  once.proc.kill("SIGTERM");
  await once.proc.exited;
  // Every other try ends with a kill -9 of the server: its lock dies with it, and a stale pid file
  // does not confuse the next refusal (it names the server that holds the lock now).
  await tryStaggers(dataDir, 2, (round) => (round === 0 ? "SIGKILL" : "SIGTERM"), false);
}, 120_000);
