import { describe, expect, test } from "bun:test";
import { assignFreedSlots, isValidRange, isWatchOver, suggestedRange, wantsSlot, type WatchTarget } from "../../src/domain/watches.ts";
import { checkReadiness } from "../../src/domain/readiness.ts";
import { messagesFor } from "../../src/realtime/notifier.ts";
import { reason } from "../../src/domain/request-reasons.ts";
import { WINDOW_KEYS, type AllowedWindows } from "../../src/domain/windows.ts";

const watch = (id: number, createdAt: number, extra: Partial<WatchTarget> = {}): WatchTarget => ({
  id,
  userId: id,
  playDate: "2026-11-23",
  courseId: "masters",
  fromTime: "06:00",
  toTime: "07:00",
  createdAt,
  ...extra,
});
const slot = (time: string, courseId = "masters") => ({ date: "2026-11-23", courseId, time, slotId: `S-${courseId}-${time}` });

describe("slot watch rules", () => {
  test("a range is two times, the first before the second: one instant is no range", () => {
    expect(isValidRange("06:00", "07:00")).toBe(true);
    expect(isValidRange("06:00", "06:00")).toBe(false);
    expect(isValidRange("13:00", "13:00")).toBe(false);
    expect(isValidRange("07:00", "06:00")).toBe(false);
    expect(isValidRange("6:00", "07:00")).toBe(false);
  });

  test("a suggested range spans the chosen times; one time alone reaches half an hour past it", () => {
    expect(suggestedRange(["07:30", "06:16"])).toEqual({ fromTime: "06:16", toTime: "07:30" });
    expect(suggestedRange(["13:00"])).toEqual({ fromTime: "13:00", toTime: "13:30" });
    expect(suggestedRange(["23:50"])).toEqual({ fromTime: "23:50", toTime: "23:59" });
    expect(suggestedRange([])).toEqual({ fromTime: "06:00", toTime: "09:00" });
    for (const times of [["13:00"], ["06:00", "06:00"], ["23:50"]]) {
      const { fromTime, toTime } = suggestedRange(times);
      expect(isValidRange(fromTime, toTime)).toBe(true);
    }
  });

  test("a watch wants slots of its date, course (or any) and range, never the booking it upgrades", () => {
    expect(wantsSlot(watch(1, 0), slot("06:00"))).toBe(true);
    expect(wantsSlot(watch(1, 0), slot("07:00"))).toBe(true);
    expect(wantsSlot(watch(1, 0), slot("07:08"))).toBe(false);
    expect(wantsSlot(watch(1, 0), slot("06:00", "legends"))).toBe(false);
    expect(wantsSlot(watch(1, 0, { courseId: null }), slot("06:00", "legends"))).toBe(true);
    expect(wantsSlot(watch(1, 0), { ...slot("06:00"), date: "2026-11-24" })).toBe(false);
    expect(wantsSlot(watch(1, 0, { upgradeTime: "06:08", upgradeCourseId: "masters" }), slot("06:08"))).toBe(false);
    expect(wantsSlot(watch(1, 0, { upgradeTime: "06:08", upgradeCourseId: "masters" }), slot("06:08", "legends"))).toBe(false);
    expect(wantsSlot(watch(1, 0, { courseId: null, upgradeTime: "06:08", upgradeCourseId: "masters" }), slot("06:08", "legends"))).toBe(true);
  });

  test("a watch is over once its last time has gone by in Manila", () => {
    expect(isWatchOver(watch(1, 0), "2026-11-22", "23:59")).toBe(false);
    expect(isWatchOver(watch(1, 0), "2026-11-23", "06:59")).toBe(false);
    expect(isWatchOver(watch(1, 0), "2026-11-23", "07:00")).toBe(true);
    expect(isWatchOver(watch(1, 0), "2026-11-24", "00:00")).toBe(true);
  });

  test("freed slots go to the watches in the order they were made; one slot never to two", () => {
    const later = watch(2, 200);
    const earlier = watch(1, 100);
    expect([...assignFreedSlots([later, earlier], [slot("06:08")])]).toEqual([[1, slot("06:08")]]);
    const both = assignFreedSlots([later, earlier], [slot("06:16"), slot("06:08")]);
    expect(both.get(1)?.time).toBe("06:08");
    expect(both.get(2)?.time).toBe("06:16");
    // Same instant: the lower id (made first) wins.
    expect(assignFreedSlots([watch(5, 100), watch(4, 100)], [slot("06:08")]).get(4)?.time).toBe("06:08");
    expect(assignFreedSlots([watch(1, 0, { fromTime: "06:30" })], [slot("06:08")]).size).toBe(0);
  });
});

