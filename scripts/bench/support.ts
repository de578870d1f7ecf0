/**
 * Shared pieces of the benchmarks: start a Teebox process on a fresh data folder, sign in, read
 * peak memory of a process. Benchmarks print figures; they assert nothing.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { RUNTIME_OPTIONS } from "../../src/runtime-options.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const BENCH_ADMIN_PASSWORD = "bench-admin-password";

export interface TeeboxProcess {
  url: string;
  dataDir: string;
  proc: Subprocess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port as number;
  server.stop(true);
  return port;
}

export async function waitFor(url: string, timeoutMs = 20_000): Promise<Response> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return res;
    } catch {
      // not up yet
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await Bun.sleep(20);
  }
}

/** The single binary, dist/teebox, as deployed: built first (scripts/build.ts) when it is missing. */
export function builtBinary(): string {
  const binary = join(ROOT, "dist", "teebox");
  if (existsSync(binary)) return binary;
  const build = Bun.spawnSync([process.execPath, join(ROOT, "scripts", "build.ts")], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) throw new Error("the binary could not be built (scripts/build.ts)");
  return binary;
}

/**
 * Starts Teebox (`src/main.ts` with the running Bun, or a given command such as dist/teebox) and waits
 * for /healthz. From source too it runs with the binary's runtime options (decision 208), as deployed.
 */
export async function startTeebox(options: { command?: string[]; dataDir?: string; env?: Record<string, string> } = {}): Promise<TeeboxProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "teebox-bench-"));
  const port = await freePort();
  const proc = Bun.spawn(options.command ?? [process.execPath, join(ROOT, "src/main.ts")], {
    cwd: dataDir,
    env: { ...RUNTIME_OPTIONS, ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD, LOG_LEVEL: "warn", ...options.env },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`);
  return {
    url,
    dataDir,
    proc,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

export async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

/** Resident set size of a process in MB, from /proc (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/**
 * What resident memory is made of: anonymous pages (the heaps, the JIT's code, buffers) and pages of
 * files, mostly the executable's own (Bun's runtime, the embedded code), which the kernel can drop
 * and read again.
 */
export function rssBreakdownMb(pid: number | "self"): { anonMb: number; fileMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { anonMb: kb("RssAnon") / 1024, fileMb: kb("RssFile") / 1024, peakMb: kb("VmHWM") / 1024 };
}

export async function peakRssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
