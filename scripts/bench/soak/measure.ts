/**
 * The soak's measurements of Teebox from outside: its CPU between events (from /proc, once
 * whatever the last event started has finished), its memory, and what the club says it was asked.
 */
import type { TrafficCount } from "../../../src/club-sim/traffic.ts";
import { rssMb, threadCpu, usedBetween } from "./processes.ts";

export interface RestSample {
  /**
   * Share of one core used between events, in percent: the second lowest of the one-second slices.
   * A job's pass (an event: a spike in a slice or two) and the garbage collection after the busy
   * phase (decaying over the first seconds) do not count; a loop that never rests, or one that
   * passes every second, is in every slice and does.
   */
  cpuPercent: number;
  /** The mean over the same slices, passes included. */
  meanCpuPercent: number;
  rssMb: number;
  /** How long it took for the work in flight to end before the sample began. */
  settleMs: number;
}

/** One-second slices; settled after three in a row at 20 ms of CPU or less: 2% of a core. */
const SLICE_MS = 1000;
const SETTLED_CPU_MS = 20;
const SETTLED_SLICES = 3;

/**
 * Teebox's CPU at rest: first the work in flight is let finish (the tail of the busy phase and the
 * garbage collection after it: one-second slices until three in a row are quiet, or `maxSettleMs`; a
 * busy loop never settles), then `slices` one-second slices are measured.
 */
export async function sampleAtRest(pid: number, options: { slices: number; maxSettleMs: number }): Promise<RestSample> {
  const started = performance.now();
  let quietInARow = 0;
  while (quietInARow < SETTLED_SLICES && performance.now() - started < options.maxSettleMs) {
    const before = await threadCpu(pid);
    await Bun.sleep(SLICE_MS);
    quietInARow = usedBetween(before, await threadCpu(pid)) <= SETTLED_CPU_MS ? quietInARow + 1 : 0;
  }
  const settleMs = performance.now() - started;
  const percents: number[] = [];
  for (let i = 0; i < options.slices; i++) {
    const before = await threadCpu(pid);
    const from = performance.now();
    await Bun.sleep(SLICE_MS);
    percents.push((usedBetween(before, await threadCpu(pid)) / (performance.now() - from)) * 100);
  }
  const sorted = [...percents].sort((a, b) => a - b);
  return { cpuPercent: sorted[Math.min(1, sorted.length - 1)], meanCpuPercent: percents.reduce((a, b) => a + b, 0) / percents.length, rssMb: await rssMb(pid), settleMs };
}

/** The JavaScript heap in use, from Teebox's own /metrics (loopback): a steadier sign of a leak than RSS. */
export async function heapUsedMb(url: string): Promise<number | null> {
  const text = await fetch(`${url}/metrics`).then(
    (r) => (r.ok ? r.text() : ""),
    () => "",
  );
  const match = /^teebox_process_heap_used_bytes\s+([\d.e+]+)/m.exec(text);
  return match ? Number(match[1]) / 2 ** 20 : null;
}

export interface TrafficSummary {
  /** Requests the club answered. */
  total: number;
  byKind: Record<string, number>;
  /** Answers of 500 or more (the club's faults). */
  serverErrors: number;
  /** The most requests one member's session made in one club-clock minute, and who. */
  busiestMinute: { email: string; count: number; minuteMs: number } | null;
  /** The member who made the most requests, and how many. */
  busiestMember: { email: string; count: number } | null;
}

export function summariseTraffic(counts: readonly TrafficCount[]): TrafficSummary {
  const byKind: Record<string, number> = {};
  const perMinute = new Map<string, number>();
  const perMember = new Map<string, number>();
  let total = 0;
  let serverErrors = 0;
  for (const c of counts) {
    total += c.count;
    serverErrors += c.serverErrors;
    byKind[c.kind] = (byKind[c.kind] ?? 0) + c.count;
    if (!c.email) continue;
    const minuteKey = `${c.minuteMs}|${c.email}`;
    perMinute.set(minuteKey, (perMinute.get(minuteKey) ?? 0) + c.count);
    perMember.set(c.email, (perMember.get(c.email) ?? 0) + c.count);
  }
  let busiestMinute: TrafficSummary["busiestMinute"] = null;
  for (const [key, count] of perMinute) {
    if (busiestMinute && count <= busiestMinute.count) continue;
    const [minute, email] = key.split("|");
    busiestMinute = { email, count, minuteMs: Number(minute) };
  }
  let busiestMember: TrafficSummary["busiestMember"] = null;
  for (const [email, count] of perMember) if (!busiestMember || count > busiestMember.count) busiestMember = { email, count };
  return { total, byKind, serverErrors, busiestMinute, busiestMember };
}

/** Requests in a stretch of club-clock time, per minute of it. */
export function ratePerMinute(counts: readonly TrafficCount[], fromMs: number, toMs: number): number {
  const inside = counts.filter((c) => c.minuteMs >= fromMs && c.minuteMs < toMs).reduce((sum, c) => sum + c.count, 0);
  return inside / Math.max(1, (toMs - fromMs) / 60_000);
}
