import { afterAll, beforeAll, expect, test } from "bun:test";
import { REQUEST_START_HEADER, requestStartValue } from "../../src/club-sim/arrival.ts";
import { createClubSim, CONTROL_TOKEN_HEADER, type BookingAttemptRecord, type RunningClubSim } from "../../src/club-sim/index.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { FakeClock } from "../../src/lib/clock.ts";

// The club's clock stands still: whatever a post's arrival differs from it by is its wait at the door.
const START = manilaInstant("2025-03-03", "08:00");
const sim = createClubSim({ seed: 3, clock: new FakeClock(START), controlToken: "t0ken" });
let server: RunningClubSim;

beforeAll(async () => {
  server = await sim.start();
});
afterAll(() => server.stop());

/** A booking post with no session (logged as such), with the headers given; returns its log entry. */
async function postedWith(headers: Record<string, string>): Promise<BookingAttemptRecord> {
  const before = sim.attempts().length;
  await fetch(`${server.url}/members/book`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: "date=2025-03-05&course=masters&time=06:32",
    redirect: "manual",
  });
  const attempts = sim.attempts();
  expect(attempts.length).toBe(before + 1);
  return attempts.at(-1)!;
}

test("a post straight on the club's port arrives when the server takes it in", async () => {
  const attempt = await postedWith({});
  expect(attempt).toMatchObject({ outcome: "session_expired", arrivedClubMs: START });
  expect(attempt.queuedMs).toBeUndefined();
});

test("a post stamped by the club's front door arrives when the door took it, its wait behind the club's work told apart", async () => {
  const attempt = await postedWith({ [REQUEST_START_HEADER]: requestStartValue(Date.now() - 40) });
  expect(attempt.queuedMs).toBeGreaterThanOrEqual(40);
  expect(attempt.queuedMs).toBeLessThan(1000);
  expect(attempt.arrivedClubMs).toBeCloseTo(START - attempt.queuedMs!, 6);
});

test("a stamp that is not the front door's, from the future, or a minute old is ignored", async () => {
  for (const stamp of ["t=abc", "1764272100123456", requestStartValue(Date.now() + 5_000), requestStartValue(Date.now() - 61_000)]) {
    const attempt = await postedWith({ [REQUEST_START_HEADER]: stamp });
    expect(attempt.arrivedClubMs).toBe(START);
    expect(attempt.queuedMs).toBeUndefined();
  }
});

test("the control API hands the door's wait on with the attempt", async () => {
  await postedWith({ [REQUEST_START_HEADER]: requestStartValue(Date.now() - 25) });
  const answer = await fetch(`${server.url}/__control/attempts`, { headers: { [CONTROL_TOKEN_HEADER]: "t0ken" } });
  const { attempts } = (await answer.json()) as { attempts: BookingAttemptRecord[] };
  expect(attempts.at(-1)!.queuedMs).toBeGreaterThanOrEqual(25);
});
