/**
 * Waiting for the release instant: a coarse timer, then a fine wait for the last milliseconds.
 * Timers can fire a few milliseconds late under load, so the coarse timer aims a little early and
 * the rest is spent yielding to the event loop (other work still runs) until the moment arrives.
 * A test clock only moves when the test moves it, so it is simply slept on.
 */
import { systemClock, type Clock } from "../../lib/clock.ts";

/** How early the coarse timer aims before the target. */
export const COARSE_MARGIN_MS = 25;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves at `targetMs` on `clock` (never before it), or at once when aborted. */
export async function waitPrecisely(clock: Clock, targetMs: number, signal?: AbortSignal): Promise<void> {
  if (clock !== systemClock) return clock.sleepUntil(targetMs, signal);
  await clock.sleepUntil(targetMs - COARSE_MARGIN_MS, signal);
  while (!signal?.aborted && clock.now() < targetMs) await yieldToEventLoop();
}
