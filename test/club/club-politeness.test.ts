/**
 * The adapter's manners at the club, over real HTTP against the demo club: every request counted
 * by kind and outcome, the budget held to (the first wave excepted), and the club's "slow down"
 * (429, 503 with Retry-After, a bot wall) pausing every request (decisions 145, 146).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import { slotIdOf } from "../../src/club-sim/tee-sheet.ts";
import type { EpisodeEvent } from "../../src/club/budget.ts";
import { createClubClient, type ClubClient, type ClubPlayer } from "../../src/club/client.ts";
import { ClubError } from "../../src/club/errors.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { FakeClock } from "../../src/lib/clock.ts";

// Monday 3 March 2025, 08:00 Manila: dates up to Monday 10 March are open.
const START = manilaInstant("2025-03-03", "08:00");
const clock = new FakeClock(START);
const sim: ClubSim = createClubSim({ seed: 21, clock, prebookedShare: 0, blockedShare: 0 });
const MARIA = { userId: 2, email: "maria@southwoods.demo", password: "maria-club" };
const maria: ClubPlayer = { type: "Member", lastName: "Santos", memberId: "SW-1001", cart: "Rental Cart - Solo", fee: "Charge to my account" };
const slot = (date: string, time: string) => ({ date, course: "masters", time, slotId: slotIdOf(date, "masters", time), players: [maria] });
const NO_FAULTS = { latencyMs: 0, errorRate: 0, dropSessions: false, layout: "standard", down: false, slowDown: "off", retryAfterSeconds: 30, challengeStatus: 403 } as const;

let url = "";
let stop: () => Promise<void> = async () => {};
let client: ClubClient;
let episodes: EpisodeEvent[] = [];

async function failureOf(task: Promise<unknown>): Promise<ClubError> {
  const error = await task.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClubError);
  return error as ClubError;
}

/** Whether a promise is still pending after the event loop has had a few turns (an HTTP request included). */
async function isPending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Bun.sleep(50);
  return !settled;
}

beforeAll(async () => {
  const running = await sim.start();
  url = running.url;
  stop = running.stop;
});
afterAll(() => stop());
beforeEach(async () => {
  sim.setFaults(NO_FAULTS);
  await clock.set(START);
  episodes = [];
  client = createClubClient({ baseUrl: url, clock, timeoutMs: 2_000, onSlowDown: (event) => episodes.push(event) });
});

describe("counting", () => {
  test("every request is counted by kind, outcome and member, a booking post by what its page said", async () => {
    const session = client.forMember(MARIA);
    await session.fetchTeeSheet("2025-03-05", "masters");
    await session.book(slot("2025-03-05", "06:00"));
    await failureOf(session.book(slot("2025-03-05", "06:00")));
    await failureOf(session.book(slot("2025-03-20", "06:00")));
    await client.fetchAdvisories();
    await client.clubTime();
    const snapshot = client.politeness.traffic.snapshot();
    expect(snapshot.totals).toEqual({
      sign_in: { ok: 3 },
      sheet: { ok: 1 },
      book: { ok: 1, refused: 1, not_yet_open: 1 },
      advisories: { ok: 1 },
      clock_probe: { ok: 1 },
    });
    expect(snapshot.total).toBe(9);
    expect(snapshot.lastMinute).toBe(9);
    // The sign-in, the sheet and the three posts were hers; the advisories and the clock probe nobody's.
    expect(snapshot.busiestMember).toMatchObject({ userId: 2, requests: 7 });
  });

  test("a 5xx, a challenge and a 429 are counted as such", async () => {
    sim.setFaults({ down: true });
    await failureOf(client.fetchAdvisories());
    sim.setFaults({ down: false, slowDown: "challenge" });
    await failureOf(client.fetchAdvisories());
    expect(client.politeness.traffic.snapshot().totals).toEqual({ advisories: { "5xx": 1, challenge: 1 } });
  });
});

