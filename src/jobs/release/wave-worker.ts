/**
 * The first wave's own thread (decision 121). Handed the wave's posts ahead of the instant, it waits
 * for the instant on its own and sends them, earliest-submitted first and at most `maxInFlight` at
 * once; nothing the main thread is busy with at that moment (a page being served, a garbage
 * collection) can hold them back. It reports when each post left and what came back, as plain data.
 */
import { readWireAnswer, type WireRequest } from "../../club/http.ts";
import { WAVE_ARMED, WAVE_FIRED, type WaveCommand, type WaveReport } from "./wave-messages.ts";

declare const self: Worker;

/** The last stretch before the instant is waited out in short blocking sleeps, not on a timer. */
const FINE_WAIT_MS = 20;
/** How long one of those sleeps lasts at most. */
const FINE_STEP_MS = 0.2;

const report = (message: WaveReport) => self.postMessage(message);

self.onmessage = (event: MessageEvent<WaveCommand>) => {
  void runWave(event.data);
};

async function runWave({ fireAtMs, posts, maxInFlight, state }: WaveCommand): Promise<void> {
  const flag = new Int32Array(state);
  // Everything but the send itself is done ahead: each post a ready Request with its own abort switch.
  const prepared = posts.map(toPrepared);
  const ahead = fireAtMs - Date.now() - FINE_WAIT_MS;
  if (ahead > 0) await Bun.sleep(ahead);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  while (Date.now() < fireAtMs && Atomics.load(flag, 0) === WAVE_ARMED) Atomics.wait(sleeper, 0, 0, FINE_STEP_MS);
  // Exactly one side wins: the wave leaves here, or the main thread called it off first.
  if (Atomics.compareExchange(flag, 0, WAVE_ARMED, WAVE_FIRED) !== WAVE_ARMED) return report({ type: "cancelled" });
  sendAll(prepared, Math.max(1, maxInFlight));
}

interface PreparedPost {
  request: Request;
  abort: AbortController;
  timeoutMs: number;
}

function toPrepared(wire: WireRequest): PreparedPost {
  const abort = new AbortController();
  const request = new Request(wire.url, { method: wire.method, headers: wire.headers, body: wire.body, redirect: "manual", signal: abort.signal });
  return { request, abort, timeoutMs: wire.timeoutMs };
}

function sendAll(posts: PreparedPost[], maxInFlight: number): void {
  let next = 0;
  let inFlight = 0;
  const launch = () => {
    const sent: [number, number][] = [];
    const batch: PreparedPost[] = [];
    while (inFlight < maxInFlight && next < posts.length) {
      const index = next++;
      const post = posts[index];
      inFlight++;
      const sentMs = Date.now();
      sent.push([index, sentMs]);
      batch.push(post);
      fetch(post.request)
        .then((response) => readWireAnswer(response, sentMs, Date.now()))
        .then(
          (answer) => report({ type: "answer", index, answer }),
          (error: unknown) => report({ type: "failed", index, name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => {
          inFlight--;
          launch();
        });
    }
    if (batch.length === 0) return;
    // Posted before any answer can be: the main thread knows when a post left before what came back.
    report({ type: "sent", sent });
    // One timer for the batch rather than one per post: the sends above stay as short as they can be.
    setTimeout(() => {
      for (const post of batch) post.abort.abort(new DOMException(`The club did not answer within ${post.timeoutMs} ms.`, "TimeoutError"));
    }, Math.max(...batch.map((post) => post.timeoutMs)));
  };
  launch();
}
