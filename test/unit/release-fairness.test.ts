import { describe, expect, test } from "bun:test";
import {
  beatenByRivals,
  contestByCourse,
  emptyHandedThoughFree,
  fairAllocation,
  firstChoicesHeld,
  freeAtInstant,
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

describe("fairAllocation", () => {
  test("the earliest-submitted member picks first among the free slots", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00"), M("06:08")] },
      { email: "b", wanted: [M("06:00"), M("06:16")] },
      { email: "c", wanted: [M("06:00"), M("06:08")] },
    ];
    expect(fairAllocation(members, new Set([M("06:00"), M("06:08"), M("06:16")]))).toEqual([M("06:00"), M("06:16"), M("06:08")]);
  });

  test("a slot that was not free is skipped, and a member whose list is used up gets nothing", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00"), M("06:08")] },
      { email: "b", wanted: [M("06:08"), M("06:00")] },
      { email: "c", wanted: [M("06:08")] },
    ];
    expect(fairAllocation(members, new Set([M("06:08")]))).toEqual([M("06:08"), null, null]);
  });

  test("the same time on two courses is two slots", () => {
    const members: MemberWish[] = [
      { email: "a", wanted: [M("06:00")] },
      { email: "b", wanted: [L("06:00")] },
    ];
    expect(fairAllocation(members, new Set([M("06:00"), L("06:00")]))).toEqual([M("06:00"), L("06:00")]);
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
    const holdings = new Map([["a", [M("06:00")]], ["b", []], ["c", []], ["d", []]]);
    expect(emptyHandedThoughFree(members, holdings, free)).toBe(1);
  });

  test("first choices count the members holding the top of their list", () => {
    const holdings = new Map([["a", [M("06:08")]], ["b", [M("06:00")]], ["c", [M("06:16"), M("06:08")]]]);
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
    const holdings = new Map([["a", [M("06:08")]], ["b", [M("06:24")]], ["c", []], ["d", [M("06:48")]]]);
    // a: 06:00 (ranked above 06:08) went to a rival; b holds its first; c: its slot went to a rival;
    // d: the rival's 06:56 is ranked below what d holds.
    expect(beatenByRivals(members, holdings, [M("06:00"), M("06:16"), M("06:40"), M("06:56"), M("07:04")])).toBe(2);
  });
  test("nobody is beaten when rivals hold only slots ranked below what members got", () => {
    const holdings = new Map([["a", [M("06:00")]], ["b", [M("06:24")]], ["c", [M("06:40")]], ["d", [M("06:48")]]]);
    expect(beatenByRivals(members, holdings, [M("06:08"), M("06:32"), M("06:56")])).toBe(0);
  });
});
