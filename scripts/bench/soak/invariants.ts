/**
 * What must hold after every simulated day, checked against the club's own record (its bookings,
 * read through its control API) and against what Teebox told the members (the ledger): nothing
 * lost, nothing doubled, nothing orphaned. Pure functions over snapshots, so each rule is tested
 * on its own (test/unit/soak-invariants.test.ts).
 *
 * A difference between Teebox's bookings and the club's is allowed for a while: the bookings sync
 * reads the club every 15 minutes, so a booking cancelled at the club a moment ago is still in
 * Teebox. It is a suspect at one check, and a failure when it is still there at the next one (a
 * simulated day and several sync rounds later).
 */
import type { SimBooking } from "../../../src/club-sim/state.ts";
import { addDays } from "../../../src/domain/manila-time.ts";
import type { RequestRecord, TeeboxSnapshot } from "./teebox-db.ts";

export interface LedgerRequest {
  id: number;
  userId: number;
  playDate: string;
  courseId: string;
  /** The times as last submitted (an edit replaces them). */
  times: string[];
  /** The member's cancel was acknowledged, and when (simulated time). */
  isCancelled: boolean;
  cancelledAtMs?: number;
}

/** What Teebox told the members, as they were told it. */
export interface Ledger {
  requests: Map<number, LedgerRequest>;
  /** Booking references the members cancelled through Teebox (acknowledged). */
  cancelledByMembers: Set<string>;
  /** Booking references of Teebox members freed on the club's own site (the club said so). */
  cancelledAtClub: Set<string>;
}

export const newLedger = (): Ledger => ({ requests: new Map(), cancelledByMembers: new Set(), cancelledAtClub: new Set() });

export interface Failure {
  invariant: string;
  detail: string;
}

/** Differences seen once, failures if seen again at the next check: keys are booking references. */
export interface Suspects {
  teeboxOnly: Set<string>;
  clubOnly: Set<string>;
  /** The check that saw them (simulated time). */
  checkedAtMs: number;
}

export const noSuspects = (): Suspects => ({ teeboxOnly: new Set(), clubOnly: new Set(), checkedAtMs: Number.NEGATIVE_INFINITY });

/**
 * Members (club emails) whose bookings Teebox's sync read at the club and applied after `sinceMs`,
 * by Teebox's own record of its reads: a page the club served for another purpose (a release
 * checking an unanswered post, a sign-in's redirect) is not a read the sync applied.
 */
export function membersReadSince(teebox: TeeboxSnapshot, emailOf: ReadonlyMap<number, string>, sinceMs: number): Set<string> {
  const read = new Set<string>();
  for (const [userId, at] of teebox.bookingsReadAt) {
    const email = emailOf.get(userId);
    if (email !== undefined && at > sinceMs) read.add(email);
  }
  return read;
}

export interface CheckInput {
  /** Simulated now, and today's Manila date. */
  nowMs: number;
  today: string;
  teebox: TeeboxSnapshot;
  club: SimBooking[];
  ledger: Ledger;
  /** Club email of every Teebox member, by user id. */
  emailOf: ReadonlyMap<number, string>;
  previous: Suspects;
  /**
   * Members (club emails) whose bookings the sync read and applied since the last check
   * (membersReadSince); absent: every member counts as read. A booking on one side only is a
   * failure at its second sighting only if its member's bookings were read in between: on a day the
   * club fails many requests, a sync round may not get to them.
   */
  membersRead?: ReadonlySet<string>;
}

/**
 * Teebox keeps a request at least 30 days (the shortest of its ages, in the limits): a cancelled
 * one 30 days after its cancel, the others longer after their play date. One past that (its
 * cancel, or its play date, that long ago) may have been removed by the daily retention pass, not lost.
 */
export const REQUEST_KEPT_DAYS = 30;

/** A request not settled this long after its release instant is lost in between. */
export const SETTLED_WITHIN_MS = 6 * 3_600_000;
const UNSETTLED = new Set(["pending", "held", "processing", "needs_attention"]);

