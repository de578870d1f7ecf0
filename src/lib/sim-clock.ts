/**
 * A simulated clock that several processes share, for benchmarks and tests only: the soak runs
 * Teebox and the demo club as real processes through a year of club life in minutes, both reading
 * the same simulated time (TEEBOX_SIM_CLOCK names the file; decision 150).
 *
 * The time is a line, written in a small file by the one process that drives it: simulated time
 * = baseSim + (real − baseReal) × rate. Between events it runs at real speed (or a small factor);
 * the driver jumps it forward over quiet stretches. Readers map the file (MAP_SHARED), so every
 * `now()` reads the current line with no system call, and hold a connection to the driver's
 * socket beside it (`<file>.sock`), on which the driver writes a byte after every change, so that
 * every sleeper whose moment has come wakes at once. (A file watch is not enough: Bun's fs.watch
 * merges or drops close changes, and a lost wake-up after a change of rate is a release missed.)
 * Nothing polls: a process with nothing due makes no wake-ups at all, since its idle CPU is one of
 * the things measured.
 *
 * File layout, four float64 values: [0] a sequence number, odd while the driver is mid-change (a
 * reader that sees it odd, or changed under it, reads again), [1] baseReal, [2] baseSim (epoch ms),
 * [3] rate (simulated ms per real ms; 0 holds time still).
 */
import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import type { Socket, UnixSocketListener } from "bun";
import { systemClock, type Clock } from "./clock.ts";

const SLOTS = 4;
const FILE_BYTES = SLOTS * 8;
/** The longest a Node-style timer can be set for. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A reader gives up waiting for a change in progress after this many looks (a driver that died mid-change). */
const MAX_TORN_READS = 100_000;

export interface SimTimeline {
  baseRealMs: number;
  baseSimMs: number;
  /** Simulated milliseconds per real millisecond; 0 holds simulated time still. */
  rate: number;
}

/** Simulated time at a real instant, on a timeline. */
export function simTimeAt(line: SimTimeline, realMs: number): number {
  return line.baseSimMs + (realMs - line.baseRealMs) * line.rate;
}

/** The real instant at which a timeline reaches a simulated moment (Infinity while time stands still). */
export function realTimeOf(line: SimTimeline, simMs: number): number {
  if (line.rate <= 0) return simMs <= line.baseSimMs ? line.baseRealMs : Number.POSITIVE_INFINITY;
  return line.baseRealMs + (simMs - line.baseSimMs) / line.rate;
}

/** A Clock on a shared simulated timeline; `close` stops watching the file and wakes every sleeper. */
export interface SimClock extends Clock {
  close(): void;
}

/** Opens a timeline file a driver made (createSimClockFile) as this process's Clock. */
export function openSimClock(path: string): SimClock {
  if (!existsSync(path) || statSync(path).size < FILE_BYTES) throw new Error(`${path} is not a simulated clock file (the driver creates it before starting anything)`);
  const view = new Float64Array(Bun.mmap(path, { shared: true }).buffer, 0, SLOTS);
  let settled: SimTimeline = readSettled(view) ?? { baseRealMs: systemClock.now(), baseSimMs: systemClock.now(), rate: 1 };
  const timeline = () => (settled = readSettled(view) ?? settled);
  let lastNow = Number.NEGATIVE_INFINITY;
  /** Whole milliseconds that never go back, as Date.now() gives (stored times are integers). */
  const now = () => (lastNow = Math.max(lastNow, Math.floor(simTimeAt(timeline(), systemClock.now()))));
  const sleepers = createSleepers(now, timeline);
  // The driver says when it changed the line: sleepers are looked at again. Without a driver (it
  // has finished) the line no longer changes, and the timers alone are right.
  let connection: Socket | null = null;
  let isClosed = false;
  // Connected, the line is looked at once more: a change made while connecting is not missed.
  void Bun.connect({ unix: socketPathOf(path), socket: { open: () => sleepers.wakeDue(), data: () => sleepers.wakeDue() } }).then(
    (socket) => (isClosed ? socket.end() : (connection = socket)),
    () => undefined,
  );
  return {
    now,
    sleepUntil: sleepers.sleepUntil,
    close() {
      isClosed = true;
      connection?.end();
      sleepers.close();
    },
  };
}

interface Sleeper {
  atMs: number;
  wake(): void;
}

/**
 * The sleepers of one process on a timeline: one real timer, set for the earliest of them and set
 * again whenever the line changes (`wakeDue`), so a jump wakes at once everyone it carried past.
 */