describe("readiness of a request", () => {
  const allDay = [{ start_time: "05:00", end_time: "17:00" }];
  const windows = Object.fromEntries(WINDOW_KEYS.map((k) => [k, allDay])) as AllowedWindows;
  const rules = { courses: [{ id: "masters", name: "Masters", days_active: [1, 2, 3, 4, 5, 6, 7] }], rules: [], holidays: [], windows };
  const me = { type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001", cart: "Rental Cart - Solo", fee: "Charge to my account" };
  const input = { courseId: "masters", playDate: "2026-11-30", times: ["06:00"], players: [me], selfMemberId: "SW-1001" };

  test("a request that would go out fine has no problem", () => {
    expect(checkReadiness(input, rules)).toBeNull();
  });

  test("a course no longer listed or closed that day, or a time outside the windows, is not offered", () => {
    expect(checkReadiness({ ...input, times: ["18:00"] }, rules)).toMatchObject({
      key: "readiness.reason.not_offered",
      context: { message: "18:00 is outside the booking windows" },
    });
    expect(checkReadiness({ ...input, courseId: "gone" }, rules)?.key).toBe("readiness.reason.not_offered");
    expect(checkReadiness(input, { ...rules, courses: [{ id: "masters", name: "Masters", days_active: [2] }] })?.key).toBe("readiness.reason.not_offered");
  });

  test("an incomplete player is the players' reason; too many players the rule's", () => {
    expect(checkReadiness({ ...input, players: [me, { ...me, firstName: "", lastName: "", memberId: "", type: "Guest" }] }, rules)?.key).toBe("readiness.reason.players");
    const strict = {
      ...rules,
      rules: [
        {
          id: 1,
          priority: 1,
          days_of_week: [1, 2, 3, 4, 5, 6, 7],
          applies_on_holidays: false,
          start_time: "05:00",
          end_time: "17:00",
          min_players: 1,
          max_players: 1,
          max_guests: 0,
        },
      ],
    };
    const guest = { type: "Guest", firstName: "Gina", lastName: "Guest", memberId: "", cart: "Rental Cart - Solo", fee: "Charge my guest" };
    const outcome = checkReadiness({ ...input, players: [me, guest] }, strict as never);
    expect(outcome?.key).toBe("readiness.reason.rule");
    expect(outcome?.context.message).toBe("Maximum of 1 players allowed.");
  });
});

describe("watch and readiness events", () => {
  test("watch booked, watch found and needs attention: a toast with its key and context, then what changed", () => {
    const booked = messagesFor({ type: "watch_booked", userId: 4, watchId: 1, course: "Masters", date: "2026-11-23", time: "06:08" });
    expect(booked).toEqual([
      {
        userId: 4,
        message: {
          type: "toast",
          toast: {
            kind: "success",
            textKey: "notifications.text.watch_booked",
            context: { course: "Masters", date: "2026-11-23", time: "06:08", reason: "" },
            message: "Your slot watch booked Masters on 2026-11-23 at 06:08.",
          },
        },
      },
      { userId: 4, message: { type: "status", status: "updated", changed: ["my.watches", "my.bookings"] } },
    ]);
    const found = messagesFor({ type: "watch_found", userId: 4, watchId: 1, course: "Masters", date: "2026-11-23", time: "06:08" });
    expect(found[0].message).toMatchObject({
      type: "toast",
      toast: { kind: "info", textKey: "notifications.text.watch_found", message: "A tee time came free: Masters on 2026-11-23 at 06:08." },
    });
    const attention = messagesFor({
      type: "needs_attention",
      userId: 4,
      requestId: 9,
      submittedAt: 1,
      course: "Masters",
      date: "2026-11-30",
      reason: reason("readiness.reason.bad_login"),
    });
    expect(attention[0].message).toMatchObject({
      type: "toast",
      toast: {
        kind: "error",
        textKey: "notifications.text.needs_attention",
        context: { reasonKey: "readiness.reason.bad_login" },
        message: "Your request for Masters on 2026-11-30 needs attention: The club did not accept your stored club login. Update it in your profile.",
      },
    });
    expect(attention[1]).toEqual({ userId: 4, message: { type: "status", status: "updated", changed: ["my.requests"] } });
  });
});

describe("which sheets a watch reads", () => {
  test("one per (date, course); any course means every course open that day; the earliest watch's member reads it", async () => {
    const { watchedSheets } = await import("../../src/jobs/watch/watch-finding.ts");
    const courses = [
      { id: "masters", name: "Masters", days_active: [1, 2, 3, 4, 5, 6, 7] },
      { id: "legends", name: "Legends", days_active: [2, 3, 4, 5, 6, 7] },
    ];
    const row = (id: number, userId: number, courseId: string | null, playDate = "2026-11-23") =>
      ({ id, userId, courseId, playDate }) as Parameters<typeof watchedSheets>[0][number];
    // 2026-11-23 is a Monday: Legends is closed.
    const monday = watchedSheets([row(1, 7, "masters"), row(2, 8, null)], courses);
    expect([...monday.values()]).toEqual([{ date: "2026-11-23", courseId: "masters", readerUserId: 7 }]);
    const tuesday = watchedSheets([row(3, 9, null, "2026-11-24"), row(4, 7, "legends", "2026-11-24")], courses);
    expect([...tuesday.values()]).toEqual([
      { date: "2026-11-24", courseId: "masters", readerUserId: 9 },
      { date: "2026-11-24", courseId: "legends", readerUserId: 9 },
    ]);
  });
});
