/**
 * The soak's daily invariants (scripts/bench/soak/invariants.ts): each one holds on a consistent
 * record and fails on the defect it names, so a soak that reports nothing has checked something.
 */
import { describe, expect, test } from "bun:test";
import type { SimBooking } from "../../src/club-sim/state.ts";
import {
  checkLifeMemory,
  checkMail,
  checkRecords,
  checkReleaseOnTime,
  checkWeeklyMemory,
  median,
  newLedger,
  membersReadSince,
  noSuspects,
  onTimeDeadline,
  slope,
  type CheckInput,
  type Ledger,
  type ReleaseOnTimeInput,
} from "../../scripts/bench/soak/invariants.ts";
import type { RequestRecord, TeeboxSnapshot } from "../../scripts/bench/soak/teebox-db.ts";

const NOW = Date.parse("2027-03-10T18:06:00+08:00");
const TODAY = "2027-03-10";
const EMAIL = "bench001@southwoods.demo";

const request = (over: Partial<RequestRecord> = {}): RequestRecord => ({
  id: 1,
  userId: 7,
  playDate: "2027-03-17",
  courseId: "masters",
  status: "pending",
  releaseAt: Date.parse("2027-03-10T07:00:00+08:00"),
  submittedAt: Date.parse("2027-03-09T18:00:00+08:00"),
  bookingRef: null,
  reasonKey: null,
  failureReason: null,
  times: ["06:00", "06:08"],
  ...over,
});

const clubBooking = (over: Partial<SimBooking> = {}): SimBooking => ({
  ref: "SWB-1",
  email: EMAIL,
  date: "2027-03-17",
  courseId: "masters",
  time: "06:00",
  slotId: "MAS-20270317-0600",
  players: [],
  createdClubMs: NOW - 3_600_000,
  ...over,
});

function snapshot(over: Partial<TeeboxSnapshot> = {}): TeeboxSnapshot {
  return {
    requests: [],
    bookings: [],
    watches: [],
    mailQueued: 0,
    oldestQueuedMailAt: null,
    mailSent: 0,
    mailFailed: 0,
    tableRows: {},
    databaseBytes: 0,
    walBytes: 0,
    bookingsReadAt: new Map(),
    ...over,
  };
}

function ledgerWith(...requests: RequestRecord[]): Ledger {
  const ledger = newLedger();
  for (const r of requests)
    ledger.requests.set(r.id, { id: r.id, userId: r.userId, playDate: r.playDate, courseId: r.courseId, times: [...r.times], isCancelled: r.status === "cancelled" });
  return ledger;
}

function check(over: Partial<CheckInput>) {
  return checkRecords({ nowMs: NOW, today: TODAY, teebox: snapshot(), club: [], ledger: newLedger(), emailOf: new Map([[7, EMAIL]]), previous: noSuspects(), ...over });
}

const invariants = (result: ReturnType<typeof check>) => result.failures.map((f) => f.invariant);