describe("the club asking Teebox to slow down", () => {
  test("a 429 pauses every request for its Retry-After; a request that skips is not sent, one that waits goes after", async () => {
    const session = client.forMember(MARIA);
    await session.login();
    sim.setFaults({ slowDown: "429", retryAfterSeconds: 30 });
    const refused = await failureOf(client.fetchAdvisories());
    expect(refused).toMatchObject({ kind: "slow_down", status: 429, retryAfterMs: 30_000, isAmbiguous: false });
    sim.setFaults({ slowDown: "off" });
    const skipped = await failureOf(session.fetchTeeSheet("2025-03-05", "masters", { pace: "skip" }));
    expect(skipped.kind).toBe("busy");
    const waiting = client.clubTime();
    expect(await isPending(waiting)).toBe(true);
    expect(client.politeness.traffic.snapshot()).toMatchObject({ total: 4, skipped: { sheet: 1 } });
    await clock.advance(30_000);
    await waiting;
    expect(client.politeness.traffic.snapshot().total).toBe(5);
  });

  test("a 503 with Retry-After pauses; a bare 503 is the club in trouble and pauses nothing", async () => {
    sim.setFaults({ slowDown: "503", retryAfterSeconds: 10 });
    expect(await failureOf(client.fetchAdvisories())).toMatchObject({ kind: "slow_down", status: 503, retryAfterMs: 10_000 });
    await clock.advance(10_000);
    sim.setFaults({ slowDown: "off", down: true });
    expect((await failureOf(client.fetchAdvisories())).kind).toBe("unavailable");
    // The club answered without asking for a pause: the episode is over, and a 5xx pauses nothing.
    expect(client.politeness.budget.episodes()).toMatchObject({ current: null, last: { reason: "503" } });
    await clock.advance(1_000);
    expect((await failureOf(client.fetchAdvisories())).kind).toBe("unavailable");
  });

  test("a booking post answered by a bot wall may have reached the club behind it; one answered 429 did no work", async () => {
    const session = client.forMember(MARIA);
    await session.login();
    sim.setFaults({ slowDown: "challenge", challengeStatus: 200 });
    expect(await failureOf(session.book(slot("2025-03-06", "06:00")))).toMatchObject({ kind: "slow_down", status: 200, isAmbiguous: true });
    await clock.advance(60_000);
    sim.setFaults({ slowDown: "429" });
    expect(await failureOf(session.book(slot("2025-03-06", "06:00")))).toMatchObject({ kind: "slow_down", isAmbiguous: false });
    expect(
      sim
        .attempts()
        .filter((a) => a.date === "2025-03-06")
        .map((a) => a.outcome),
    ).toEqual(["slowed_down", "slowed_down"]);
  });

  test("told once per episode: when it starts and when a request after the pause is answered", async () => {
    sim.setFaults({ slowDown: "429", retryAfterSeconds: 20 });
    await failureOf(client.fetchAdvisories());
    await clock.advance(20_000);
    await failureOf(client.fetchAdvisories());
    await clock.advance(20_000);
    sim.setFaults({ slowDown: "challenge" });
    await failureOf(client.fetchAdvisories());
    expect(episodes.map((e) => e.type)).toEqual(["started"]);
    sim.setFaults({ slowDown: "off" });
    // Without a Retry-After the pause doubles within an episode: 60 s, then 120 s, then 240 s.
    expect(client.politeness.budget.episodes().current?.pausedUntil).toBe(clock.now() + 240_000);
    await clock.advance(240_000);
    await client.fetchAdvisories();
    await clock.advance(1_000);
    await client.fetchAdvisories();
    expect(episodes.map((e) => [e.type, e.episode.signals])).toEqual([
      ["started", 1],
      ["ended", 3],
    ]);
  });
});

describe("the budget", () => {
  test("a member's login waits once its burst is spent; the release's first wave does not wait", async () => {
    client.politeness.budget.configure({ clubPerMinute: 600, clubBurst: 100, memberPerMinute: 12, memberBurst: 4 });
    const session = client.forMember(MARIA);
    await session.login(); // three requests
    await session.fetchTeeSheet("2025-03-05", "masters");
    // The first wave's post, built ahead, leaves at once though the login's budget is spent.
    const prepared = session.prepareBook(slot("2025-03-05", "06:08"));
    expect(prepared.wire).not.toBeNull();
    expect(await prepared.post()).toMatchObject({ ref: expect.any(String) });
    // Any other request of hers waits for a token (one every 5 s).
    const next = session.fetchMyBookings();
    expect(await isPending(next)).toBe(true);
    await clock.advance(5_000);
    expect((await next).map((b) => `${b.date} ${b.time}`)).toContain("2025-03-05 06:08");
    expect(client.politeness.traffic.snapshot().totals.book).toEqual({ ok: 1 });
  });
});
