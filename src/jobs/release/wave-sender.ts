/**
 * Hands a first wave to a thread of its own (wave-worker.ts, decision 121), which sends every post
 * at the instant whatever the main thread is doing then. The main thread still makes each post
 * through the club adapter, with `via(index)` in place of fetch: the adapter reads the answer the
 * wave's thread got, as if it had sent the post itself.
 *
 * If the thread cannot start, or stops before the instant, the wave is called off there and the
 * main thread sends the posts itself. If it stops after the posts left, their outcome is unknown
 * and reported as such (ambiguous), so the engine reads the member's bookings before going on.
 */
import { fetchWire, type WireAnswer, type WireRequest, type WireSend } from "../../club/http.ts";
import type { Logger } from "../../lib/logger.ts";
import { WAVE_ARMED, WAVE_CANCELLED, type WaveCommand, type WaveReport, type WaveWriting } from "./wave-messages.ts";

let workerUrl = new URL("./wave-worker.ts", import.meta.url).href;

/** The binary's entry says where `bun build --compile` put the worker (scripts/build.ts). */
export function useEmbeddedWaveWorker(path: string): void {
  workerUrl = path;
}

/** An answer is given up on this long after its post's own timeout, should the thread go silent. */
const SILENCE_GRACE_MS = 5_000;

export interface ArmedWave {
  /** Sends post `index` of the wave: resolves with what the wave's thread got for it. */
  via(index: number): WireSend;
  /** When post `index` left, on our clock; null until the thread has said so (or if it was sent here). */
  sentAt(index: number): number | null;
  /** Calls the wave off if it has not left: true when nothing was sent. */
  cancel(): boolean;
  /** Resolves once the first posts have left (or the wave was called off, or its thread lost). */
  left: Promise<void>;
  /** How the first writes went, once the thread has said so. */
  writing(): WaveWriting | null;
}

/** What became of one post: answered, failed, or to be sent by the main thread (the wave was called off). */
type Outcome = { kind: "answer"; answer: WireAnswer } | { kind: "failed"; error: Error } | { kind: "send_here" };

export function armWave(fireAtMs: number, posts: WireRequest[], maxInFlight: number, logger: Logger): ArmedWave {
  const state = new SharedArrayBuffer(4);
  const flag = new Int32Array(state);
  const sentAt = new Map<number, number>();
  let writing: WaveWriting | null = null;
  const outcomes = new Map<number, Outcome>();
  const waiting = new Map<number, (outcome: Outcome) => void>();
  let worker: Worker | null = null;
  let isStopped = false;
  let markLeft = () => {};
  const left = new Promise<void>((resolve) => (markLeft = resolve));

  const settle = (index: number, outcome: Outcome) => {
    markLeft();
    outcomes.set(index, outcome);
    waiting.get(index)?.(outcome);
    waiting.delete(index);
    if (outcomes.size === posts.length) stop();
  };
  const stop = () => {
    markLeft();
    if (isStopped) return;
    isStopped = true;
    worker?.terminate();
  };
  /** Called off before it left (or could not start): true if the main thread now sends the posts. */
  const callOff = () => Atomics.compareExchange(flag, 0, WAVE_ARMED, WAVE_CANCELLED) === WAVE_ARMED;
  /** The thread went away: posts it sent have no answer to wait for. */
  const onLost = (why: string) => {
    if (isStopped) return;
    const wasCalledOff = callOff();
    if (!wasCalledOff) logger.warn("release: the first wave's thread stopped after the posts left", { why });
    else logger.warn("release: the first wave's thread could not run; the posts leave from the main thread", { why });
    stop();
    for (let index = 0; index < posts.length; index++) {
      if (outcomes.has(index)) continue;
      settle(index, wasCalledOff ? { kind: "send_here" } : { kind: "failed", error: new Error(`the release wave's thread stopped before the club answered (${why})`) });
    }
  };

  try {
    worker = new Worker(workerUrl);
    worker.onmessage = (event: MessageEvent<WaveReport>) => {
      const report = event.data;
      if (report.type === "sent") {
        for (const [index, ms] of report.sent) sentAt.set(index, ms);
        writing ??= report.writing ?? null;
        markLeft();
      } else if (report.type === "answer") settle(report.index, { kind: "answer", answer: report.answer });
      else if (report.type === "failed") settle(report.index, { kind: "failed", error: asFetchError(report.name, report.message) });
      else stop();
    };
    worker.onerror = (event) => onLost(event.message);
    worker.addEventListener("close", () => onLost("closed"));
    const command: WaveCommand = { fireAtMs, posts, maxInFlight, state };
    worker.postMessage(command);
  } catch (error) {
    onLost(error instanceof Error ? error.message : String(error));
  }

  const waitFor = (index: number, wire: WireRequest) =>
    new Promise<Outcome>((resolve) => {
      const known = outcomes.get(index);
      if (known) return resolve(known);
      const timer = setTimeout(
        () => settle(index, { kind: "failed", error: new Error("the release wave's thread gave no answer in time") }),
        Math.max(0, fireAtMs - Date.now()) + wire.timeoutMs + SILENCE_GRACE_MS,
      );
      waiting.set(index, (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });

  return {
    via: (index) => async (wire) => {
      // Called off before it left: the main thread sends this post itself, now.
      const outcome = Atomics.load(flag, 0) === WAVE_CANCELLED ? (outcomes.get(index) ?? { kind: "send_here" }) : await waitFor(index, wire);
      if (outcome.kind === "send_here") return fetchWire(wire, Date.now);
      if (outcome.kind === "failed") throw outcome.error;
      return outcome.answer;
    },
    sentAt: (index) => sentAt.get(index) ?? null,
    writing: () => writing,
    left,
    cancel() {
      const wasCalledOff = callOff();
      if (wasCalledOff) {
        stop();
        for (const resolve of waiting.values()) resolve({ kind: "send_here" });
        waiting.clear();
      }
      return wasCalledOff;
    },
  };
}

/** A fetch failure as the adapter reads it: a timeout stays a timeout. */
function asFetchError(name: string, message: string): Error {
  if (name === "TimeoutError" || name === "AbortError") return new DOMException(message, name);
  const error = new Error(message);
  error.name = name;
  return error;
}
