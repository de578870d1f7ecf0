import { describe, expect, test } from "bun:test";
import {
  beatenByRivals,
  contestByCourse,
  emptyHandedThoughFree,
  firstChoicesByRule,
  firstChoicesHeld,
  firstChoicesMissed,
  freeAtInstant,
  maximumMatching,
  slotKey,
  type MemberWish,
} from "../../scripts/bench/release-fairness.ts";
import { drawMembers, planRelease } from "../../scripts/bench/release-support.ts";
import { CLUB_COURSES } from "../../src/club-sim/demo-data.ts";
import { isCourseOpenOn, teeTimesFor } from "../../src/club-sim/tee-sheet.ts";

const M = (time: string) => slotKey("masters", time);
const L = (time: string) => slotKey("legends", time);
const R = 1_000_000;

describe("freeAtInstant", () => {
  test("a slot is free when available at the end or booked by some post, unless a rival took it at or before the instant", () => {
    const asked = [M("06:00"), M("06:08"), M("06:16"), M("06:24"), M("06:32")];
    const availableAtEnd = new Set([M("06:00"), M("07:00")]);
    const confirmations = [
      { key: M("06:08"), arrivedClubMs: R + 3, isRival: false },
      { key: M("06:16"), arrivedClubMs: R + 150, isRival: true },
      { key: M("06:24"), arrivedClubMs: R, isRival: true },
    ];
    // 06:32 is neither available nor booked by anyone: it was pre-booked or blocked.
    expect([...freeAtInstant(asked, availableAtEnd, confirmations, R)].sort()).toEqual([M("06:00"), M("06:08"), M("06:16")]);
  });

  test("only asked-for slots are considered", () => {
    expect(freeAtInstant([M("06:00")], new Set([M("06:00"), M("07:00")]), [], R)).toEqual(new Set([M("06:00")]));
  });
});

describe("firstChoicesByRule", () => {
  test("the earliest-submitted member claims a first choice; a later one wanting it first does not get it", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00"), M("06:08")] },
      { email: "b", wanted: [M("06:00"), M("06:16")] },
      { email: "c", wanted: [M("06:16")] },
    ];
    // b claims 06:16 at the instant (06:00 is a's), so c's first choice is b's under the rule.
    expect(firstChoicesByRule(members, new Set([M("06:00"), M("06:08"), M("06:16")]))).toEqual([true, false, false]);
  });

  test("a claim on a slot that was not free still stands at the instant: nobody can see it was taken", () => {
    // a's first choice was pre-booked; a claims it all the same, and b claims 06:08 (its first),
    // which the rule gives b even though a ranked it second. c's first is b's claim.
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00"), M("06:08")] },
      { email: "b", wanted: [M("06:08"), M("06:16")] },
      { email: "c", wanted: [M("06:08")] },
    ];
    expect(firstChoicesByRule(members, new Set([M("06:08"), M("06:16")]))).toEqual([false, true, false]);
  });

  test("a first choice that was not free is nobody's; one claimed by an earlier member's later preference is not the member's", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00")] },
      { email: "b", wanted: [M("06:00"), M("06:08")] },
      { email: "c", wanted: [M("06:08"), M("06:16")] },
      { email: "d", wanted: [M("06:24")] },
    ];
    expect(firstChoicesByRule(members, new Set([M("06:08"), M("06:16")]))).toEqual([false, false, false, false]);
  });

  test("the same time on two courses is two slots", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00")] },
      { email: "b", wanted: [L("06:00")] },
    ];
    expect(firstChoicesByRule(members, new Set([M("06:00"), L("06:00")]))).toEqual([true, true]);
  });
});

describe("maximumMatching", () => {
  const held = (picks: (string | null)[]) => picks.filter((p) => p !== null).length;

  test("finds more members a slot than the earliest-first rule when an earlier member's choice blocks a later one", () => {
    // Earliest first, a takes 06:00 and b gets nothing; a matching gives a 06:08 and b 06:00.
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00"), M("06:08")] },
      { email: "b", wanted: [M("06:00")] },
    ];
    const picks = maximumMatching(members, new Set([M("06:00"), M("06:08")]));
    expect(picks).toEqual([M("06:08"), M("06:00")]);
  });

  test("the case the old oracle undercounted: an engine that cannot see the sheet beat 'earliest first on the free slots'", () => {
    // Earliest first on the free slots: a → 06:08, b → 06:16, c → nothing (2). Teebox, claiming
    // before it can see the sheet, gives a 06:24, b 06:08, c 06:16 (3), which a matching allows.
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00"), M("06:08"), M("06:24")] },
      { email: "b", wanted: [M("06:08"), M("06:16")] },
      { email: "c", wanted: [M("06:16")] },
    ];
    expect(held(maximumMatching(members, new Set([M("06:08"), M("06:16"), M("06:24")])))).toBe(3);
  });

  test("slots that were not free are never matched, and each slot holds one member", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00"), M("06:08")] },
      { email: "b", wanted: [M("06:08")] },
      { email: "c", wanted: [M("06:08"), M("06:00")] },
    ];
    const picks = maximumMatching(members, new Set([M("06:08")]));
    expect(held(picks)).toBe(1);
    expect(picks.filter((p) => p === M("06:08"))).toHaveLength(1);
  });

  test("a long chain of displacements is followed to the end", () => {
    // Member i wants slot i then slot i+1; the last slot is free only for the last member's second wish.
    const slot = (i: number) => M(`${String(6 + Math.floor(i / 7)).padStart(2, "0")}:${String((i % 7) * 8).padStart(2, "0")}`);
    const n = 40;
    const members: MemberWish[] = Array.from({ length: n }, (_, i) => ({ email: `m${i}`, wanted: [slot(i), slot(i + 1)] }));
    const free = new Set(Array.from({ length: n + 1 }, (_, i) => slot(i)));
    expect(held(maximumMatching(members, free))).toBe(n);
  });
});

