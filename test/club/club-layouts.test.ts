/**
 * The adapter against both portals of the demo club: the standard one and the differently
 * written 'legacy' one (other markup, 24-hour times, other date forms, statuses and phrasing).
 * Every member action must work the same on both.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import { slotIdOf } from "../../src/club-sim/tee-sheet.ts";
import { createClubClient, type ClubClient, type ClubPlayer } from "../../src/club/client.ts";
import { ClubError } from "../../src/club/errors.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { FakeClock } from "../../src/lib/clock.ts";

const START = manilaInstant("2025-03-03", "08:00"); // Monday; open up to Monday 10 March
const clock = new FakeClock(START);
const sim: ClubSim = createClubSim({ seed: 33, clock, prebookedShare: 0, blockedShare: 0, idleMinutes: 20 });
let url = "";
let stop: () => Promise<void> = async () => {};
let client: ClubClient;

const MARIA = { userId: 2, email: "maria@southwoods.demo", password: "maria-club" };
const maria: ClubPlayer = { type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Rental Cart - Solo", fee: "Charge to my account" };
const guest = (n: number): ClubPlayer => ({ type: "Guest", firstName: "Guest", lastName: `No${n}`, cart: "Walking", fee: "Charge my guest" });
const slot = (date: string, course: string, time: string) => ({ date, course, time, slotId: slotIdOf(date, course, time) });

async function failureOf(task: Promise<unknown>): Promise<ClubError> {
  try {
    await task;
  } catch (error) {
    expect(error).toBeInstanceOf(ClubError);
    return error as ClubError;
  }
  throw new Error("expected a ClubError");
}

beforeAll(async () => {
  const running = await sim.start();
  url = running.url;
  stop = running.stop;
});
afterAll(() => stop());

for (const layout of ["standard", "legacy"] as const) {
  describe(`the ${layout} portal`, () => {
    beforeEach(async () => {
      sim.setFaults({ latencyMs: 0, errorRate: 0, dropSessions: false, layout, down: false });
      await clock.set(START);
      client = createClubClient({ baseUrl: url, timeoutMs: 2_000 });
      for (const booking of sim.bookingsOf(MARIA.email)) await client.forMember(MARIA).cancelBooking(booking.ref);
      client = createClubClient({ baseUrl: url, timeoutMs: 2_000 });
    });

    test("signs in and reads a tee sheet with its statuses", async () => {
      sim.setSlotStatus("2025-03-05", "masters", "05:12", "BOOKED");
      sim.setSlotStatus("2025-03-05", "masters", "05:20", "BLOCKED");
      const sheet = await client.forMember(MARIA).fetchTeeSheet("2025-03-05", "masters");
      expect(sheet).toMatchObject({ date: "2025-03-05", course: "masters", released: true });
      expect(sheet.slots.slice(0, 3)).toEqual([
        { time: "05:04", status: "AVAILABLE", slotId: slotIdOf("2025-03-05", "masters", "05:04") },
        { time: "05:12", status: "BOOKED", slotId: slotIdOf("2025-03-05", "masters", "05:12") },
        { time: "05:20", status: "BLOCKED", slotId: slotIdOf("2025-03-05", "masters", "05:20") },
      ]);
      expect(sheet.slots.map((s) => s.time)).toContain("16:44");
    });

    test("reads a closed day and a day not released yet", async () => {
      const session = client.forMember(MARIA);
      expect(await session.fetchTeeSheet("2025-03-10", "legends")).toEqual({ date: "2025-03-10", course: "legends", released: true, slots: [] });
      expect(await session.fetchTeeSheet("2025-03-11", "masters")).toEqual({ date: "2025-03-11", course: "masters", released: false, slots: [] });
    });

    test("books, reads the booking back, edits its players and cancels it", async () => {
      const session = client.forMember(MARIA);
      const { ref } = await session.book({ ...slot("2025-03-06", "legends", "06:16"), players: [maria, guest(1)] });
      expect(ref).toMatch(/^SWB-/);
      const [booking] = await session.fetchMyBookings();
      expect(booking).toMatchObject({ ref, date: "2025-03-06", time: "06:16", course: "legends" });
      // The same players the club holds, whichever way the portal writes them.
      const held = sim.bookingsOf(MARIA.email)[0].players.map((p) => ({ name: `${p.firstName} ${p.lastName}`.trim(), type: p.type, id: p.memberId ?? "" }));
      expect(booking.players).toEqual(held);
      expect(booking.players.map((p) => p.type)).toEqual(["Member", "Guest"]);
      expect(booking.players[1]).toEqual({ name: "Guest No1", type: "Guest", id: "" });
      await session.editBooking(ref, [maria, guest(1), guest(2)]);
      expect((await session.fetchMyBookings())[0].players).toHaveLength(3);
      await session.cancelBooking(ref);
      expect(await session.fetchMyBookings()).toEqual([]);
    });

    test("refusals keep their kind in either wording", async () => {
      const session = client.forMember(MARIA);
      sim.setSlotStatus("2025-03-07", "masters", "06:00", "BOOKED");
      expect((await failureOf(session.book({ ...slot("2025-03-07", "masters", "06:00"), players: [maria] }))).kind).toBe("slot_taken");
      expect((await failureOf(session.book({ ...slot("2025-03-11", "masters", "06:00"), players: [maria] }))).kind).toBe("not_yet_open");
      const fourGuests = [guest(1), guest(2), guest(3), guest(4)];
      const tooMany = await failureOf(session.book({ ...slot("2025-03-07", "masters", "06:08"), players: fourGuests }));
      expect(tooMany.kind).toBe("rule_refused");
      expect(tooMany.message).toMatch(/guests/i);
    });

    test("reads the advisories", async () => {
      sim.clearAdvisories();
      expect(await client.fetchAdvisories()).toEqual([]);
      sim.addAdvisory({ title: "Holiday Schedule", eventDate: "2025-04-17", content: "Both courses open at 05:04. • Caddies on half day." });
      expect(await client.fetchAdvisories()).toEqual([{ title: "Holiday Schedule", eventDate: "2025-04-17", content: "Both courses open at 05:04. • Caddies on half day." }]);
    });

    test("an edit whose session was dropped signs in again once and is applied once", async () => {
      const logins: string[] = [];
      client = createClubClient({ baseUrl: url, timeoutMs: 2_000, onAudit: (entry) => entry.action === "login" && logins.push(entry.outcome) });
      const session = client.forMember(MARIA);
      const { ref } = await session.book({ ...slot("2025-03-07", "legends", "07:04"), players: [maria] });
      sim.dropAllSessions();
      await session.editBooking(ref, [maria, guest(7)]);
      expect(logins).toEqual(["ok", "ok"]);
      const held = sim.bookingsOf(MARIA.email);
      expect(held).toHaveLength(1);
      expect(held[0].players.map((p) => p.lastName)).toEqual(["Santos", "No7"]);
      await session.cancelBooking(ref);
    });

    test("a dropped session is signed in again once and the page read", async () => {
      const session = client.forMember(MARIA);
      await session.login();
      sim.dropAllSessions();
      expect((await session.fetchTeeSheet("2025-03-05", "legends")).slots.length).toBeGreaterThan(0);
    });
  });
}

test("the legacy portal really is written differently", async () => {
  sim.setFaults({ layout: "legacy" });
  const login = await (await fetch(`${url}/login`)).text();
  expect(login).toContain('NAME="txtUser"');
  expect(login).not.toContain('id="login-form"');
  sim.setFaults({ layout: "standard" });
});
