/**
 * The soak's measurements of Teebox from outside: its CPU between events (from /proc, once
 * whatever the last event started has finished), its memory, and what the club says it was asked.
 */
import type { TrafficCount } from "../../../src/club-sim/traffic.ts";
import { cpuMs, rssMb } from "./processes.ts";

export interface RestSample {
  /** Share of one core used over the sample, in percent. */
  cpuPercent: number;
  rssMb: number;
  /** How long it took for the work in flight to end before the sample began. */
  settleMs: number;
}

/** A slice counts as settled at one clock tick (10 ms) of CPU in half a second: 2% of a core. */
const SLICE_MS = 500;
const SETTLED_CPU_MS = 10;

/**
 * Teebox's CPU at rest: first the work in flight is let finish (half-second slices until one uses
 * at most 2% of a core, or `maxSettleMs`; a busy loop never settles), then `sampleMs` is measured.
 */
export async function sampleAtRest(pid: number, options: { sampleMs: number; maxSettleMs: number }): Promise<RestSample> {
  const started = performance.now();
  for (;;) {
    const before = await cpuMs(pid);
    await Bun.sleep(SLICE_MS);
    if ((await cpuMs(pid)) - before <= SETTLED_CPU_MS || performance.now() - started > options.maxSettleMs) break;
  }
  const settleMs = performance.now() - started;
  const cpuBefore = await cpuMs(pid);
  const from = performance.now();
  await Bun.sleep(options.sampleMs);
  const cpuPercent = (((await cpuMs(pid)) - cpuBefore) / (performance.now() - from)) * 100;
  return { cpuPercent, rssMb: await rssMb(pid), settleMs };
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
