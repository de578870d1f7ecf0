/** The queue that writes a release's outcomes and stores notifications without holding the server's thread (decisions 206, 207). */
import { expect, test } from "bun:test";
import { createYieldingQueue } from "../../src/lib/yielding-queue.ts";

/** Holds the thread as a local database's write does, for `ms`. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

test("tasks run one after another in the order given, each caller settled by its own task", async () => {
  const queue = createYieldingQueue({ sliceMs: 4, stallMs: 1_000 });
  let running = 0;
  let mostAtOnce = 0;
  const started: number[] = [];
  const answers = Array.from({ length: 10 }, (_, i) =>
    queue.run(async () => {
      started.push(i);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await Bun.sleep(5);
      running--;
      if (i === 4) throw new Error("task 4 failed");
      return i * 10;
    }),
  );
  const settled = await Promise.allSettled(answers);
  expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(mostAtOnce).toBe(1);
  expect(settled.map((s) => (s.status === "fulfilled" ? s.value : "failed"))).toEqual([0, 10, 20, 30, "failed", 50, 60, 70, 80, 90]);
});

test("a server's read arriving while a thousand writes wait is answered between two slices, long before the last", async () => {
  let done = 0;
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(String(done)) });
  try {
    const queue = createYieldingQueue({ sliceMs: 4, stallMs: 1_000 });
    // A thousand writes of 0.3 ms each: 300 ms back to back.
    const writes = Array.from({ length: 1000 }, () =>
      queue.run(async () => {
        busyFor(0.3);
        done++;
      }),
    );
    const read = fetch(`http://127.0.0.1:${server.port}/`).then((res) => res.text());
    const answeredAfter = Number(await read);
    await Promise.all(writes);
    expect(done).toBe(1000);
    expect(answeredAfter).toBeLessThan(200);
  } finally {
    await server.stop(true);
  }
});

test("a task that stalls holds up the next ones for `stallMs` at most, and still settles its caller", async () => {
  const queue = createYieldingQueue({ sliceMs: 4, stallMs: 200 });
  const order: string[] = [];
  let releaseStalled!: () => void;
  const stalled = queue.run(async () => {
    await new Promise<void>((resolve) => (releaseStalled = resolve));
    order.push("stalled");
  });
  const next = queue.run(async () => {
    order.push("next");
  });
  await Bun.sleep(100);
  expect(order).toEqual([]);
  await next;
  expect(order).toEqual(["next"]);
  releaseStalled();
  await stalled;
  expect(order).toEqual(["next", "stalled"]);
});