export function checkRecords(input: CheckInput): { failures: Failure[]; suspects: Suspects } {
  const failures: Failure[] = [];
  const fail = (invariant: string, detail: string) => failures.push({ invariant, detail });
  const { teebox, club, ledger } = input;
  const requests = new Map(teebox.requests.map((r) => [r.id, r]));
  const clubByRef = new Map(club.map((b) => [b.ref, b]));
  const memberEmails = new Set(input.emailOf.values());
  const goneOnPurpose = (ref: string) => ledger.cancelledByMembers.has(ref) || ledger.cancelledAtClub.has(ref);

  // Every request a member was told was stored is there, in the state the member left it.
  const keptFrom = addDays(input.today, -REQUEST_KEPT_DAYS);
  for (const asked of ledger.requests.values()) {
    const row = requests.get(asked.id);
    if (!row) {
      const isPastItsAge = asked.playDate < keptFrom || (asked.cancelledAtMs !== undefined && asked.cancelledAtMs < input.nowMs - REQUEST_KEPT_DAYS * 86_400_000);
      if (!isPastItsAge) fail("request lost", `request ${asked.id} (${asked.playDate} ${asked.courseId}) was accepted and is gone`);
      continue;
    }
    if (asked.isCancelled && row.status !== "cancelled") fail("cancel not kept", `request ${row.id} was cancelled by its member and is ${row.status}`);
    if (!asked.isCancelled && row.status === "cancelled") fail("cancelled unasked", `request ${row.id} is cancelled though its member never cancelled it`);
    if (row.playDate !== asked.playDate || row.times.join(",") !== asked.times.join(",")) {
      fail("edit not kept", `request ${row.id} holds ${row.playDate} ${row.times.join(",")}, its member last asked for ${asked.playDate} ${asked.times.join(",")}`);
    }
  }

  for (const row of teebox.requests) {
    if (UNSETTLED.has(row.status) && row.releaseAt < input.nowMs - SETTLED_WITHIN_MS) {
      fail("request stuck", `request ${row.id} is still ${row.status} ${Math.round((input.nowMs - row.releaseAt) / 3_600_000)} h after its release`);
    }
    if (row.status === "failed" && !row.reasonKey && !row.failureReason) fail("failed without a reason", `request ${row.id} failed with no reason`);
    if (row.status !== "confirmed") continue;
    if (!row.bookingRef) {
      fail("confirmed without a booking", `request ${row.id} is confirmed with no booking reference`);
      continue;
    }
    const atClub = clubByRef.get(row.bookingRef);
    const email = input.emailOf.get(row.userId);
    if (!atClub) {
      if (!goneOnPurpose(row.bookingRef))
        fail("confirmed but not at the club", `request ${row.id}'s booking ${row.bookingRef} is not in the club's record, and nobody cancelled it`);
    } else if (atClub.email !== email || atClub.date !== row.playDate || atClub.courseId !== row.courseId || !row.times.includes(atClub.time)) {
      fail(
        "confirmed as something else",
        `request ${row.id} (${email} ${row.playDate} ${row.courseId}) points at the club's ${atClub.ref}: ${atClub.email} ${atClub.date} ${atClub.courseId} ${atClub.time}`,
      );
    }
  }

  const confirmedRefs = teebox.requests.filter((r) => r.status === "confirmed" && r.bookingRef).map((r) => r.bookingRef as string);
  for (const ref of new Set(confirmedRefs)) {
    if (confirmedRefs.filter((r) => r === ref).length > 1) fail("one booking for two requests", `booking ${ref} confirms more than one request`);
  }

  // Never booked twice: no member of ours holds two of the club's bookings for one day (the soak
  // never asks for a second one while the first stands).
  const perMemberDay = new Map<string, string[]>();
  for (const booking of club) {
    if (!memberEmails.has(booking.email)) continue;
    const key = `${booking.email} ${booking.date}`;
    perMemberDay.set(key, [...(perMemberDay.get(key) ?? []), `${booking.courseId} ${booking.time} (${booking.ref})`]);
  }
  for (const [key, held] of perMemberDay) if (held.length > 1) fail("booked twice", `${key}: ${held.join(", ")}`);

  for (const watch of teebox.watches) {
    if (watch.status !== "booked") continue;
    if (!watch.bookingRef) fail("watch booked without a booking", `watch ${watch.id} is booked with no booking reference`);
    else if (!clubByRef.has(watch.bookingRef) && !goneOnPurpose(watch.bookingRef))
      fail("watch booked but not at the club", `watch ${watch.id}'s booking ${watch.bookingRef} is not in the club's record`);
  }

  // Orphans, after a sync: a booking on one side only, still there at the next check.
  const suspects: Suspects = { ...noSuspects(), checkedAtMs: input.nowMs };
  const ours = new Map(teebox.bookings.map((b) => [b.bookingRef, b]));
  for (const booking of teebox.bookings) {
    if (booking.playDate < input.today || clubByRef.has(booking.bookingRef)) continue;
    suspects.teeboxOnly.add(booking.bookingRef);
    const email = input.emailOf.get(booking.userId);
    const wasRead = !input.membersRead || (email !== undefined && input.membersRead.has(email));
    if (input.previous.teeboxOnly.has(booking.bookingRef) && wasRead)
      fail(
        "booking only in Teebox",
        `${booking.bookingRef} (${input.emailOf.get(booking.userId)} ${booking.playDate} ${booking.time}) is gone from the club and still listed by Teebox after its member's bookings were read`,
      );
  }
  for (const booking of club) {
    if (booking.date < input.today || !memberEmails.has(booking.email) || ours.has(booking.ref)) continue;
    suspects.clubOnly.add(booking.ref);
    const wasRead = !input.membersRead || input.membersRead.has(booking.email);
    if (input.previous.clubOnly.has(booking.ref) && wasRead)
      fail(
        "booking only at the club",
        `${booking.ref} (${booking.email} ${booking.date} ${booking.time}) is at the club and unknown to Teebox after its member's bookings were read`,
      );
  }
  return { failures, suspects };
}

