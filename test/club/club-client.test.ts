import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import { DEMO_CLUB_ACCOUNTS } from "../../src/club-sim/demo-data.ts";
import { slotIdOf } from "../../src/club-sim/tee-sheet.ts";
import { createClubClient, type ClubAuditEntry, type ClubClient, type ClubPlayer } from "../../src/club/client.ts";
import { ClubError } from "../../src/club/errors.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { FakeClock } from "../../src/lib/clock.ts";

// The club's clock is a fake one (so sessions can go idle in an instant); the HTTP is real.
const START = manilaInstant("2025-03-03", "08:00"); // Monday; open up to Monday 10 March
const clock = new FakeClock(START);
const sim: ClubSim = createClubSim({ seed: 21, clock, prebookedShare: 0, blockedShare: 0, idleMinutes: 20 });
let url = "";
let stop: () => Promise<void> = async () => {};
let audit: ClubAuditEntry[] = [];
let client: ClubClient;

const MARIA = { userId: 2, email: "maria@southwoods.demo", password: "maria-club" };
const JOSE = { userId: 3, email: "jose@southwoods.demo", password: "jose-club" };
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
beforeEach(async () => {
  sim.setFaults({ latencyMs: 0, errorRate: 0, dropSessions: false, layout: "standard", down: false });
  await clock.set(START);
  audit = [];
  client = createClubClient({ baseUrl: url, timeoutMs: 2_000, onAudit: (entry) => audit.push(entry) });
});

describe("credentials and sessions", () => {
  test("verifies good credentials and refuses bad ones, never logging the password", async () => {
    await client.verifyCredentials("ana@southwoods.demo", "ana-club");
    const error = await failureOf(client.verifyCredentials("ana@southwoods.demo", "secret-wrong-pass"));
    expect(error.kind).toBe("bad_credentials");
    expect(error.message).not.toContain("secret-wrong-pass");
    expect(audit.map((a) => [a.action, a.outcome, a.userId])).toEqual([
      ["verify", "ok", null],
      ["verify", "bad_credentials", null],
    ]);
    expect(JSON.stringify(audit)).not.toContain("ana-club");
    expect(JSON.stringify(audit)).not.toContain("secret-wrong-pass");
  });

  test("reuses one session per member and renews it once it has gone idle", async () => {
    const session = client.forMember(MARIA);
    expect(client.forMember(MARIA)).toBe(session);
    await Promise.all([session.fetchMyBookings(), session.fetchTeeSheet("2025-03-05", "masters")]);
    await session.fetchMyBookings();
    expect(audit.filter((a) => a.action === "login")).toHaveLength(1);
    await clock.advance(21 * 60_000);
    await session.fetchMyBookings();
    expect(audit.filter((a) => a.action === "login").map((a) => a.outcome)).toEqual(["ok", "ok"]);
    expect(audit[0]).toMatchObject({ userId: 2, email: MARIA.email, durationMs: expect.any(Number) });
  });

  test("changed credentials replace the cached session", async () => {
    const first = client.forMember(MARIA);
    const changed = client.forMember({ ...MARIA, password: "other" });
    expect(changed).not.toBe(first);
    expect((await failureOf(changed.login())).kind).toBe("bad_credentials");
    expect(audit.at(-1)).toMatchObject({ action: "login", outcome: "bad_credentials" });
  });

  test("a club that keeps dropping sessions gives session_expired", async () => {
    const session = client.forMember(MARIA);
    await session.login();
    sim.setFaults({ dropSessions: true });
    expect((await failureOf(session.fetchMyBookings())).kind).toBe("session_expired");
  });
});

describe("reads", () => {
  test("tee sheets: released, not released, closed", async () => {
    const session = client.forMember(MARIA);
    const open = await session.fetchTeeSheet("2025-03-05", "masters");
    expect(open.released).toBe(true);
    expect(open.slots[0]).toEqual({ time: "05:04", status: "AVAILABLE", slotId: "MAS-20250305-0504" });
    expect(await session.fetchTeeSheet("2025-03-11", "masters")).toEqual({ date: "2025-03-11", course: "masters", released: false, slots: [] });
    expect(await session.fetchTeeSheet("2025-03-10", "legends")).toEqual({ date: "2025-03-10", course: "legends", released: true, slots: [] });
  });

  test("advisories need no session", async () => {
    const advisories = await client.fetchAdvisories();
    expect(advisories.map((a) => a.title)).toContain("Club Championship");
    expect(audit).toEqual([]);
  });

  test("an unknown course is not_found", async () => {
    expect((await failureOf(client.forMember(MARIA).fetchTeeSheet("2025-03-05", "nine-hole"))).kind).toBe("not_found");
  });

  test("club time comes from the Date header, with the offset", async () => {
    sim.setClockOffset(1_300);
    try {
      const reading = await client.clubTime();
      expect(reading.clubMs).toBe(Math.floor((START + 1_300) / 1000) * 1000);
      expect(reading.sentMs).toBeLessThanOrEqual(reading.receivedMs);
    } finally {
      sim.setClockOffset(0);
    }
  });
});