describe("the soak's record checks", () => {
  test("a consistent record passes: a pending, a confirmed and a failed request, the booking on both sides", () => {
    const pending = request({ id: 1, releaseAt: NOW + 86_400_000 });
    const confirmed = request({ id: 2, status: "confirmed", bookingRef: "SWB-1" });
    const failed = request({ id: 3, playDate: "2027-03-18", status: "failed", reasonKey: "bookings.reason.no_time_available" });
    const result = check({
      teebox: snapshot({
        requests: [pending, confirmed, failed],
        bookings: [{ bookingRef: "SWB-1", userId: 7, playDate: "2027-03-17", courseId: "masters", time: "06:00", requestId: 2 }],
      }),
      club: [clubBooking()],
      ledger: ledgerWith(pending, confirmed, failed),
    });
    expect(result.failures).toEqual([]);
  });

  test("a request the member was told was stored and is gone is lost, unless it is past the age Teebox keeps requests", () => {
    expect(invariants(check({ ledger: ledgerWith(request()) }))).toEqual(["request lost"]);
    expect(invariants(check({ ledger: ledgerWith(request({ playDate: "2027-02-01" })) }))).toEqual([]);
  });

  test("a request its member cancelled may be gone 30 days after the cancel, whatever its play date (the retention pass counts from the cancel)", () => {
    const cancelledOn = (daysAgo: number) => {
      const ledger = ledgerWith(request({ status: "cancelled" }));
      ledger.requests.get(1)!.cancelledAtMs = NOW - daysAgo * 86_400_000;
      return invariants(check({ ledger }));
    };
    expect(cancelledOn(31)).toEqual([]);
    expect(cancelledOn(29)).toEqual(["request lost"]);
  });

  test("a cancel not kept, a cancel nobody asked for, an edit not kept", () => {
    const ledger = ledgerWith(request({ id: 1, releaseAt: NOW + 1 }), request({ id: 2, releaseAt: NOW + 1 }), request({ id: 3, releaseAt: NOW + 1 }));
    ledger.requests.get(1)!.isCancelled = true;
    ledger.requests.get(3)!.times = ["07:00"];
    const rows = [request({ id: 1, releaseAt: NOW + 1 }), request({ id: 2, status: "cancelled" }), request({ id: 3, releaseAt: NOW + 1 })];
    expect(invariants(check({ teebox: snapshot({ requests: rows }), ledger }))).toEqual(["cancel not kept", "cancelled unasked", "edit not kept"]);
  });

  test("a request still processing hours after its release is stuck; a failure needs its reason", () => {
    const rows = [request({ id: 1, status: "processing" }), request({ id: 2, status: "failed" })];
    expect(invariants(check({ teebox: snapshot({ requests: rows }) }))).toEqual(["request stuck", "failed without a reason"]);
  });

  test("a confirmation the club has no booking for fails, unless the booking was cancelled on purpose", () => {
    const confirmed = request({ status: "confirmed", bookingRef: "SWB-9" });
    expect(invariants(check({ teebox: snapshot({ requests: [confirmed] }) }))).toEqual(["confirmed but not at the club"]);
    const ledger = newLedger();
    ledger.cancelledAtClub.add("SWB-9");
    expect(invariants(check({ teebox: snapshot({ requests: [confirmed] }), ledger }))).toEqual([]);
  });

  test("a confirmation pointing at another member's or another time's booking fails", () => {
    const confirmed = request({ status: "confirmed", bookingRef: "SWB-1" });
    expect(invariants(check({ teebox: snapshot({ requests: [confirmed] }), club: [clubBooking({ time: "11:00" })] }))).toEqual(["confirmed as something else"]);
    expect(invariants(check({ teebox: snapshot({ requests: [confirmed] }), club: [clubBooking({ email: "rival1@rivals.demo" })] }))).toEqual(["confirmed as something else"]);
  });

  test("two of the club's bookings for one member on one day is a double booking; two requests on one booking too", () => {
    const club = [clubBooking(), clubBooking({ ref: "SWB-2", time: "06:08" })];
    const bookings = club.map((b) => ({ bookingRef: b.ref, userId: 7, playDate: b.date, courseId: b.courseId, time: b.time, requestId: null }));
    expect(invariants(check({ teebox: snapshot({ bookings }), club }))).toEqual(["booked twice"]);
    const rows = [request({ id: 1, status: "confirmed", bookingRef: "SWB-1" }), request({ id: 2, status: "confirmed", bookingRef: "SWB-1" })];
    expect(invariants(check({ teebox: snapshot({ requests: rows, bookings: bookings.slice(0, 1) }), club: club.slice(0, 1) }))).toEqual(["one booking for two requests"]);
  });

  test("a booking on one side only is a suspect at one check and a failure at the next", () => {
    const teeboxOnly = snapshot({ bookings: [{ bookingRef: "SWB-5", userId: 7, playDate: "2027-03-12", courseId: "masters", time: "06:00", requestId: null }] });
    const clubOnly = [clubBooking({ ref: "SWB-6", date: "2027-03-13" })];
    const first = check({ teebox: teeboxOnly, club: clubOnly });
    expect(first.failures).toEqual([]);
    expect([...first.suspects.teeboxOnly, ...first.suspects.clubOnly]).toEqual(["SWB-5", "SWB-6"]);
    expect(invariants(check({ teebox: teeboxOnly, club: clubOnly, previous: first.suspects }))).toEqual(["booking only in Teebox", "booking only at the club"]);
  });

  test("a booking on one side only stays a suspect while its member's bookings were not read (a day the club failed the sync's requests)", () => {
    const teeboxOnly = snapshot({ bookings: [{ bookingRef: "SWB-5", userId: 7, playDate: "2027-03-12", courseId: "masters", time: "06:00", requestId: null }] });
    const clubOnly = [clubBooking({ ref: "SWB-6", date: "2027-03-13" })];
    const first = check({ teebox: teeboxOnly, club: clubOnly });
    const unread = check({ teebox: teeboxOnly, club: clubOnly, previous: first.suspects, membersRead: new Set() });
    expect(unread.failures).toEqual([]);
    expect([...unread.suspects.teeboxOnly, ...unread.suspects.clubOnly]).toEqual(["SWB-5", "SWB-6"]);
    expect(invariants(check({ teebox: teeboxOnly, club: clubOnly, previous: unread.suspects, membersRead: new Set([EMAIL]) }))).toEqual([
      "booking only in Teebox",
      "booking only at the club",
    ]);
  });

  test("a member counts as read only when Teebox's sync read and applied their bookings after the check that saw the suspect", () => {
    const emailOf = new Map([
      [7, EMAIL],
      [8, "jose@southwoods.demo"],
      [9, "ana@southwoods.demo"],
    ]);
    const first = check({});
    expect(first.suspects.checkedAtMs).toBe(NOW);
    const bookingsReadAt = new Map([
      [7, NOW + 1],
      [8, NOW],
      [9, NOW - 60_000],
    ]);
    expect([...membersReadSince(snapshot({ bookingsReadAt }), emailOf, first.suspects.checkedAtMs)]).toEqual([EMAIL]);
    // Before any check, every read counts.
    expect(membersReadSince(snapshot({ bookingsReadAt }), emailOf, noSuspects().checkedAtMs).size).toBe(3);
  });

  test("a past booking and another golfer's booking are not orphans", () => {
    const result = check({
      teebox: snapshot({ bookings: [{ bookingRef: "SWB-5", userId: 7, playDate: "2027-03-09", courseId: "masters", time: "06:00", requestId: null }] }),
      club: [clubBooking({ ref: "SWB-7", email: "rival2@rivals.demo" })],
    });
    expect([...result.suspects.teeboxOnly, ...result.suspects.clubOnly]).toEqual([]);
  });

  test("a watch booked without its booking at the club fails", () => {
    const watches = [{ id: 4, userId: 7, playDate: "2027-03-12", status: "booked", bookingRef: "SWB-8" }];
    expect(invariants(check({ teebox: snapshot({ watches }) }))).toEqual(["watch booked but not at the club"]);
  });

  test("mail queued past the give-up age is stuck", () => {
    expect(checkMail(snapshot({ mailQueued: 1, oldestQueuedMailAt: NOW - 3 * 86_400_000 }), NOW).map((f) => f.invariant)).toEqual(["mail stuck"]);
    expect(checkMail(snapshot({ mailQueued: 1, oldestQueuedMailAt: NOW - 86_400_000 }), NOW)).toEqual([]);
  });

  test("the memory trend is a least-squares slope per day", () => {
    expect(slope([150, 152, 154, 156])).toBeCloseTo(2);
    expect(slope([150, 149, 151, 150])).toBeCloseTo(0.2);
    expect(slope([150])).toBe(0);
  });

  describe("the release fired on time", () => {
    const INSTANT = Date.parse("2027-03-10T07:00:00+08:00");
    const post = (afterMs: number, email = EMAIL) => ({ email, course: "masters", date: "2027-03-17", arrivedClubMs: INSTANT + afterMs });
    const onTime = (over: Partial<ReleaseOnTimeInput> = {}) =>
      checkReleaseOnTime({
        instantMs: INSTANT,
        onTimeMs: 2_000,
        requests: [request()],
        posts: [post(400)],
        emailOf: new Map([[7, EMAIL]]),
        outages: [],
        clubOffsetMs: 700,
        ...over,
      }).map((f) => f.invariant);

    test("a first post within the bound passes; one later fails, whatever came after it", () => {
      expect(onTime()).toEqual([]);
      expect(onTime({ posts: [post(39_185_000)] })).toEqual(["release not fired on time"]);
      expect(onTime({ posts: [post(2_500), post(3_000)] })).toEqual(["release not fired on time"]);
    });

    test("an outage that covered the instant moves the bound to its end and what follows it; one over before it does not", () => {
      const restart = { fromMs: INSTANT - 1_000, toMs: INSTANT + 20_000, settleMs: 3_000 };
      expect(onTimeDeadline(INSTANT, 2_000, [restart])).toBe(INSTANT + 25_000);
      expect(onTime({ posts: [post(24_000)], outages: [restart] })).toEqual([]);
      expect(onTime({ posts: [post(26_000)], outages: [restart] })).toEqual(["release not fired on time"]);
      // A restart a minute before the instant, up again with time to spare: the instant still holds.
      const early = { fromMs: INSTANT - 60_000, toMs: INSTANT - 20_000, settleMs: 3_000 };
      expect(onTimeDeadline(INSTANT, 2_000, [early])).toBe(INSTANT + 2_000);
      expect(onTime({ posts: [post(10_000)], outages: [early] })).toEqual(["release not fired on time"]);
      // Up again just before it: given its settling time after the start.
      expect(onTimeDeadline(INSTANT, 2_000, [{ fromMs: INSTANT - 60_000, toMs: INSTANT - 1_000, settleMs: 3_000 }])).toBe(INSTANT + 4_000);
    });

    test("outages in a row each extend the bound; one that began after it does not", () => {
      const kill = { fromMs: INSTANT - 50_000, toMs: INSTANT - 1_000, settleMs: 3_000 };
      const term = { fromMs: INSTANT + 1_000, toMs: INSTANT + 10_000, settleMs: 3_000 };
      expect(onTimeDeadline(INSTANT, 2_000, [term, kill])).toBe(INSTANT + 15_000);
      expect(onTimeDeadline(INSTANT, 2_000, [{ fromMs: INSTANT + 30_000, toMs: INSTANT + 40_000, settleMs: 3_000 }])).toBe(INSTANT + 2_000);
    });

    test("requests not due at this instant, stored after it, cancelled, or never posted are not judged here", () => {
      const late = [post(60_000)];
      expect(onTime({ posts: late, requests: [request({ releaseAt: INSTANT + 86_400_000 })] })).toEqual([]);
      expect(onTime({ posts: late, requests: [request({ submittedAt: INSTANT })] })).toEqual([]);
      expect(onTime({ posts: late, requests: [request({ status: "cancelled" })] })).toEqual([]);
      expect(onTime({ posts: [post(60_000, "someone@else.demo")] })).toEqual([]);
    });
  });
});