/** Emails queued longer than Teebox's give-up age (2 days) and a mail round after it are stuck. */
export const MAIL_STUCK_AFTER_MS = 2 * 24 * 3_600_000 + 2 * 3_600_000;

export function checkMail(teebox: TeeboxSnapshot, nowMs: number): Failure[] {
  if (teebox.oldestQueuedMailAt === null || teebox.oldestQueuedMailAt >= nowMs - MAIL_STUCK_AFTER_MS) return [];
  return [{ invariant: "mail stuck", detail: `${teebox.mailQueued} email(s) still queued, the oldest from ${new Date(teebox.oldestQueuedMailAt).toISOString()}` }];
}

/** The bounds of the memory checks (the soak's defaults are in run.ts). */
export interface MemoryBounds {
  /** Within one process life, after its first day: the daily RSS's least-squares slope (MB per simulated day) and rise together. */
  rssSlopeMbPerDay: number;
  rssRiseMb: number;
  /** Over the run: the slope of each week's median RSS after the first week (MB per week), with a rise over `rssRiseMb` too. */
  rssSlopeMbPerWeek: number;
}

/**
 * A leak of the busy kind: within one process life (its daily RSS at rest, `life`), after its
 * first day, a slope over the bound and a rise over the bound together. The rise is from the lower
 * of the first two days to the lower of the last two: one high reading (a collection not yet made,
 * as the year saw with the heap at 35 MB one day and 24 MB two days later) is not a rise.
 */
export function checkLifeMemory(life: readonly number[], bounds: MemoryBounds): Failure[] {
  const days = life.slice(1);
  if (days.length < 4) return [];
  const rise = Math.min(...days.slice(-2)) - Math.min(...days.slice(0, 2));
  if (slope(days) <= bounds.rssSlopeMbPerDay || rise <= bounds.rssRiseMb) return [];
  return [
    {
      invariant: "memory growing",
      detail: `RSS ${days.map((v) => v.toFixed(0)).join(", ")} MB over the last days of this process: ${slope(days).toFixed(1)} MB a day (bound ${bounds.rssSlopeMbPerDay}, rise over ${bounds.rssRiseMb} MB)`,
    },
  ];
}

/**
 * A slow leak, or memory that grows with the data: each whole week's median of the daily RSS
 * (`byDay`, one a simulated day, restarts and all), after the first week, judged at each week's end
 * once there are four such weeks. It fails when the weekly medians rise by more than the slope
 * bound a week and the last four weeks' median stands more than `rssRiseMb` above the first
 * four's. A slope alone is not enough: a week's median moves by ±10 MB with the days it happens
 * to hold (a restart, a collection), and over four weeks that is a slope of 3 MB a week, while a
 * leak of 2 MB a week is 100 MB in a year.
 */
