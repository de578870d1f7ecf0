/**
 * How far the club's clock runs ahead of ours, to well under a second, from nothing but
 * its HTTP Date header (whole seconds).
 *
 * A reading with header second H, sent at our s and received at our r, says the club was
 * in [H, H + 1000) at some moment of [s, r], so offset = club − ours lies in
 * (H − r, H + 1000 − s). Readings timed so that a club second boundary falls inside the
 * current interval split it: the header shows on which side of the boundary each landed.
 * Each round fires a few probes spread over the interval, all aimed at one boundary.
 */
import { systemClock, type Clock } from "../lib/clock.ts";
import type { ClubTimeReading } from "./client.ts";

export interface ClockOffset {
  offsetMs: number;
  /** Half the width of the interval the true offset is known to lie in. */
  uncertaintyMs: number;
}

export interface MeasureClockOffsetOptions {
  clock?: Clock;
  /** Readings in all, the first one included. Default 13. */
  maxProbes?: number;
  /** Stop once the uncertainty is at most this. Default 25 ms. */
  targetUncertaintyMs?: number;
  /** Probes per round. Default 4. */
  probesPerRound?: number;
}

const SECOND = 1000;
/** Room to schedule the first probe of a round after the current moment. */
const LEAD_MS = 30;

interface Interval {
  lo: number;
  hi: number;
}

/**
 * Our clock reads whole milliseconds: an answer read at r arrived before r + 1, so the bound it
 * gives is widened by that much (a reading sent at s left at s or later, which only narrows).
 */
const READING_RESOLUTION_MS = 1;

function intervalOf(reading: ClubTimeReading): Interval {
  return { lo: reading.clubMs - reading.receivedMs - READING_RESOLUTION_MS, hi: reading.clubMs + SECOND - reading.sentMs };
}

function narrow(current: Interval, reading: ClubTimeReading): Interval {
  const next = intervalOf(reading);
  const merged = { lo: Math.max(current.lo, next.lo), hi: Math.min(current.hi, next.hi) };
  // Disjoint readings mean the club's clock moved meanwhile: trust the newest one.
  return merged.lo <= merged.hi ? merged : next;
}

export async function measureClockOffset(
  client: { clubTime(): Promise<ClubTimeReading> },
  options: MeasureClockOffsetOptions = {},
): Promise<ClockOffset> {
  const clock = options.clock ?? systemClock;
  const maxProbes = options.maxProbes ?? 13;
  const target = options.targetUncertaintyMs ?? 25;
  const perRound = Math.max(1, options.probesPerRound ?? 4);

  const first = await client.clubTime();
  let interval = intervalOf(first);
  let probes = 1;
  const halfTrip = Math.max(0, (first.receivedMs - first.sentMs) / 2);

  while (probes < maxProbes && (interval.hi - interval.lo) / 2 > target) {
    const count = Math.min(perRound, maxProbes - probes);
    const width = interval.hi - interval.lo;
    const candidates = Array.from({ length: count }, (_, j) => interval.lo + (width * (j + 1)) / (count + 1));
    // The club second boundary B falls at our B − offset; aim each probe where B would be if the offset were its candidate.
    const boundary = Math.ceil((clock.now() + LEAD_MS + halfTrip + interval.hi) / SECOND) * SECOND;
    const sendTimes = candidates.map((c) => boundary - c - halfTrip).sort((a, b) => a - b);
    const readings: Promise<ClubTimeReading>[] = [];
    for (const at of sendTimes) {
      await clock.sleepUntil(at);
      readings.push(client.clubTime());
    }
    for (const reading of await Promise.all(readings)) interval = narrow(interval, reading);
    probes += count;
  }
  // Whole milliseconds, with the uncertainty measured from the rounded offset: offset ± uncertainty
  // still covers the whole interval, so a post timed by it is never early.
  const offsetMs = Math.round((interval.lo + interval.hi) / 2);
  return { offsetMs, uncertaintyMs: Math.ceil(Math.max(interval.hi - offsetMs, offsetMs - interval.lo)) };
}
