/**
 * The soak's processes: the demo club and Teebox, each a real process on the shared simulated
 * clock, and what is read of them from outside (/proc for CPU and memory, the size of Teebox's
 * log). Teebox can be stopped as an operator would (SIGTERM) or killed (kill -9), and started again
 * on the same data folder.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { ClubProcessOptions } from "../club-process.ts";
import { freePort, rssMb, ROOT } from "../support.ts";

export interface ClubHandle {
  url: string;
  pid: number;
  control<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** The JSON a child prints on its first line (a server saying where it listens). */
async function firstLine<T>(stream: ReadableStream<Uint8Array>): Promise<T> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the process ended before it printed its first line");
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return JSON.parse(text.slice(0, text.indexOf("\n"))) as T;
}

export async function startClub(options: ClubProcessOptions): Promise<ClubHandle> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "club-process.ts"), JSON.stringify(options)], { stdout: "pipe", stderr: "inherit" });
  const { url } = await firstLine<{ url: string }>(proc.stdout);
  return {
    url,
    pid: proc.pid,
    async control<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${url}/__control${path}`, {
        method,
        headers: { "x-control-token": options.controlToken, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`club control ${method} ${path}: ${res.status} ${await res.text()}`);
      return (res.status === 204 ? null : await res.json()) as T;
    },
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Lines kept of Teebox's output, for the report when something goes wrong. */
const TAIL_LINES = 500;

export interface TeeboxHandle {
  /** Where the serving Teebox answers (a race at a restart may leave the other start serving). */
  readonly url: string;
  dataDir: string;
  pid(): number;
  isRunning(): boolean;
  /** Bytes Teebox has written to stdout and stderr since the soak began (all its lives). */
  logBytes(): number;
  /** Error-level log lines and anything on stderr since the soak began. */
  errorLines(): string[];
  /** The last lines Teebox wrote. */
  tail(): string[];
  /** How each life ended: 'term' (SIGTERM, exit code), 'kill' (kill -9) or 'crash' (ended on its own), with its last lines. */
  ends(): LifeEnd[];
  /**
   * SIGTERM and start again; resolves once it answers /healthz. With `raceMs`, a second start on the
   * same data folder follows the first that many ms later (a supervisor racing a manual start):
   * exactly one may serve, the other must stop with one line and a non-zero exit.
   */
  restartGracefully(raceMs?: number): Promise<{ stopMs: number; startMs: number; code: number | null; race: RaceOutcome | null; down: Downtime }>;
  /** kill -9 and start again. */
  restartKilled(): Promise<{ startMs: number; down: Downtime }>;
  /** SIGTERM (kill -9 after 30 s); `start` brings it back on the same data folder. */
  stop(): Promise<void>;
  start(): Promise<number>;
}

/** From the signal to the moment the next Teebox served, on the clock the handle was given. */
export interface Downtime {
  fromMs: number;
  /** When the signalled process had ended. */
  endedMs: number;
  toMs: number;
}

export interface LifeEnd {
  how: "term" | "kill" | "crash";
  code: number | null;
  /** The signal that ended it, if one did. */
  signal: string | null;
  /** The last lines Teebox wrote before it ended. */
  lastLines: string[];
}

/** What became of the start that lost a race (or of the second server, when both served). */
export interface RaceOutcome {
  bothServed: boolean;
  /** The loser's exit code (null: it served, and was stopped by the soak). */
  code: number | null;
  /** What it wrote on stderr. */
  stderr: string;
}

type TeeboxProc = Subprocess<"ignore", "pipe", "pipe">;

/** `now`: the clock a restart's downtime is told on (the soak's simulated one). */
export async function startTeeboxProcess(env: Record<string, string>, dataDir: string, now: () => number = Date.now): Promise<TeeboxHandle> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let port = await freePort();
  let proc: TeeboxProc;
  let logBytes = 0;
  const tail: string[] = [];
  const errors: string[] = [];
  const ends: LifeEnd[] = [];
  let ending: "term" | "kill" | null = null;
  const urlOf = (p: number) => `http://127.0.0.1:${p}`;

  const remember = (line: string, isStderr: boolean) => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
    if ((isStderr && line.trim()) || line.includes('"level":"error"')) errors.push(line.slice(0, 1000));
  };
  const drain = async (stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) => {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of stream) {
      logBytes += chunk.byteLength;
      buffered += decoder.decode(chunk, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        onLine(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
      }
    }
    if (buffered) onLine(buffered);
  };

  function spawnOn(onPort: number, stderrLines: string[]): TeeboxProc {
    const child = Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
      cwd: dataDir,
      env: { ...process.env, ...env, PORT: String(onPort), HOST: "127.0.0.1", DATA_DIR: dataDir },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    void drain(child.stdout, (line) => remember(line, false));
    void drain(child.stderr, (line) => {
      stderrLines.push(line);
      remember(line, true);
    });
    return child;
  }

  /** Adopted as the serving Teebox: its end is recorded as a life's end. */
  function adopt(child: TeeboxProc, onPort: number): void {
    proc = child;
    port = onPort;
    void child.exited.then((code) => {
      ends.push({ how: ending ?? "crash", code, signal: child.signalCode === null ? null : String(child.signalCode), lastLines: tail.slice(-20) });
      ending = null;
    });
  }

  const answers = async (onPort: number) => {
    const res = await fetch(`${urlOf(onPort)}/healthz`).catch(() => null);
    await res?.arrayBuffer();
    return res !== null;
  };
  /** The pid the serving Teebox wrote in the data folder (it writes it once it serves). */
  const servingPid = () => {
    try {
      return Number(readFileSync(join(dataDir, "teebox.pid"), "utf8").trim());
    } catch {
      return null;
    }
  };
  /**
   * `child` itself serves on `onPort`: it answers there, is alive, and is the pid the data folder
   * names. An answer alone is not enough: another Teebox left on that port would answer for it.
   */
  const serves = async (child: TeeboxProc, onPort: number) => child.exitCode === null && (await answers(onPort)) && servingPid() === child.pid;

  async function launch(): Promise<number> {
    const started = performance.now();
    const child = spawnOn(port, []);
    const deadline = performance.now() + 60_000;
    while (!(await serves(child, port))) {
      if (child.exitCode !== null || performance.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`Teebox did not start (exit ${child.exitCode}):\n${tail.slice(-30).join("\n")}`);
      }
      await Bun.sleep(50);
    }
    adopt(child, port);
    return performance.now() - started;
  }

  /**
   * Stops, kills and starts run one at a time: two at once (a kill -9 and a SIGTERM planned in the
   * same phase) would signal a process already gone while the other's start is under way, and
   * leave a Teebox nobody tracks serving on the folder.
   */
  let busy: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(operation: () => Promise<T>): Promise<T> => {
    const run = busy.then(operation);
    busy = run.catch(() => undefined);
    return run;
  };

  /** Two starts on one folder, `raceMs` apart: the one that serves is adopted, the other's end reported. */
  async function launchRacing(raceMs: number): Promise<{ startMs: number; race: RaceOutcome }> {
    const started = performance.now();
    const ports = [port, await freePort()];
    const stderr: string[][] = [[], []];
    const children = [spawnOn(ports[0], stderr[0])];
    await Bun.sleep(raceMs);
    children.push(spawnOn(ports[1], stderr[1]));
    const deadline = performance.now() + 60_000;
    for (;;) {
      // Each start on its own port: one that answers there and is alive serves (both may: the defect this looks for).
      const serving = await Promise.all(children.map(async (child, i) => child.exitCode === null && (await answers(ports[i]))));
      const ended = children.map((c) => c.exitCode !== null);
      const winner = serving.findIndex(Boolean);
      if (winner >= 0 && (ended[1 - winner] || serving[1 - winner])) {
        const loser = 1 - winner;
        // Both serving: the second is given a moment to notice, then stopped (two engines ran).
        if (serving[loser]) children[loser].kill("SIGTERM");
        const code = serving[loser] ? null : children[loser].exitCode;
        await children[loser].exited;
        adopt(children[winner], ports[winner]);
        return { startMs: performance.now() - started, race: { bothServed: serving[loser], code, stderr: stderr[loser].join("\n") } };
      }
      if (ended.every(Boolean) || performance.now() > deadline) {
        for (const child of children) child.kill("SIGKILL");
        throw new Error(`neither of two racing starts served:\n${tail.slice(-30).join("\n")}`);
      }
      await Bun.sleep(50);
    }
  }

  await launch();
  return {
    get url() {
      return urlOf(port);
    },
    dataDir,
    pid: () => proc.pid,
    isRunning: () => proc.exitCode === null && proc.signalCode === null,
    logBytes: () => logBytes,
    errorLines: () => errors,
    tail: () => [...tail],
    ends: () => [...ends],
    restartGracefully: (raceMs) =>
      oneAtATime(async () => {
        const started = performance.now();
        const fromMs = now();
        ending = "term";
        proc.kill("SIGTERM");
        const code = await proc.exited;
        const stopMs = performance.now() - started;
        const endedMs = now();
        if (raceMs === undefined) {
          const startMs = await launch();
          return { stopMs, code, startMs, race: null, down: { fromMs, endedMs, toMs: now() } };
        }
        const raced = await launchRacing(raceMs);
        return { stopMs, code, startMs: raced.startMs, race: raced.race, down: { fromMs, endedMs, toMs: now() } };
      }),
    restartKilled: () =>
      oneAtATime(async () => {
        const fromMs = now();
        ending = "kill";
        proc.kill("SIGKILL");
        await proc.exited;
        const endedMs = now();
        const startMs = await launch();
        return { startMs, down: { fromMs, endedMs, toMs: now() } };
      }),
    start: () => oneAtATime(launch),
    stop: () =>
      oneAtATime(async () => {
        if (proc.exitCode !== null || proc.signalCode !== null) return;
        ending = "term";
        proc.kill("SIGTERM");
        const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
        await proc.exited;
        clearTimeout(timer);
      }),
  };
}

