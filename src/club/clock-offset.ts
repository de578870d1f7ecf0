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
import { WHOLE_MS_STAMPS } from "./http.ts";

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
  /**
   * The interval the true offset lies in, to a fraction of a millisecond (`offsetMs ± uncertaintyMs`
   * covers it in whole ones): what a precise wait times the first wave by (decision 202).
   */
  interval?: { lo: number; hi: number };
}

export interface MeasureClockOffsetOptions {
  clock?: Clock;
  /** Readings in all, the first one included. Default 13. */
  maxProbes?: number;
  /** Stop once the uncertainty is at most this (or the least the stamps can show, if more). Default 25 ms. */
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
 * Each bound is widened by how far the stamps may be off. On a whole-millisecond clock an answer
 * read at r arrived before r + 1, so lo widens by 1 ms (a reading sent at s left at s or later,
 * which only narrows hi); a precise clock's stamps (decision 202) are off by their small error
 * either way, so both widen by it.
 */
function intervalOf(reading: ClubTimeReading): Interval {
  const error = reading.stampError ?? WHOLE_MS_STAMPS;
  return { lo: reading.clubMs - reading.receivedMs - error.behindMs, hi: reading.clubMs + SECOND - reading.sentMs + error.aheadMs };
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
 * way out took half the quickest round trip so far), so it narrows several-fold a round. Once it is down to
 * about a round trip, what is left is the travel itself: hi can only come down to the offset plus
 * the quickest way out, lo up to the offset minus the quickest way back, and only probes stamped
 * just before the boundary get there. They are aimed in the band just under hi, closest to hi most.
 */
function aimProbes(interval: Interval, trips: { least: number; most: number }, count: number): number[] {
  const width = interval.hi - interval.lo;
  // The quickest round trip seen so far, not the first: a first probe held up by a busy moment
  // would otherwise aim every later probe that much off, all landing on one side of the boundary.
  const halfTrip = Math.max(0, trips.least / 2);
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
  // A target finer than the stamps can show is never reached: it is raised to what they can.
  const stampError = first.stampError ?? WHOLE_MS_STAMPS;
  const finest = Math.max(target, stampError.behindMs + stampError.aheadMs);
  let interval = intervalOf(first);
  let probes = 1;
  const trips = { least: first.receivedMs - first.sentMs, most: first.receivedMs - first.sentMs };
  let edgeProbes = 0;

  let isCutShort = false;
  while (probes < maxProbes && (interval.hi - interval.lo) / 2 > finest) {
    if (options.signal?.aborted) {
      isCutShort = true;
      break;
    }
    const count = Math.min(perRound, maxProbes - probes);
    // The club second boundary B falls at our B − offset. A probe sent at B − x (x "ahead" of B)
    // is stamped before B exactly when offset + its way out < x: stamped before, it caps hi at x;
    // after, it lifts lo to x − its round trip.
    const aheads = aimProbes(interval, trips, count);
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
  const found = { offsetMs, uncertaintyMs, sendAheadMs, interval: { lo: interval.lo, hi: interval.hi } };
  return isCutShort ? { ...found, isCutShort } : found;
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

/**
 * Our moment at which a first post leaves: the club's clock reads releaseAt at our releaseAt −
 * offset; the uncertainty is added so that no attempt can arrive early, whatever the true offset
 * within the measured bounds. A distant club's posts leave earlier by the part of that which is
 * their own way there (decision 191).
 */
export function fireAtOf(offset: ClockOffset, releaseAt: number): number {
  return Math.ceil(releaseAt - offset.offsetMs + offset.uncertaintyMs - (offset.sendAheadMs ?? 0));
}

/**
 * The same moment to a fraction of a millisecond, which the wave's thread waits for on a precise
 * clock (decision 202): our moment at which the club's clock reads releaseAt at the lowest offset
 * the probes allow, or for a distant club the quickest way there less its guard. Rounding each part
 * up to whole milliseconds is what fireAtOf adds; this is never later than that.
 */
export function preciseFireAtOf(offset: ClockOffset, releaseAt: number): number {
  const whole = fireAtOf(offset, releaseAt);
  if (!offset.interval) return whole;
  const { lo, hi } = offset.interval;
  const lead = (offset.sendAheadMs ?? 0) > 0 ? Math.max(lo, hi - SEND_GUARD_MS) : lo;
  return Math.min(whole, releaseAt - lead);
}
