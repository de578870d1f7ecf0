/** The politeness budget: per member and for the whole club, what each pace does when it is spent, and the club's "slow down". */
import { describe, expect, test } from "bun:test";
import { createClubBudget, DEFAULT_SLOW_DOWN_MS, MAX_RETRY_AFTER_MS, type BudgetLimits, type EpisodeEvent } from "../../src/club/budget.ts";
import { isClubError } from "../../src/club/errors.ts";
import { FakeClock } from "../../src/lib/clock.ts";

const START = Date.UTC(2026, 10, 22, 1, 0, 0);
const LIMITS: BudgetLimits = { clubPerMinute: 60, clubBurst: 10, memberPerMinute: 12, memberBurst: 3 };

/** A take that has not resolved yet shows as "waiting". */
async function stateOf(promise: Promise<void>): Promise<"taken" | "waiting" | "refused"> {
  let state: "taken" | "waiting" | "refused" = "waiting";
  promise.then(
    () => (state = "taken"),
    () => (state = "refused"),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return state;
}

function setup(limits = LIMITS) {
  const clock = new FakeClock(START);
  const events: EpisodeEvent[] = [];
  const budget = createClubBudget({ clock, limits, onEpisode: (event) => events.push(event) });
  return { clock, budget, events };
}

describe("the club budget", () => {
  test("a member's login may send its burst at once, then one request per refill", async () => {
    const { clock, budget } = setup();
    for (let i = 0; i < 3; i++) expect(await stateOf(budget.take({ memberId: 1, pace: "urgent" }))).toBe("taken");
    const fourth = budget.take({ memberId: 1, pace: "urgent" });
    expect(await stateOf(fourth)).toBe("waiting");
    // Another member is not held up by the first one's spent login.
    expect(await stateOf(budget.take({ memberId: 2, pace: "urgent" }))).toBe("taken");
    // 12 a minute: one token every 5 s.
    await clock.advance(4_999);
    expect(await stateOf(fourth)).toBe("waiting");
    await clock.advance(1);
    expect(await stateOf(fourth)).toBe("taken");
  });

  test("the whole club's bucket holds every member back, in order of arrival", async () => {
    const { clock, budget } = setup({ ...LIMITS, clubBurst: 2, memberBurst: 10 });
    await budget.take({ memberId: 1, pace: "urgent" });
    await budget.take({ memberId: 2, pace: "urgent" });
    const order: number[] = [];
    const third = budget.take({ memberId: 3, pace: "urgent" }).then(() => order.push(3));
    const fourth = budget.take({ memberId: null, pace: "urgent" }).then(() => order.push(4));
    expect(budget.waiting()).toBe(2);
    await clock.advance(1_000);
    await clock.advance(1_000);
    await Promise.all([third, fourth]);
    expect(order).toEqual([3, 4]);
    expect(budget.waiting()).toBe(0);
  });

  test("urgent requests (a release's retries) go before background ones (the bookings sync) waiting longer", async () => {
    const { clock, budget } = setup({ ...LIMITS, clubBurst: 1, memberBurst: 10 });
    await budget.take({ memberId: 1, pace: "urgent" });
    const order: string[] = [];
    const sync = budget.take({ memberId: 2, pace: "background" }).then(() => order.push("sync"));
    const retry = budget.take({ memberId: 3, pace: "urgent" }).then(() => order.push("retry"));
    await clock.advance(1_000);
    await clock.advance(1_000);
    await Promise.all([sync, retry]);
    expect(order).toEqual(["retry", "sync"]);
  });

  test("a request that skips (a scrape, a watch poll) is refused at once when the budget is spent, and never queued", async () => {
    const { budget } = setup({ ...LIMITS, memberBurst: 1 });
    await budget.take({ memberId: 1, pace: "skip" });
    const refused = await budget.take({ memberId: 1, pace: "skip" }).catch((error: unknown) => error);
    expect(isClubError(refused, "busy")).toBe(true);
    expect(budget.waiting()).toBe(0);
    // Nor does it jump ahead of a request already waiting for the club's tokens.
    const { budget: other } = setup({ ...LIMITS, clubBurst: 1 });
    await other.take({ memberId: null, pace: "urgent" });
    void other.take({ memberId: null, pace: "urgent" });
    expect(isClubError(await other.take({ memberId: 5, pace: "skip" }).catch((e: unknown) => e), "busy")).toBe(true);
  });

  test("'slow down' pauses every request for the club's Retry-After, then they resume at the steady rate", async () => {
    const { clock, budget } = setup({ ...LIMITS, clubPerMinute: 60 });
    expect(budget.slowDown({ reason: "429", status: 429, retryAfterMs: 30_000 })).toBe(30_000);
    const waiting = budget.take({ memberId: 1, pace: "urgent" });
    expect(isClubError(await budget.take({ memberId: 2, pace: "skip" }).catch((e: unknown) => e), "busy")).toBe(true);
    await clock.advance(29_999);
    expect(await stateOf(waiting)).toBe("waiting");
    await clock.advance(1);
    expect(await stateOf(waiting)).toBe("taken");
    // The saved-up tokens are gone: after the pause one a second (60 a minute), not a burst.
    const next = budget.take({ memberId: 2, pace: "urgent" });
    expect(await stateOf(next)).toBe("waiting");
    await clock.advance(1_000);
    expect(await stateOf(next)).toBe("taken");
  });

  test("without a Retry-After the pause is the documented default, doubling within one episode; a Retry-After is capped", () => {
    const { budget } = setup();
    expect(budget.slowDown({ reason: "challenge", status: 403, retryAfterMs: null })).toBe(DEFAULT_SLOW_DOWN_MS);
    expect(budget.slowDown({ reason: "challenge", status: 403, retryAfterMs: null })).toBe(2 * DEFAULT_SLOW_DOWN_MS);
    const { budget: other } = setup();
    expect(other.slowDown({ reason: "503", status: 503, retryAfterMs: 10 * 24 * 3600_000 })).toBe(MAX_RETRY_AFTER_MS);
  });

  test("the admin is told once when an episode starts and once when a request after the pause is answered", async () => {
    const { clock, budget, events } = setup();
    budget.slowDown({ reason: "429", status: 429, retryAfterMs: 10_000 });
    budget.slowDown({ reason: "429", status: 429, retryAfterMs: 10_000 });
    budget.noteAnswered(); // an answer to a request that left before the pause: still the same episode
    await clock.advance(5_000);
    budget.slowDown({ reason: "challenge", status: 403, retryAfterMs: null });
    expect(events.map((e) => e.type)).toEqual(["started"]);
    expect(budget.episodes().current).toMatchObject({ signals: 3, reason: "challenge" });
    await clock.advance(DEFAULT_SLOW_DOWN_MS * 4);
    budget.noteAnswered();
    budget.noteAnswered();
    expect(events.map((e) => e.type)).toEqual(["started", "ended"]);
    expect(budget.episodes()).toMatchObject({ current: null, last: { signals: 3, endedAt: clock.now() } });
  });

  test("stopping refuses every waiting request: nothing waits on a token through a shutdown", async () => {
    const { budget } = setup({ ...LIMITS, clubBurst: 1 });
    await budget.take({ memberId: 1, pace: "urgent" });
    const waiting = budget.take({ memberId: 1, pace: "background" }).catch((e: unknown) => e);
    budget.cancelWaiting();
    expect(isClubError(await waiting, "busy")).toBe(true);
    expect(budget.waiting()).toBe(0);
  });

  test("new sizes from the app settings apply at once", async () => {
    const { budget } = setup();
    budget.configure({ ...LIMITS, memberBurst: 1 });
    await budget.take({ memberId: 1, pace: "urgent" });
    expect(await stateOf(budget.take({ memberId: 1, pace: "urgent" }))).toBe("waiting");
    expect(budget.limits().memberBurst).toBe(1);
  });
});

describe("a release's allowance", () => {
  const spendClub = async (budget: ReturnType<typeof setup>["budget"]) => {
    for (let i = 0; i < LIMITS.clubBurst; i++) await budget.take({ memberId: null, pace: "urgent" });
  };

  test("a release's requests draw on it once the club's bucket is spent; no other pace does", async () => {
    const { clock, budget } = setup();
    await spendClub(budget);
    const close = budget.allow(2, START + 60_000);
    expect(budget.allowed()).toBe(2);
    expect(await stateOf(budget.take({ memberId: null, pace: "background" }))).toBe("waiting");
    expect(await stateOf(budget.take({ memberId: 1, pace: "urgent" }))).toBe("waiting");
    expect(await stateOf(budget.take({ memberId: 2, pace: "release" }))).toBe("taken");
    expect(await stateOf(budget.take({ memberId: null, pace: "release" }))).toBe("taken");
    // Spent: a release's request waits like an urgent one, ahead of the background.
    expect(await stateOf(budget.take({ memberId: 3, pace: "release" }))).toBe("waiting");
    expect(budget.allowed()).toBe(0);
    close();
    await clock.advance(1000);
    expect(budget.waiting()).toBe(2);
  });

  test("a release's requests queued behind a spent club bucket go as soon as an allowance opens", async () => {
    const { budget } = setup();
    await spendClub(budget);
    const queued = [budget.take({ memberId: null, pace: "urgent" }), budget.take({ memberId: 4, pace: "release" })];
    expect(await stateOf(queued[1])).toBe("waiting");
    budget.allow(1, START + 60_000);
    expect(await stateOf(queued[1])).toBe("taken");
    expect(await stateOf(queued[0])).toBe("waiting");
  });

  test("the member's own bucket and the club's pause still hold; the allowance lapses, or is closed", async () => {
    const { clock, budget } = setup();
    const close = budget.allow(100, START + 10_000);
    for (let i = 0; i < LIMITS.memberBurst; i++) expect(await stateOf(budget.take({ memberId: 1, pace: "release" }))).toBe("taken");
    expect(await stateOf(budget.take({ memberId: 1, pace: "release" }))).toBe("waiting");
    budget.slowDown({ reason: "429", status: 429, retryAfterMs: 5_000 });
    expect(await stateOf(budget.take({ memberId: 2, pace: "release" }))).toBe("waiting");
    await clock.advance(10_000);
    expect(budget.allowed()).toBe(0);
    close();
    expect(budget.allowed()).toBe(0);
  });
});