/**
 * CPU time each thread of a process now alive has used, in ms with nanosecond precision, from
 * /proc/<pid>/task/<tid>/schedstat (Linux): fine enough for one-second slices at rest, where the
 * clock-tick counts of /proc/<pid>/stat (10 ms each) are too coarse. Compare two readings with
 * `usedBetween`; use `cpuMs` for long spans (a thread that ended takes its time with it here).
 */
export async function threadCpu(pid: number): Promise<Map<string, number>> {
  const threads = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const text = await Bun.file(`/proc/${pid}/task/${tid}/schedstat`)
      .text()
      .catch(() => "");
    const ns = Number(text.split(" ")[0]);
    if (Number.isFinite(ns)) threads.set(tid, ns / 1e6);
  }
  return threads;
}

/** CPU ms used between two readings by the threads alive at the second (a new one counts whole). */
export function usedBetween(before: Map<string, number>, after: Map<string, number>): number {
  let used = 0;
  for (const [tid, ms] of after) used += Math.max(0, ms - (before.get(tid) ?? 0));
  return used;
}

/** CPU time a process has used (user + system), in ms, from /proc (Linux). */
export async function cpuMs(pid: number): Promise<number> {
  const { userMs, systemMs } = await cpuSplitMs(pid);
  return userMs + systemMs;
}

/** A process's CPU time so far, its own code's (user) and the kernel's on its behalf (system), in ms. */
export async function cpuSplitMs(pid: number): Promise<{ userMs: number; systemMs: number }> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  // The command name may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const toMs = (ticks: string | undefined) => (Number(ticks) * 1000) / CLOCK_TICKS_PER_SECOND;
  return { userMs: toMs(fields[11]), systemMs: toMs(fields[12]) };
}

/** The kernel's clock ticks per second (USER_HZ), 100 on every Linux we run on. */
const CLOCK_TICKS_PER_SECOND = 100;

export { rssMb };
