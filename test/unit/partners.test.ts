/**
 * The playing partners' rules (decision 200): who a flight invites, whom a member takes invitations
 * from, what a decline leaves of a flight and whether it still meets the rule's minimum, and when
 * two flights of one member overlap (ROUND_LENGTH_MINUTES); and the events a confirmed booking with
 * partners implies for them.
 */
import { describe, expect, test } from "bun:test";
import type { BookingRule } from "../../src/domain/booking-rules.ts";
import {
  findOverlaps,
  flightWithout,
  missingMinimum,
  partnerMemberIds,
  ROUND_LENGTH_MINUTES,
  takesInvitationFrom,
  teeTimesOverlap,
  type FlightOnDay,
} from "../../src/domain/partners.ts";
import { createNotifier, eventsImpliedBy, notificationFor, type NotificationRecord } from "../../src/realtime/notifier.ts";

const player = (type: string, memberId: string, lastName = "X") => ({ type, memberId, lastName });
const ORGANISER = player("Member", "SW-1001", "Santos");

describe("who a flight invites", () => {
  test("every other member by membership number, once, never a guest or the organiser", () => {
    const flight = [
      ORGANISER,
      player("Member", " sw-1002 "),
      player("Guest", "SW-1003"),
      player("Spouse", "SW-1001"),
      player("Member", "SW-1002"),
      player("Dependent", "SW-1002-D1"),
      player("Member", ""),
    ];
    expect(partnerMemberIds(flight, "SW-1001")).toEqual(["SW-1002", "SW-1002-D1"]);
    expect(partnerMemberIds([ORGANISER], "SW-1001")).toEqual([]);
  });

  test("a member takes invitations from anyone, only from members on their saved list, or from nobody", () => {
    expect(takesInvitationFrom("anyone", "SW-1001", [])).toBe(true);
    expect(takesInvitationFrom("nobody", "SW-1001", ["SW-1001"])).toBe(false);
    expect(takesInvitationFrom("saved", "SW-1001", ["SW-1004", "sw-1001 "])).toBe(true);
    expect(takesInvitationFrom("saved", "SW-1001", ["SW-1004"])).toBe(false);
    expect(takesInvitationFrom("saved", "", [""])).toBe(false);
  });
});

describe("a decline", () => {
  const rules: BookingRule[] = [
    { id: 1, priority: 1, days_of_week: [1], applies_on_holidays: false, start_time: "05:00", end_time: "12:00", min_players: 3, max_players: 4, max_guests: 3 },
  ];
  const MONDAY = "2026-11-30";

  test("takes the partner out of the flight; the organiser and guests stay", () => {
    const flight = [ORGANISER, player("Member", "SW-1002", "Reyes"), player("Guest", ""), player("Member", "SW-1003", "Cruz")];
    expect(flightWithout(flight, ["sw-1003"]).map((p) => p.lastName)).toEqual(["Santos", "Reyes", "X"]);
    // The organiser named by their own number never leaves.
    expect(flightWithout(flight, ["SW-1001"]).map((p) => p.lastName)).toEqual(["Santos", "Reyes", "X", "Cruz"]);
  });

  test("below the minimum of the rule applying to the date and time, the minimum is named", () => {
    expect(missingMinimum(2, { playDate: MONDAY, time: "06:00" }, rules, [])).toBe(3);
    expect(missingMinimum(3, { playDate: MONDAY, time: "06:00" }, rules, [])).toBeNull();
    // In the afternoon no rule applies: the default minimum of one.
    expect(missingMinimum(1, { playDate: MONDAY, time: "13:00" }, rules, [])).toBeNull();
    // A holiday the rule does not apply on.
    expect(missingMinimum(2, { playDate: MONDAY, time: "06:00" }, rules, [{ date: MONDAY, name: "Bonifacio Day" }])).toBeNull();
  });
});

describe("overlapping flights", () => {
  test("two tee times closer than a round overlap", () => {
    expect(ROUND_LENGTH_MINUTES).toBe(300);
    expect(teeTimesOverlap("06:00", "10:59")).toBe(true);
    expect(teeTimesOverlap("11:00", "06:00")).toBe(false);
    expect(teeTimesOverlap("06:00", "06:00")).toBe(true);
  });

  test("a member in another organiser's flight that day within a round; never the flight itself, another day or the same organiser's", () => {
    const mine: FlightOnDay = { id: "request:1", organiserId: 1, playDate: "2026-11-30", time: "07:00", memberIds: ["SW-1001", "SW-1002"] };
    const others: FlightOnDay[] = [
      mine,
      { id: "request:2", organiserId: 1, playDate: "2026-11-30", time: "07:30", memberIds: ["SW-1001", "SW-1002"] },
      { id: "request:3", organiserId: 3, playDate: "2026-12-01", time: "07:00", memberIds: ["SW-1002"] },
      { id: "request:4", organiserId: 3, playDate: "2026-11-30", time: "12:00", memberIds: ["SW-1002"] },
      { id: "booking:5:SWB-1", organiserId: 5, playDate: "2026-11-30", time: "09:12", memberIds: ["sw-1002"] },
    ];
    expect(findOverlaps(mine, others)).toEqual([{ memberId: "SW-1002", otherId: "booking:5:SWB-1", time: "09:12" }]);
    expect(findOverlaps({ ...mine, time: "17:30" }, others)).toEqual([]);
  });
});

describe("a booking confirmed with partners", () => {
  const confirmed = { type: "booking_confirmed" as const, userId: 1, course: "Masters", date: "2026-11-30", time: "06:00", ref: "SWB-1", requestId: 4 };

  test("tells each partner who accepted that they play with the organiser", () => {
    const events = eventsImpliedBy({ ...confirmed, partners: { userIds: [2, 3], organiser: "Maria Santos" } });
    expect(events.map((e) => [e.type, "userId" in e ? e.userId : null])).toEqual([
      ["booking_confirmed", 1],
      ["partner_booked", 2],
      ["partner_booked", 3],
    ]);
    expect(notificationFor(events[1])).toEqual({
      userId: 2,
      kind: "partner_booked",
      textKey: "notifications.text.partner_booked",
      context: { organiser: "Maria Santos", course: "Masters", date: "2026-11-30", time: "06:00", bookingId: "SWB-1" },
      eventId: "partner_booked:SWB-1",
    });
    expect(eventsImpliedBy(confirmed)).toEqual([confirmed]);
  });

  test("the notifier stores each partner's notification and reloads their invitations", async () => {
    const stored: NotificationRecord[] = [];
    const sent: { userId: number; message: unknown }[] = [];
    const notifier = createNotifier(
      { toUser: (userId, message) => sent.push({ userId, message }), toAll: () => undefined },
      {
        record: async (n) => {
          stored.push(n);
          return true;
        },
      },
    );
    notifier.publish({ ...confirmed, partners: { userIds: [2], organiser: "Maria Santos" } });
    await notifier.settled?.();
    expect(stored.map((n) => [n.userId, n.kind])).toEqual([
      [1, "request_confirmed"],
      [2, "partner_booked"],
    ]);
    expect(sent).toContainEqual({ userId: 2, message: { type: "status", status: "updated", changed: ["my.invitations", "my.notifications"] } });
  });

  test("a cancelled request tells its partners their invitations changed", () => {
    expect(eventsImpliedBy({ type: "request_cancelled", userId: 1, requestId: 4, partners: [2, 1] })).toEqual([
      { type: "request_cancelled", userId: 1, requestId: 4, partners: [2, 1] },
      { type: "invitations_changed", userId: 2 },
    ]);
  });
});