describe("book, edit, cancel", () => {
  test("a full round trip", async () => {
    const session = client.forMember(MARIA);
    const target = slot("2025-03-07", "legends", "07:04");
    const { ref } = await session.book({ ...target, players: [maria, guest(1)] });
    expect(ref).toMatch(/^SWB-\d+$/);
    let [booking] = await session.fetchMyBookings();
    expect(booking).toMatchObject({ ref, date: "2025-03-07", time: "07:04", course: "legends" });
    expect(booking.players).toEqual([
      { name: "Maria Santos", type: "Member", id: "SW-1001" },
      { name: "Guest No1", type: "Guest", id: "" },
    ]);
    await session.editBooking(ref, [maria, { type: "Member", lastName: "Lim", memberId: "SW-1005", cart: "Own Cart", fee: "Charge to their account" }]);
    [booking] = await session.fetchMyBookings();
    expect(booking.players.map((p) => p.name)).toEqual(["Maria Santos", "Grace Lim"]);
    await session.cancelBooking(ref);
    expect(await session.fetchMyBookings()).toEqual([]);
    const sheet = await session.fetchTeeSheet("2025-03-07", "legends");
    expect(sheet.slots.find((s) => s.time === "07:04")?.status).toBe("AVAILABLE");
    expect(audit.map((a) => `${a.action}:${a.outcome}`)).toEqual(["login:ok", "book:ok", "edit:ok", "cancel:ok"]);
    expect(audit[1].detail).toContain(ref);
  });

  test("a prepared booking is built now and sent only when called, as one audited booking", async () => {
    const session = client.forMember(MARIA);
    await session.login();
    const target = slot("2025-03-07", "masters", "07:12");
    const post = session.prepareBook({ ...target, players: [maria] });
    expect(sim.attempts().filter((a) => a.slotId === target.slotId)).toHaveLength(0);
    const { ref } = await post.post();
    expect(
      sim
        .attempts()
        .filter((a) => a.slotId === target.slotId)
        .map((a) => a.outcome),
    ).toEqual(["confirmed"]);
    expect((await session.fetchMyBookings()).map((b) => b.ref)).toEqual([ref]);
    expect(audit.map((a) => `${a.action}:${a.outcome}`)).toEqual(["login:ok", "book:ok"]);
    // A taken slot is typed the same way through a prepared post.
    const again = session.prepareBook({ ...target, players: [maria] });
    expect((await failureOf(again.post())).kind).toBe("slot_taken");
  });

  test("every refusal is typed", async () => {
    const session = client.forMember(MARIA);
    const target = slot("2025-03-07", "masters", "06:00");
    await session.book({ ...target, players: [maria] });
    expect((await failureOf(session.book({ ...target, players: [maria] }))).kind).toBe("slot_taken");
    const later = slot("2025-03-11", "masters", "06:00");
    const notOpen = await failureOf(session.book({ ...later, players: [maria] }));
    expect(notOpen.kind).toBe("not_yet_open");
    expect(notOpen.message).toContain("Tuesday Mar 4, 2025");
    const free = slot("2025-03-07", "masters", "06:08");
    expect((await failureOf(session.book({ ...free, players: [guest(1), guest(2), guest(3), guest(4)] }))).kind).toBe("rule_refused");
    expect((await failureOf(session.book({ ...free, players: [{ ...maria, memberId: "SW-0404" }] }))).kind).toBe("player_not_found");
    expect((await failureOf(session.cancelBooking("SWB-000001"))).kind).toBe("not_found");
    expect((await failureOf(session.editBooking("SWB-000001", [maria]))).kind).toBe("not_found");
    expect(audit.filter((a) => a.action === "book").map((a) => a.outcome)).toEqual(["ok", "slot_taken", "not_yet_open", "rule_refused", "player_not_found"]);
  });

  test("concurrent bookings of one slot: exactly one wins", async () => {
    const sessions = DEMO_CLUB_ACCOUNTS.map((a, i) => client.forMember({ userId: 100 + i, email: a.email, password: a.password }));
    await Promise.all(sessions.map((s) => s.login()));
    const target = slot("2025-03-08", "legends", "06:24");
    const results = await Promise.allSettled(
      [...sessions, ...sessions].map((s, i) =>
        s.book({
          ...target,
          players: [
            { type: "Member", lastName: DEMO_CLUB_ACCOUNTS[i % 4].lastName, memberId: DEMO_CLUB_ACCOUNTS[i % 4].membershipNumber, cart: "Walking", fee: "Charge to my account" },
          ],
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refusals.map((r) => (r.reason as ClubError).kind)).toEqual(Array(7).fill("slot_taken"));
  });

  test("a booking post is never retried, even when the session had ended", async () => {
    const session = client.forMember(JOSE);
    await session.login();
    const before = sim.attempts().length;
    sim.dropAllSessions();
    const error = await failureOf(
      session.book({
        ...slot("2025-03-07", "masters", "06:16"),
        players: [{ type: "Member", lastName: "Reyes", memberId: "SW-1002", cart: "Walking", fee: "Charge to my account" }],
      }),
    );
    expect(error.kind).toBe("session_expired");
    expect(sim.attempts().length - before).toBe(1);
    // The next call signs in again by itself.
    const { ref } = await session.book({
      ...slot("2025-03-07", "masters", "06:16"),
      players: [{ type: "Member", lastName: "Reyes", memberId: "SW-1002", cart: "Walking", fee: "Charge to my account" }],
    });
    expect(ref).toBeTruthy();
  });
});

describe("faults", () => {
  test("a changed layout is page_not_understood, naming the page", async () => {
    const session = client.forMember(MARIA);
    await session.login();
    sim.setFaults({ layout: "changed" });
    const sheetError = await failureOf(session.fetchTeeSheet("2025-03-05", "masters"));
    expect(sheetError).toMatchObject({ kind: "page_not_understood", page: "tee sheet" });
    expect((await failureOf(session.fetchMyBookings())).page).toBe("my bookings");
    expect((await failureOf(client.fetchAdvisories())).page).toBe("advisories");
    expect((await failureOf(client.verifyCredentials(MARIA.email, MARIA.password))).page).toBe("login");
  });

  test("down and 500s are unavailable with their status; a failed booking post is ambiguous and not retried", async () => {
    const session = client.forMember(MARIA);
    await session.login();
    sim.setFaults({ down: true });
    expect(await failureOf(client.fetchAdvisories())).toMatchObject({ kind: "unavailable", status: 503 });
    sim.setFaults({ down: false, errorRate: 1 });
    expect(await failureOf(session.fetchMyBookings())).toMatchObject({ kind: "unavailable", status: 500 });
    const before = sim.attempts().length;
    const error = await failureOf(session.book({ ...slot("2025-03-07", "masters", "06:24"), players: [maria] }));
    expect(error).toMatchObject({ kind: "unavailable", status: 500, isAmbiguous: true });
    expect(sim.attempts().length - before).toBe(1);
    expect(audit.at(-1)).toMatchObject({ action: "book", outcome: "unavailable" });
  });

  test("a slow club times out as unavailable", async () => {
    const quick = createClubClient({ baseUrl: url, timeoutMs: 50 });
    sim.setFaults({ latencyMs: 300 });
    const error = await failureOf(quick.fetchAdvisories());
    expect(error.kind).toBe("unavailable");
    expect(error.message).toContain("within 50 ms");
  });

  test("a club that cannot be reached is unavailable", async () => {
    const gone = createClubSim({ clock });
    const running = await gone.start();
    await running.stop();
    const error = await failureOf(createClubClient({ baseUrl: running.url, timeoutMs: 1_000 }).fetchAdvisories());
    expect(error.kind).toBe("unavailable");
    expect(error.message).toContain("could not be reached");
  });

  test("requests in flight stay within maxConnections", async () => {
    let inFlight = 0;
    let peak = 0;
    const counting = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        try {
          return await sim.app.fetch(request);
        } finally {
          inFlight--;
        }
      },
    });
    try {
      sim.setFaults({ latencyMs: 20 });
      const limited = createClubClient({ baseUrl: `http://127.0.0.1:${counting.port}`, maxConnections: 2 });
      await Promise.all(Array.from({ length: 8 }, () => limited.fetchAdvisories()));
      expect(peak).toBe(2);
    } finally {
      await counting.stop(true);
    }
  });
});