describe("firstChoicesMissed", () => {
  test("lists the members the rule gives their first choice who do not hold it", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00")] },
      { email: "b", wanted: [M("06:08")] },
      { email: "c", wanted: [M("06:16")] },
    ];
    const holdings = new Map([
      ["a", [M("06:00")]],
      ["b", [M("06:16")]],
    ]);
    expect(firstChoicesMissed(members, [true, true, false], holdings).map((m) => m.email)).toEqual(["b"]);
  });
});

describe("contestByCourse", () => {
  test("counts per course only slots some member asked for that were free; rivals elsewhere do not count", () => {
    const free = new Set([M("06:00"), M("06:08"), M("06:16"), L("06:00")]);
    const memberHeld = [M("06:00"), L("06:00"), M("09:00")];
    const rivalHeld = [M("06:08"), L("06:40"), L("06:48"), M("07:00")];
    expect(contestByCourse(free, memberHeld, rivalHeld)).toEqual([
      { course: "legends", contested: 1, wonByMembers: 1, wonByRivals: 0 },
      { course: "masters", contested: 3, wonByMembers: 1, wonByRivals: 1 },
    ]);
  });

  test("a slot held twice in the lists is counted once", () => {
    expect(contestByCourse(new Set([M("06:00")]), [M("06:00"), M("06:00")], [])).toEqual([{ course: "masters", contested: 1, wonByMembers: 1, wonByRivals: 0 }]);
  });
});

describe("emptyHandedThoughFree and firstChoicesHeld", () => {
  const members: MemberWish[] = [
    { email: "a", wanted: [M("06:00"), M("06:08")] },
    { email: "b", wanted: [M("06:00")] },
    { email: "c", wanted: [M("06:08"), M("06:16")] },
    { email: "d", wanted: [M("06:24")] },
  ];
  const free = new Set([M("06:00"), M("06:08"), M("06:16")]);

  test("a member with nothing counts only when a free slot on their list went to no other member", () => {
    // b's only slot went to a (fair); c's 06:16 was free and nobody of ours holds it; d's slot was never free.
    const holdings = new Map([
      ["a", [M("06:00")]],
      ["b", []],
      ["c", []],
      ["d", []],
    ]);
    expect(emptyHandedThoughFree(members, holdings, free)).toBe(1);
  });

  test("first choices count the members holding the top of their list", () => {
    const holdings = new Map([
      ["a", [M("06:08")]],
      ["b", [M("06:00")]],
      ["c", [M("06:16"), M("06:08")]],
    ]);
    expect(firstChoicesHeld(members, holdings)).toBe(1 + 1);
  });
});

describe("the benchmark's members and release", () => {
  test("every wished-for time is on the club's grid for the member's course and day", () => {
    const { playDate } = planRelease(1300, 30_000, Date.UTC(2026, 10, 28, 22, 59, 0));
    const members = drawMembers(60, playDate);
    for (const member of members) {
      const grid = teeTimesFor(playDate, CLUB_COURSES.find((c) => c.id === member.course)!);
      expect(member.times.filter((t) => !grid.includes(t))).toEqual([]);
      expect(new Set(member.times).size).toBe(4);
    }
    expect(new Set(members.map((m) => m.course))).toEqual(new Set(["masters", "legends"]));
  });

  test("the release is a whole minute on the club's clock, for a play date both courses are open", () => {
    // 07:00 Manila on Sunday 29 Nov 2026: a week ahead is a Sunday (Masters closed), a day later a Monday (Legends closed).
    const plan = planRelease(1300, 30_000, Date.UTC(2026, 10, 28, 22, 59, 0));
    expect(plan.releaseAtClub % 60_000).toBe(0);
    expect(plan.releaseTime).toBe("07:00");
    expect(CLUB_COURSES.every((c) => isCourseOpenOn(c, plan.playDate))).toBe(true);
    expect(plan.releaseDaysBefore).toBe(9);
  });
});

describe("beatenByRivals", () => {
  const members: MemberWish[] = [
    { email: "a", wanted: [M("06:00"), M("06:08"), M("06:16")] },
    { email: "b", wanted: [M("06:24"), M("06:32")] },
    { email: "c", wanted: [M("06:40")] },
    { email: "d", wanted: [M("06:48"), M("06:56")] },
  ];
  test("counts members who hold something worse than, or nothing instead of, a slot a rival holds", () => {
    const holdings = new Map([
      ["a", [M("06:08")]],
      ["b", [M("06:24")]],
      ["c", []],
      ["d", [M("06:48")]],
    ]);
    // a: 06:00 (ranked above 06:08) went to a rival; b holds its first; c: its slot went to a rival;
    // d: the rival's 06:56 is ranked below what d holds.
    expect(beatenByRivals(members, holdings, [M("06:00"), M("06:16"), M("06:40"), M("06:56"), M("07:04")])).toBe(2);
  });
  test("nobody is beaten when rivals hold only slots ranked below what members got", () => {
    const holdings = new Map([
      ["a", [M("06:00")]],
      ["b", [M("06:24")]],
      ["c", [M("06:40")]],
      ["d", [M("06:48")]],
    ]);
    expect(beatenByRivals(members, holdings, [M("06:08"), M("06:32"), M("06:56")])).toBe(0);
  });
});
