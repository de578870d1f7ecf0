/**
 * Every request Teebox sends to the club, counted by kind and outcome, in a bounded amount of
 * memory whatever the uptime: totals since start (kinds × outcomes), a ring of per-second counts
 * for the last minute, a ring of per-minute counts for the last day, and per-member counts for the
 * last BUSIEST_WINDOW_MINUTES only. A year of it is the same few kilobytes as an hour.
 *
 * The adapter's door to the network (http.ts) records every request here; /metrics and the
 * System Monitor read `snapshot()`.
 */
import type { Clock } from "../lib/clock.ts";

/** What a request to the club is for. */
export const CLUB_REQUEST_KINDS = ["sign_in", "sign_out", "sheet", "book", "edit", "cancel", "my_bookings", "advisories", "clock_probe"] as const;
export type ClubRequestKind = (typeof CLUB_REQUEST_KINDS)[number];

/**
 * What came of it. `ok`: a page (or redirect) the caller could use; `refused` and `not_yet_open`:
 * a booking, edit or cancel the club answered with a refusal; `unreadable`: such a post answered
 * with a page the adapter could not read; `429`, `4xx`, `5xx`: the status; `challenge`: a bot
 * wall's page instead of the club's; `timeout` and `unreachable`: no answer at all.
 */
export const CLUB_REQUEST_OUTCOMES = ["ok", "refused", "not_yet_open", "unreadable", "4xx", "429", "5xx", "challenge", "timeout", "unreachable"] as const;
export type ClubRequestOutcome = (typeof CLUB_REQUEST_OUTCOMES)[number];

/** The minutes of per-minute counts kept: one day. */
export const TRAFFIC_MINUTES_KEPT = 24 * 60;
/** The busiest member is the one with the most requests in this many minutes. */
export const BUSIEST_WINDOW_MINUTES = 15;

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

export interface ClubTrafficSnapshot {
  /** When counting started (this process's start), epoch ms. */
  sinceMs: number;
  /** Requests since start. */
  total: number;
  /** Requests since start per kind and outcome (only pairs that happened). */
  totals: Partial<Record<ClubRequestKind, Partial<Record<ClubRequestOutcome, number>>>>;
  /** Requests in the 60 seconds up to now. */
  lastMinute: number;
  /** Requests per whole minute, oldest first, up to TRAFFIC_MINUTES_KEPT of them; the last is the minute under way. */
  perMinute: { atMs: number; requests: number }[];
  /** The member with the most requests in the last BUSIEST_WINDOW_MINUTES minutes, or null. */
  busiestMember: { userId: number; requests: number; windowMinutes: number } | null;
  /** Requests Teebox chose not to send (a scrape or watch poll skipped while the budget was spent), per kind, since start. */
  skipped: Partial<Record<ClubRequestKind, number>>;
}

export interface ClubTraffic {
  /** One request that left (and what came of it). `memberId` is the member it was for; null for the scraper's pages, clock probes, checks. */
  record(kind: ClubRequestKind, memberId: number | null, outcome: ClubRequestOutcome): void;
  /** A request not sent because the budget was spent (only kinds that skip to their next turn). */
  recordSkipped(kind: ClubRequestKind): void;
  /** Requests since start (cheaper than a snapshot, for a per-minute sampler). */
  total(): number;
  snapshot(): ClubTrafficSnapshot;
}

/** Counts per slot of a ring; a slot is reused once its time has passed out of the ring. */
class Ring {
  private readonly counts: number[];
  private readonly starts: number[];
  constructor(
    private readonly size: number,
    private readonly slotMs: number,
  ) {
    this.counts = new Array<number>(size).fill(0);
    this.starts = new Array<number>(size).fill(-1);
  }

  add(atMs: number): void {
    const start = Math.floor(atMs / this.slotMs) * this.slotMs;
    const index = Math.floor(atMs / this.slotMs) % this.size;
    if (this.starts[index] !== start) {
      this.starts[index] = start;
      this.counts[index] = 0;
    }
    this.counts[index]++;
  }

  /** Slots from `fromMs` to `toMs` (inclusive of the slot under way), oldest first. */
  series(fromMs: number, toMs: number): { atMs: number; requests: number }[] {
    const first = Math.max(Math.floor(fromMs / this.slotMs), Math.floor(toMs / this.slotMs) - this.size + 1);
    const last = Math.floor(toMs / this.slotMs);
    const out: { atMs: number; requests: number }[] = [];
    for (let slot = first; slot <= last; slot++) {
      const index = slot % this.size;
      const start = slot * this.slotMs;
      out.push({ atMs: start, requests: this.starts[index] === start ? this.counts[index] : 0 });
    }
    return out;
  }
}

export function createClubTraffic(clock: Pick<Clock, "now">): ClubTraffic {
  const sinceMs = clock.now();
  let total = 0;
  const totals = new Map<string, number>();
  const skipped = new Map<ClubRequestKind, number>();
  const seconds = new Ring(60, SECOND_MS);
  const minutes = new Ring(TRAFFIC_MINUTES_KEPT, MINUTE_MS);
  /** Per minute of the busiest window, each member's requests: BUSIEST_WINDOW_MINUTES maps at most. */
  const members = new Map<number, Map<number, number>>();

  function forgetOldMembers(nowMinute: number): void {
    for (const minute of members.keys()) if (minute <= nowMinute - BUSIEST_WINDOW_MINUTES) members.delete(minute);
  }

  return {
    record(kind, memberId, outcome) {
      const now = clock.now();
      total++;
      const key = `${kind} ${outcome}`;
      totals.set(key, (totals.get(key) ?? 0) + 1);
      seconds.add(now);
      minutes.add(now);
      if (memberId === null) return;
      const minute = Math.floor(now / MINUTE_MS);
      forgetOldMembers(minute);
      const counts = members.get(minute) ?? new Map<number, number>();
      counts.set(memberId, (counts.get(memberId) ?? 0) + 1);
      members.set(minute, counts);
    },
    recordSkipped(kind) {
      skipped.set(kind, (skipped.get(kind) ?? 0) + 1);
    },
    total: () => total,
    snapshot() {
      const now = clock.now();
      const nowMinute = Math.floor(now / MINUTE_MS);
      forgetOldMembers(nowMinute);
      const byMember = new Map<number, number>();
      for (const counts of members.values()) for (const [userId, n] of counts) byMember.set(userId, (byMember.get(userId) ?? 0) + n);
      let busiest: ClubTrafficSnapshot["busiestMember"] = null;
      for (const [userId, requests] of byMember) {
        if (!busiest || requests > busiest.requests || (requests === busiest.requests && userId < busiest.userId))
          busiest = { userId, requests, windowMinutes: BUSIEST_WINDOW_MINUTES };
      }
      const byKind: ClubTrafficSnapshot["totals"] = {};
      for (const [key, n] of totals) {
        const [kind, outcome] = key.split(" ") as [ClubRequestKind, ClubRequestOutcome];
        (byKind[kind] ??= {})[outcome] = n;
      }
      // The last 60 whole seconds: the second under way and the 59 before it.
      const lastMinute = seconds.series(now - 59 * SECOND_MS, now).reduce((sum, s) => sum + s.requests, 0);
      return {
        sinceMs,
        total,
        totals: byKind,
        lastMinute,
        perMinute: minutes.series(sinceMs, now),
        busiestMember: busiest,
        skipped: Object.fromEntries(skipped),
      };
    },
  };
}