export function checkWeeklyMemory(byDay: readonly number[], bounds: MemoryBounds): Failure[] {
  if (byDay.length % 7 !== 0 || byDay.length < 35) return [];
  const weekly = Array.from({ length: byDay.length / 7 }, (_, w) => median(byDay.slice(w * 7, w * 7 + 7))).slice(1);
  const rise = median(weekly.slice(-4)) - median(weekly.slice(0, 4));
  if (slope(weekly) <= bounds.rssSlopeMbPerWeek || rise <= bounds.rssRiseMb) return [];
  return [
    {
      invariant: "memory growing over the weeks",
      detail: `weekly median RSS ${weekly.map((v) => v.toFixed(0)).join(", ")} MB: ${slope(weekly).toFixed(1)} MB a week (bound ${bounds.rssSlopeMbPerWeek}), the last four weeks ${rise.toFixed(0)} MB above the first four (bound ${bounds.rssRiseMb})`,
    },
  ];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

/** Least-squares slope of `values` against their index (per step); 0 for fewer than two. */
export function slope(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

/** A span of simulated time (club clock) when Teebox or the club was down. */
export interface Outage {
  fromMs: number;
  toMs: number;
  /** How long after it ends the posts due may still take: a fresh Teebox's start, or a retry's back-off. */
  settleMs: number;
}

/**
 * When the first posts of a release must have reached the club: `onTimeMs` after the instant, or
 * after an outage that covered it (Teebox restarting, the club down) and what follows it. An
 * outage covers the instant when it began by the deadline so far and ended (with its settling)
 * after the instant; a restart that ended early enough leaves the deadline as it was: a Teebox
 * up by then must fire at the instant.
 */
export function onTimeDeadline(instantMs: number, onTimeMs: number, outages: readonly Outage[]): number {
  let due = instantMs;
  for (const outage of [...outages].sort((a, b) => a.fromMs - b.fromMs)) {
    if (outage.fromMs <= due + onTimeMs) due = Math.max(due, outage.toMs + outage.settleMs);
  }
  return due + onTimeMs;
}

export interface ReleaseOnTimeInput {
  /** The release instant, club clock. */
  instantMs: number;
  /** How long after the instant (or after an outage that covered it) a first post may arrive, club clock. */
  onTimeMs: number;
  /** Teebox's requests (those due at this instant, stored before it and not cancelled, are checked). */
  requests: readonly Pick<RequestRecord, "id" | "userId" | "courseId" | "playDate" | "status" | "releaseAt" | "submittedAt">[];
  /** Our booking posts the club recorded for the play date (rivals' left out). */
  posts: readonly { email: string; course: string; date: string; arrivedClubMs: number }[];
  emailOf: ReadonlyMap<number, string>;
  outages: readonly Outage[];
  /** The club's clock minus ours (a request's submittedAt is on ours). */
  clubOffsetMs: number;
}

/**
 * The release fired on time: each request due at the instant had its first post at the club by
 * `onTimeDeadline`. One the club never saw a post of is left to the other checks: it was settled
 * without one (every time it asked for went to another of our members first, its member was
 * disabled, its sign-in failed), or it is still unsettled ("request stuck").
 */
export function checkReleaseOnTime(input: ReleaseOnTimeInput): Failure[] {
  const deadline = onTimeDeadline(input.instantMs, input.onTimeMs, input.outages);
  const late: string[] = [];
  let due = 0;
  for (const request of input.requests) {
    if (request.releaseAt !== input.instantMs || request.submittedAt + input.clubOffsetMs >= input.instantMs || request.status === "cancelled") continue;
    due++;
    const email = input.emailOf.get(request.userId);
    const arrivals = input.posts.filter((p) => p.email === email && p.course === request.courseId && p.date === request.playDate).map((p) => p.arrivedClubMs);
    if (arrivals.length === 0) continue;
    const first = Math.min(...arrivals);
    if (first > deadline) late.push(`${request.id} at +${((first - input.instantMs) / 1000).toFixed(2)} s`);
  }
  if (late.length === 0) return [];
  return [
    {
      invariant: "release not fired on time",
      detail: `${late.length} of ${due} request(s) due had their first post after +${((deadline - input.instantMs) / 1000).toFixed(1)} s of the instant (${(input.onTimeMs / 1000).toFixed(1)} s after it, or after an outage that covered it): ${late.slice(0, 8).join(", ")}${late.length > 8 ? ", …" : ""}`,
    },
  ];
}
