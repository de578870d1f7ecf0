/** What the main thread and the first wave's own thread (wave-worker.ts) say to each other. */
import type { WireAnswer, WireRequest } from "../../club/http.ts";

/** The wave's state, shared by both threads: it leaves or is called off, never both. */
export const WAVE_ARMED = 0;
export const WAVE_FIRED = 1;
export const WAVE_CANCELLED = 2;

/** Main thread → wave thread, once, ahead of the instant. */
export interface WaveCommand {
  /** The instant on our clock (epoch ms, fractional: the wave waits on a precise clock): no post leaves before it. */
  fireAtMs: number;
  /** Earliest-submitted first. */
  posts: WireRequest[];
  maxInFlight: number;
  /** One Int32 holding WAVE_ARMED, WAVE_FIRED or WAVE_CANCELLED. */
  state: SharedArrayBuffer;
}

/**
 * How the wave's first writes went: how long after the instant its thread woke (our clock, to a
 * fraction of a millisecond), and how long the writes then took, one after another.
 */
export interface WaveWriting {
  posts: number;
  wokeAfterMs: number;
  writesMs: number;
}

/**
 * Wave thread → main thread. For each post, "sent" always comes before its answer or failure; when
 * it left is on the wave thread's precise clock, to a fraction of a millisecond.
 */
export type WaveReport =
  | { type: "sent"; sent: [index: number, sentMs: number][]; writing?: WaveWriting }
  | { type: "answer"; index: number; answer: WireAnswer }
  | { type: "failed"; index: number; name: string; message: string }
  | { type: "cancelled" };
