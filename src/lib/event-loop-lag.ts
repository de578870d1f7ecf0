/**
 * How late the event loop runs what is due, the figure that tells whether anything (a long render,
 * a garbage collection, a busy loop) could hold back work at a release. One coarse timer of the
 * runtime's own (twice a second: a process at rest stays at rest) measures it.
 */
import { monitorEventLoopDelay, type ELDHistogram } from "node:perf_hooks";

const RESOLUTION_MS = 500;

export interface EventLoopLag {
  /** The delays measured since the last reading, in ms (p99 and max); then starts afresh. */
  read(): { p99Ms: number; maxMs: number };
  stop(): void;
}

export function watchEventLoopLag(): EventLoopLag {
  let histogram: ELDHistogram | null = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  // It records how much later than due its timer ran (nanoseconds), not the period itself.
  const lagOf = (ns: number) => ns / 1e6;
  return {
    read() {
      if (!histogram || histogram.count === 0) return { p99Ms: 0, maxMs: 0 };
      const reading = { p99Ms: round1(lagOf(histogram.percentile(99))), maxMs: round1(lagOf(histogram.max)) };
      histogram.reset();
      return reading;
    },
    stop() {
      histogram?.disable();
      histogram = null;
    },
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