describe("memory checks", () => {
  const bounds = { rssSlopeMbPerDay: 3, rssRiseMb: 30, rssSlopeMbPerWeek: 2 };
  /** A day's RSS: a base, a drift per week, and the ±10 MB a day's figure moves by (a restart, a collection). */
  const days = (weeks: number, drift: (week: number) => number) => Array.from({ length: weeks * 7 }, (_, d) => 150 + drift(Math.floor(d / 7)) + [0, 8, -6, 10, -9, 4, -3][d % 7]);

  /** The weekly check on such a run. */
  const weeklyCheck = (weeks: number, drift: (week: number) => number) => checkWeeklyMemory(days(weeks, drift), bounds);

  test("a flat run with one high week passes: the weekly median's noise is not a leak", () => {
    // As the year run of 2027-04 saw: weekly medians 157, 152, 161, 155, 173.
    expect(weeklyCheck(6, (w) => (w === 5 ? 18 : 0))).toEqual([]);
  });

  test("memory that grows 3 MB every week fails once it has risen more than the bound", () => {
    expect(weeklyCheck(10, (w) => 3 * w)).toEqual([]);
    expect(weeklyCheck(16, (w) => 3 * w)).toMatchObject([{ invariant: "memory growing over the weeks" }]);
  });

  test("judged only at a week's end, from five weeks", () => {
    expect(weeklyCheck(4, (w) => 40 * w)).toEqual([]);
    expect(checkWeeklyMemory(days(8, (w) => 40 * w).slice(0, 55), bounds)).toEqual([]);
  });

  test("within one life: a steady climb fails, a saw that falls back does not", () => {
    expect(checkLifeMemory([150, 160, 172, 184, 196, 208], bounds)).toMatchObject([{ invariant: "memory growing" }]);
    expect(checkLifeMemory([150, 166, 181, 197, 167, 170], bounds)).toEqual([]);
  });

  test("within one life: one high last day is not a rise", () => {
    // The year's day 239: the heap at 35 MB that day, and RSS back at 153 MB two days later.
    expect(checkLifeMemory([140, 150, 151, 169, 174, 160, 162, 182], bounds)).toEqual([]);
    expect(checkLifeMemory([140, 150, 151, 169, 174, 160, 184, 186], bounds)).toMatchObject([{ invariant: "memory growing" }]);
  });

  test("the median of an even count is the middle two's mean", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
  });
});
