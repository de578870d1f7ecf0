/**
 * At a release instant the posts leave first: a read that arrives in the last moments before a
 * first wave the main thread sends waits until the wave has left, then is answered as usual; a
 * wave its own thread carries whole holds no read.
 */
import { afterEach, expect, test } from "bun:test";
import { WAVE_HOLD_MS } from "../../src/jobs/release-engine.ts";
import { sendsOnMainThread, type PreparedAttempt } from "../../src/jobs/release/first-wave.ts";
import { startReleaseFixture, submission, type ReleaseFixture, PLAY, RELEASE } from "./release-engine.fixture.ts";

/** A Monday: Masters runs; released seven days before at 07:00 Manila on the club's clock. */

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

test("a read in the moments before the first wave is answered once the wave has left, and reads further from it are not held", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const cookie = await f.t.signIn("jose", "demo1234");

  // Well before the instant nothing is held.
  await f.moveTo(RELEASE - 60_000);
  expect(f.engine.waveAboutToLeave()).toBeNull();
  expect((await f.t.call("GET", "/v1/my/requests", { cookie })).status).toBe(200);

  // Armed, and the instant is near: a read waits for the wave.
  await f.moveTo(RELEASE - WAVE_HOLD_MS + 50);
  expect(f.engine.waveAboutToLeave()).not.toBeNull();
  let isAnswered = false;
  const read = f.t.call("GET", "/v1/my/requests", { cookie }).then((res) => {
    isAnswered = true;
    return res;
  });
  await f.engine.idle();
  expect(isAnswered).toBe(false);
  expect(f.sim.attempts().filter((a) => !a.isRival)).toHaveLength(0);

  await f.moveTo(RELEASE);
  const res = await read;
  expect(res.status).toBe(200);
  // By the time it was answered, the post had left.
  expect(f.sim.attempts().filter((a) => !a.isRival).length).toBeGreaterThan(0);
  expect(f.engine.waveAboutToLeave()).toBeNull();
});

test("reads are held only for a wave with posts the main thread sends: a wave its own thread carries whole holds none", () => {
  const attempt = (waveIndex: number | null) => ({ waveIndex }) as PreparedAttempt;
  expect(sendsOnMainThread(new Map())).toBe(false);
  expect(
    sendsOnMainThread(
      new Map([
        [1, attempt(0)],
        [2, attempt(1)],
      ]),
    ),
  ).toBe(false);
  // One member's post was not built ahead (no session yet): the main thread sends it at the instant.
  expect(
    sendsOnMainThread(
      new Map([
        [1, attempt(0)],
        [2, attempt(null)],
      ]),
    ),
  ).toBe(true);
});
