/**
 * The first wave's own thread (decision 121): posts leave at the instant and never before, even
 * while the main thread is busy; a wave called off sends nothing, and its posts then go from here;
 * a thread that cannot start never costs a post. The club is a recording server in its own process,
 * so it notes arrivals while this thread is blocked.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { WireRequest } from "../../src/club/http.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { armWave, useEmbeddedWaveWorker } from "../../src/jobs/release/wave-sender.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";

let club: RecordingServer;
const logger = createLogger("error");

beforeAll(async () => {
  club = await startRecordingServer();
});
afterAll(() => club.stop());

const post = (path: string, body: string, timeoutMs = 5_000): WireRequest => ({
  url: `${club.url}${path}`,
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body,
  timeoutMs,
});

const arrivalsOf = async (prefix: string) => (await club.log()).arrivals.filter((a) => a.body.startsWith(prefix));

/** Blocks this thread (as a long page render or a garbage collection would) until `untilMs`. */
function blockUntil(untilMs: number): void {
  while (Date.now() < untilMs) {
    // busy
  }
}

test("every post leaves at the instant, never before, and its answer comes back through via", async () => {
  const fireAt = Date.now() + 400;
  const posts = Array.from({ length: 5 }, (_, i) => post("/book", `on-time=${i}`));
  const wave = armWave(fireAt, posts, 64, logger);
  const answers = await Promise.all(posts.map((wire, i) => wave.via(i)(wire)));
  expect(answers.map((a) => a.body)).toEqual(posts.map(() => "answered /book"));
  expect(answers.every((a) => a.status === 200 && a.setCookies.some((c) => c.startsWith("seen=1")))).toBe(true);
  const arrivals = await arrivalsOf("on-time=");
  expect(arrivals.map((a) => a.body).sort()).toEqual(posts.map((p) => p.body!).sort());
  expect(arrivals.every((a) => a.atMs >= fireAt)).toBe(true);
  for (const i of posts.keys()) expect(wave.sentAt(i)).toBeGreaterThanOrEqual(fireAt);
  // What a first post's lateness is made of, as the engine logs it: the thread's wake and its writes.
  const writing = wave.writing();
  expect(writing?.posts).toBe(5);
  expect(writing?.wokeAfterMs).toBeGreaterThan(-1);
  expect(writing?.writesMs).toBeGreaterThanOrEqual(0);
});

test("an instant between two milliseconds: the posts leave at it on the precise clock, not at the next whole one, and never before (decision 202)", async () => {
  const fireAt = Date.now() + 300.55;
  const posts = Array.from({ length: 3 }, (_, i) => post("/book", `fraction=${i}`));
  const wave = armWave(fireAt, posts, 64, logger);
  await Promise.all(posts.map((wire, i) => wave.via(i)(wire)));
  const arrivals = await arrivalsOf("fraction=");
  expect(arrivals).toHaveLength(3);
  expect(arrivals.every((a) => a.atMs >= Math.floor(fireAt))).toBe(true);
  // The club's precise clock is calibrated apart from the wave's: each may be off by a few hundredths of a millisecond.
  expect(arrivals.every((a) => a.atPreciseMs >= fireAt - 0.1)).toBe(true);
  const sent = posts.map((_, i) => wave.sentAt(i)!);
  expect(sent.every((ms) => ms >= fireAt)).toBe(true);
  // Told to a fraction of a millisecond: a whole-millisecond clock could only have said fireAt's next whole one or later.
  expect(sent.some((ms) => !Number.isInteger(ms))).toBe(true);
  expect(wave.writing()!.wokeAfterMs).toBeGreaterThanOrEqual(0);
});

test("a main thread busy at the instant does not hold the wave back", async () => {
  const fireAt = Date.now() + 300;
  const posts = [post("/book", "busy=0"), post("/book", "busy=1")];
  const wave = armWave(fireAt, posts, 64, logger);
  // Busy for a whole second past the instant: the posts must have left meanwhile.
  blockUntil(fireAt + 1_000);
  await Promise.all(posts.map((wire, i) => wave.via(i)(wire)));
  const arrivals = await arrivalsOf("busy=");
  expect(arrivals).toHaveLength(2);
  expect(arrivals.every((a) => a.atMs >= fireAt && a.atMs < fireAt + 500)).toBe(true);
});

test("a wave called off before its instant sends nothing, and its posts then go from this thread", async () => {
  const fireAt = Date.now() + 300;
  const posts = [post("/book", "off=0")];
  const wave = armWave(fireAt, posts, 64, logger);
  expect(wave.cancel()).toBe(true);
  await Bun.sleep(fireAt - Date.now() + 200);
  expect(await arrivalsOf("off=")).toHaveLength(0);
  const answer = await wave.via(0)(posts[0]);
  expect(answer.body).toBe("answered /book");
  expect(await arrivalsOf("off=")).toHaveLength(1);
  expect(wave.sentAt(0)).toBeNull();
});

test("a wave that has left cannot be called off", async () => {
  const fireAt = Date.now() + 200;
  const posts = [post("/book", "left=0")];
  const wave = armWave(fireAt, posts, 64, logger);
  await wave.via(0)(posts[0]);
  expect(wave.cancel()).toBe(false);
  expect(await arrivalsOf("left=")).toHaveLength(1);
});

test("at most maxInFlight posts are at the club at once; the rest follow as answers come back", async () => {
  const fireAt = Date.now() + 300;
  const posts = Array.from({ length: 5 }, (_, i) => post("/slow", `capped=${i}`));
  const wave = armWave(fireAt, posts, 2, logger);
  await Promise.all(posts.map((wire, i) => wave.via(i)(wire)));
  const { maxConcurrent } = await club.log();
  expect(maxConcurrent).toBeLessThanOrEqual(2);
  const arrivals = await arrivalsOf("capped=");
  expect(arrivals.map((a) => a.body)).toEqual(posts.map((p) => p.body!));
  // The two first left at the instant, the last one only after two rounds of answers.
  expect(arrivals[4].atMs - arrivals[0].atMs).toBeGreaterThanOrEqual(190);
});

test("a post the club never answers fails as a timeout, as fetch would", async () => {
  const fireAt = Date.now() + 200;
  const posts = [post("/hang", "hang=0", 300)];
  const wave = armWave(fireAt, posts, 64, logger);
  const failure = await wave
    .via(0)(posts[0])
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(DOMException);
  expect((failure as DOMException).name).toBe("TimeoutError");
});

test("a thread that cannot start costs no post: the main thread sends them", async () => {
  useEmbeddedWaveWorker("./no-such-worker.ts");
  try {
    const fireAt = Date.now() + 200;
    const posts = [post("/book", "nothread=0")];
    const wave = armWave(fireAt, posts, 64, logger);
    await Bun.sleep(fireAt - Date.now() + 50);
    const answer = await wave.via(0)(posts[0]);
    expect(answer.body).toBe("answered /book");
    expect(await arrivalsOf("nothread=")).toHaveLength(1);
  } finally {
    useEmbeddedWaveWorker(new URL("../../src/jobs/release/wave-worker.ts", import.meta.url).href);
  }
});