function createSleepers(now: () => number, line: () => SimTimeline) {
  let sleepers: Sleeper[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let isClosed = false;

  function wakeDue(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    const current = now();
    const due = sleepers.filter((s) => s.atMs <= current).sort((a, b) => a.atMs - b.atMs);
    if (due.length > 0) sleepers = sleepers.filter((s) => s.atMs > current);
    for (const sleeper of due) sleeper.wake();
    if (sleepers.length === 0) return;
    const at = realTimeOf(line(), Math.min(...sleepers.map((s) => s.atMs)));
    // Time held still: only a change of the line wakes anyone. Otherwise at least a millisecond,
    // so a moment a fraction of a real millisecond away does not spin.
    if (Number.isFinite(at)) timer = setTimeout(wakeDue, Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - systemClock.now()))));
  }

  function sleepUntil(atMs: number, signal?: AbortSignal): Promise<void> {
    if (isClosed || signal?.aborted || atMs <= now()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const onAbort = () => {
        sleepers = sleepers.filter((s) => s !== sleeper);
        resolve();
        wakeDue();
      };
      // Woken or aborted, the listener goes: a long-lived signal must not collect one per sleep.
      const sleeper: Sleeper = {
        atMs,
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      sleepers.push(sleeper);
      wakeDue();
    });
  }

  return {
    wakeDue,
    sleepUntil,
    /** Wakes every sleeper and takes no more: the process is stopping. */
    close() {
      isClosed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const all = sleepers;
      sleepers = [];
      for (const sleeper of all) sleeper.wake();
    },
  };
}

/** The timeline as last written in full; null while a change is in progress for too long. */
function readSettled(view: Float64Array): SimTimeline | null {
  for (let i = 0; i < MAX_TORN_READS; i++) {
    const sequence = view[0];
    if (sequence % 2 === 1) continue;
    const line = { baseRealMs: view[1], baseSimMs: view[2], rate: view[3] };
    if (view[0] === sequence) return line;
  }
  return null;
}

/**
 * The one process that moves simulated time (the soak's driver): it creates the file, and every
 * change is written with the sequence number odd before and even after, so no reader sees half.
 */
export interface SimClockDriver extends Clock {
  readonly path: string;
  timeline(): SimTimeline;
  /** Simulated time jumps forward to `simMs` (never back) and runs on at `rate` (default: the current rate). */
  jumpTo(simMs: number, rate?: number): void;
  /** Simulated time runs on from now at another rate. */
  setRate(rate: number): void;
  close(): void;
}

const socketPathOf = (path: string) => `${path}.sock`;

export function createSimClockFile(path: string, start: { simMs: number; rate: number }): SimClockDriver {
  const fd = openSync(path, "w+", 0o600);
  const readers = new Set<Socket>();
  rmSync(socketPathOf(path), { force: true });
  const server: UnixSocketListener<undefined> = Bun.listen({
    unix: socketPathOf(path),
    socket: {
      open: (socket) => void readers.add(socket),
      close: (socket) => void readers.delete(socket),
      error: (socket) => void readers.delete(socket),
      data: () => undefined,
    },
  });
  let sequence = 0;
  let line: SimTimeline = { baseRealMs: systemClock.now(), baseSimMs: start.simMs, rate: start.rate };

  const write = (next: SimTimeline) => {
    const put = (values: number[], slot: number) => {
      const bytes = new Uint8Array(new Float64Array(values).buffer);
      writeSync(fd, bytes, 0, bytes.length, slot * 8);
    };
    sequence += 1;
    put([sequence], 0);
    put([next.baseRealMs, next.baseSimMs, next.rate], 1);
    sequence += 1;
    put([sequence], 0);
    line = next;
  };
  write(line);
  const now = () => Math.floor(simTimeAt(line, systemClock.now()));
  // The driver knows its own changes, so its sleepers need no watcher.
  const sleepers = createSleepers(now, () => line);

  const change = (simMs: number, rate: number) => {
    if (!(rate >= 0) || !Number.isFinite(rate)) throw new Error(`a simulated clock's rate must be 0 or more, got ${rate}`);
    const realMs = systemClock.now();
    write({ baseRealMs: realMs, baseSimMs: Math.max(simTimeAt(line, realMs), simMs), rate });
    sleepers.wakeDue();
    for (const reader of readers) reader.write("\n");
  };

  return {
    path,
    now,
    sleepUntil: sleepers.sleepUntil,
    timeline: () => ({ ...line }),
    jumpTo: (simMs, rate = line.rate) => change(simMs, rate),
    setRate: (rate) => change(0, rate),
    close() {
      sleepers.close();
      for (const reader of readers) reader.end();
      server.stop(true);
      rmSync(socketPathOf(path), { force: true });
      closeSync(fd);
    },
  };
}
