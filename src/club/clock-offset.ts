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
  /**
   * How much earlier than `offset − uncertainty` says a post may leave for a distant club, by the
   * quickest way out the probes found (decision 191); 0 for a near club.
   */
  sendAheadMs?: number;
  /** Ended by its deadline or a stop before it reached the uncertainty it aimed at. */
  isCutShort?: boolean;
}

export interface MeasureClockOffsetOptions {
  clock?: Clock;
  /** Readings in all, the first one included. Default 13. */
  maxProbes?: number;
  /** Stop once the uncertainty is at most this. Default 25 ms. */
  targetUncertaintyMs?: number;
  /** Probes per round. Default 4. */
  probesPerRound?: number;
  /**
   * No round of probes is begun that could still be waiting for answers at this moment (our clock):
   * the measurement ends with the interval it has by then (decision 210). The first probe is always made.
   */
  deadlineMs?: number;
  /** Aborted: no further probe is made, and the interval so far is the answer (a stop does not wait out the rounds). */
  signal?: AbortSignal;
}

const SECOND = 1000;
/** How far behind the quickest way out a post to a distant club is sent (sendAheadOf). */
export const SEND_GUARD_MS = 5;
/**
 * Probes aimed at the edge before the edge is trusted to be the quickest way out: ten rounds. Each
 * probe stamped before a boundary lowers hi; with this many, none stays more than about a
 * millisecond above the quickest way out in simulated lines of 15 ± 5 and 30 ± 10 ms each way.
 */
const MIN_EDGE_PROBES = 40;
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

/** Whether the interval is about as narrow as a round trip allows: what is left of it is the travel. */
const isDownToTravel = (interval: Interval, trips: { least: number }) => interval.hi - interval.lo <= 1.5 * trips.least + 2;

/**
 * Where to aim a round's probes, as how far ahead of a club second boundary each is sent. While
 * the interval is wider than a round trip explains, the probes split it evenly (each as if the
 * way out took half the first round trip), so it narrows several-fold a round. Once it is down to
 * about a round trip, what is left is the travel itself: hi can only come down to the offset plus
 * the quickest way out, lo up to the offset minus the quickest way back, and only probes stamped
 * just before the boundary get there. They are aimed in the band just under hi, closest to hi most.
 */
function aimProbes(interval: Interval, trips: { least: number; most: number }, halfTrip: number, count: number): number[] {
  const width = interval.hi - interval.lo;
  if (!isDownToTravel(interval, trips)) return Array.from({ length: count }, (_, j) => interval.lo + (width * (j + 1)) / (count + 1) + halfTrip);
  const band = Math.max(1, Math.min(width, trips.most - trips.least + 1));
  return Array.from({ length: count }, (_, j) => interval.hi - band * 2 ** -(j + 2));
}

export async function measureClockOffset(client: { clubTime(): Promise<ClubTimeReading> }, options: MeasureClockOffsetOptions = {}): Promise<ClockOffset> {
  const clock = options.clock ?? systemClock;
  const maxProbes = options.maxProbes ?? 13;
  const target = options.targetUncertaintyMs ?? 25;
  const perRound = Math.max(1, options.probesPerRound ?? 4);

  const first = await client.clubTime();
  let interval = intervalOf(first);
  let probes = 1;
  const halfTrip = Math.max(0, (first.receivedMs - first.sentMs) / 2);
  const trips = { least: first.receivedMs - first.sentMs, most: first.receivedMs - first.sentMs };
  let edgeProbes = 0;

  let isCutShort = false;
  while (probes < maxProbes && (interval.hi - interval.lo) / 2 > target) {
    if (options.signal?.aborted) {
      isCutShort = true;
      break;
    }
    const count = Math.min(perRound, maxProbes - probes);
    // The club second boundary B falls at our B − offset. A probe sent at B − x (x "ahead" of B)
    // is stamped before B exactly when offset + its way out < x: stamped before, it caps hi at x;
    // after, it lifts lo to x − its round trip.
    const aheads = aimProbes(interval, trips, halfTrip, count);
    const boundary = Math.ceil((clock.now() + LEAD_MS + Math.max(...aheads)) / SECOND) * SECOND;
    const sendTimes = aheads.map((x) => boundary - x).sort((a, b) => a - b);
    // The round's last answer comes about a slow round trip after its last probe leaves.
    if (options.deadlineMs !== undefined && sendTimes[sendTimes.length - 1] + 2 * trips.most + LEAD_MS > options.deadlineMs) {
      isCutShort = true;
      break;
    }
    const isAtEdge = isDownToTravel(interval, trips);
    const readings: Promise<ClubTimeReading>[] = [];
    for (const at of sendTimes) {
      await clock.sleepUntil(at, options.signal);
      // Stopped mid-round: the probes already out are still read, the rest are not sent.
      if (options.signal?.aborted) break;
      const reading = client.clubTime();
      // Handled now: a probe the club fails while the round's later probes still wait to leave
      // would otherwise be a rejection nobody handles, which ends the process. Promise.all below
      // still fails the measurement with it.
      reading.catch(() => undefined);
      readings.push(reading);
    }
    for (const reading of await Promise.all(readings)) {
      interval = narrow(interval, reading);
      const trip = reading.receivedMs - reading.sentMs;
      trips.least = Math.min(trips.least, trip);
      trips.most = Math.max(trips.most, trip);
    }
    probes += readings.length;
    if (isAtEdge) edgeProbes += readings.length;
  }
  // Whole milliseconds, with the uncertainty measured from the rounded offset: offset ± uncertainty
  // still covers the whole interval, so a post timed by it alone is never early.
  const offsetMs = Math.round((interval.lo + interval.hi) / 2);
  const uncertaintyMs = Math.ceil(Math.max(interval.hi - offsetMs, offsetMs - interval.lo));
  // Only many probes at the edge bring hi down to the quickest way out; a short measurement's hi may be far above it.
  const sendAheadMs = edgeProbes >= MIN_EDGE_PROBES ? sendAheadOf(interval, offsetMs - uncertaintyMs) : 0;
  return isCutShort ? { offsetMs, uncertaintyMs, sendAheadMs, isCutShort } : { offsetMs, uncertaintyMs, sendAheadMs };
}

/**
 * What a post may gain on a distant club (decision 191). hi is the least "offset + way out" a probe
 * stamped before a boundary showed: a post sent at instant − hi reaches the club at the instant if
 * its way out is the quickest seen, later otherwise. SEND_GUARD_MS covers what separates the two (a
 * quicker way out than any probe found, our clock's whole milliseconds, the club reading its clock
 * for a booking sooner after arrival than for a page). Only when the interval is wider than the
 * guard (a club far enough away) does a post leave earlier than `offset − uncertainty` says.
 */
function sendAheadOf(interval: Interval, lowestOffset: number): number {
  if (interval.hi - SEND_GUARD_MS <= interval.lo) return 0;
  return Math.max(0, Math.floor(interval.hi - SEND_GUARD_MS - lowestOffset));
}
