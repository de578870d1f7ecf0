/**
 * The release engine: a member's queued request reaches the club at the release instant on the
 * club's own clock, never early, never twice, never lost, and never in a race with another
 * Teebox member for one slot (docs/release-engine.md).
 *
 * This file only orchestrates the stages under ./release/:
 *   planner      which release instants are due to be prepared
 *   prepare      sign-ins, the club clock's offset, how the club names slots
 *   first-wave   pending → processing, first claims and attempts written, every first post at once
 *   wave-sender  the first wave's own thread (wave-worker), which sends it at the instant
 *   runner       each request's times through the claim board; `decide` says what follows each answer
 *   reconcile    an unanswered post is settled by reading the member's club bookings
 *   recovery     on start, what a stop or crash left processing
 *   outcomes     booked or failed, written once and told once
 */
import { fireAtOf, preciseFireAtOf, type ClockOffset } from "../club/clock-offset.ts";
import { armRequests, armWaveThread, launchFirstWave, planFirstWave, sendsOnMainThread, type PreparedAttempt, type RunContext } from "./release/first-wave.ts";
import type { ArmedWave } from "./release/wave-sender.ts";
import { Planner } from "./release/planner.ts";
import { waitPrecisely } from "./release/precise-wait.ts";
import { systemClock } from "../lib/clock.ts";
import { bytesToMb, fullCollection, returnUnusedMemory } from "../lib/memory.ts";
import { defaultMeasureOffset, openReleaseAllowance, prepareRelease, warmConnections } from "./release/prepare.ts";
import { recoverProcessing } from "./release/recovery.ts";
import { loadPendingAt, type RequestRow } from "../lifecycle/request-lifecycle.ts";
import { forgetSheetsOf, runRequest } from "./release/runner.ts";
import { DEFAULT_RELEASE_SETTINGS, ReleaseRuntime, type MeasureOffset, type ReleaseDeps, type ReleaseSettings } from "./release/runtime.ts";
import { DEFAULT_UI_TEXT } from "../domain/ui-text/index.ts";

export type { ReleaseDeps } from "./release/runtime.ts";

export interface ReleaseEngineOptions extends Partial<ReleaseSettings> {
  /** How the club clock's offset is measured (tests give a fixed one). */
  measureOffset?: MeasureOffset;
  /**
   * The full collection after a preparation (decision 214). By default a real one on the system
   * clock; on a test clock none, unless a test gives its own.
   */
  collectGarbage?: () => void;
}

export interface ReleaseEngine {
  /** Loads the requests, reconciles and arms timers. Before it, `wake` does nothing. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A request was stored, edited or cancelled: plan again. */
  wake(): void;
  /** Our best reading of the club's clock (ours plus the last measured offset); only once started. */
  clubNow(): number;
  /** The last measured offset of the club clock, if any. */
  offset(): (ClockOffset & { measuredAt: number }) | null;
  /** Whether the release at this instant (club clock) is planned or being prepared (for /readyz). */
  isArmedFor(releaseAt: number): boolean;
  /** Resolves once every task waits on the clock or on another task (tests step a fake clock). */
  idle(): Promise<void>;
  /**
   * While a first wave with posts the main thread sends is about to leave (its posts built, the
   * instant less than WAVE_HOLD_MS away): a promise that resolves once it has left. Reads wait on
   * it, so answering them cannot hold up the posts at the instant; otherwise null.
   */
  waveAboutToLeave(): Promise<void> | null;
}

/** How long before a first wave's instant reads are held back until it has left. */
export const WAVE_HOLD_MS = 150;

export const NO_TIME_AVAILABLE = DEFAULT_UI_TEXT["bookings.reason.no_time_available"];

/** Requests are made ready (processing, sessions at hand) this long before the instant. */
const ARM_AHEAD_MS = 500;
/**
 * Beyond this many requests, each adds this much to the lead: making a thousand ready took 453 ms
 * of the half second (0.45 ms each) and the wave left 195 ms late; three times that pace covers a
 * busy machine (decision 196).
 */
const ARM_AHEAD_COVERS = 100;
const ARM_MS_PER_REQUEST = 1.5;

/** How long before the instant `count` requests are made ready. */
export function armAheadMs(count: number): number {
  return ARM_AHEAD_MS + ARM_MS_PER_REQUEST * Math.max(0, count - ARM_AHEAD_COVERS);
}

/** The preparation ends this long before the wave is armed: the slot ids are learned, the last probe answered. */
const PREPARE_MARGIN_MS = 250;

/**
 * The preparation's garbage is collected only when at least this long is left before the wave is
 * armed: a full collection holds the thread some milliseconds (17 ms after a thousand members'
 * sign-ins), which must end long before the instant.
 */
const COLLECT_BEFORE_ARMING_LEAST_MS = 5_000;

/** The earliest a first post may leave by the offset measured so far: a finer measurement moves it no earlier. */
function earliestFireAt(measured: ClockOffset | null, releaseAt: number): number {
  const offset = measured ?? { offsetMs: 0, uncertaintyMs: 0 };
  return fireAtOf(offset, releaseAt) - 2 * offset.uncertaintyMs;
}

export function createReleaseEngine(deps: ReleaseDeps, options: ReleaseEngineOptions = {}): ReleaseEngine {
  const { measureOffset = defaultMeasureOffset, collectGarbage = deps.clock === systemClock ? fullCollection : null, ...overrides } = options;
  const settings: ReleaseSettings = { ...DEFAULT_RELEASE_SETTINGS, retryWindowFromSettings: overrides.unavailableWindowMs === undefined, ...overrides };
  let rt: ReleaseRuntime | null = null;
  let planner: Planner | null = null;
  /** The offset survives a restart of the engine (it is the club's, not the run's). */
  let lastMeasured: ReleaseRuntime["measured"] = null;
  /** First waves armed and not yet left: when each leaves, and how to tell those waiting. */
  const armedWaves = new Set<{ fireAt: number; left: Promise<void> }>();

  /** One release instant within the allowance it opens at the club for the requests due (decision 196). */
  async function runBatch(rt: ReleaseRuntime, releaseAt: number): Promise<void> {
    const due = await loadPendingAt(rt.deps.database.db, releaseAt);
    const closeAllowance = openReleaseAllowance(rt, due, releaseAt);
    try {
      await runDueBatch(rt, releaseAt, due);
    } finally {
      closeAllowance();
    }
  }

  /** Prepare, wait for the club's clock, fire the first wave, run each request. */
  async function runDueBatch(rt: ReleaseRuntime, releaseAt: number, due: RequestRow[]): Promise<void> {
    const { db } = rt.deps.database;
    let contexts: RunContext[] = [];
    let wave = new Map<number, PreparedAttempt>();
    let fireAt = rt.now();
    let waveFireAt = fireAt;
    const isAhead = releaseAt > rt.clubNow();
    let timing = { armMs: 0, planMs: 0 };
    try {
      if (isAhead) {
        // However little time is left (a start just before the instant), the preparation ends in
        // time to arm the wave, by the earliest instant the offset measured so far allows (decision 210).
        const readyBy = earliestFireAt(rt.measured, releaseAt) - armAheadMs(due.length) - PREPARE_MARGIN_MS;
        rt.deps.logger.info("release: preparing", { releaseAt, requests: due.length, readyInMs: readyBy - rt.now() });
        await prepareRelease(rt, due, readyBy);
        if (!rt.isRunning) return;
        fireAt = fireAtOf(rt.measured ?? { offsetMs: 0, uncertaintyMs: 0 }, releaseAt);
        waveFireAt = rt.measured ? preciseFireAtOf(rt.measured, releaseAt) : fireAt;
        collectPreparationGarbage(rt, fireAt - armAheadMs(due.length));
        await rt.park(rt.deps.clock.sleepUntil(fireAt - armAheadMs(due.length), rt.stopController.signal));
        if (!rt.isRunning) return;
      } else {
        rt.deps.logger.info("release: its instant has passed, posting at once", { releaseAt, requests: due.length, lateMs: rt.clubNow() - releaseAt });
      }
      // Read again just before the instant: requests added meanwhile join, cancelled ones are
      // gone. From here on they are processing (a cancel is refused), their first claims are
      // taken and their first attempts written as sent, so nothing is left to do at the instant
      // but post.
      await rt.loadRetryWindow();
      const armStarted = rt.now();
      contexts = await armRequests(rt, await loadPendingAt(db, releaseAt));
      const planStarted = rt.now();
      wave = await planFirstWave(rt, contexts, fireAt);
      timing = { armMs: planStarted - armStarted, planMs: rt.now() - planStarted };
    } finally {
      rt.preparing.delete(releaseAt);
    }
    let markLeft = () => {};
    const armed = { fireAt, left: new Promise<void>((resolve) => (markLeft = resolve)) };
    // On the system clock the wave leaves from a thread of its own; a test clock moves only by hand.
    const thread = rt.deps.clock === systemClock ? armWaveThread(rt, wave, waveFireAt) : null;
    // Reads are held only for posts this thread sends: answering one cannot delay the wave's own thread (decision 207).
    if (sendsOnMainThread(wave)) armedWaves.add(armed);
    if (isAhead) noteArmed(rt, { requests: contexts.length, posts: wave.size, ...timing }, fireAt);
    // The wave's thread opens its own connections; these are for the posts that follow it.
    await warmConnections(rt, contexts.length);
    try {
      // The wave's thread times the instant itself: a plain timer is enough here, and waiting
      // precisely would only take a core from it at the moment it sends.
      await rt.park(thread ? rt.deps.clock.sleepUntil(fireAt, rt.stopController.signal) : waitPrecisely(rt.deps.clock, fireAt, rt.stopController.signal));
      // Stopped before the instant: the wave is called off. If it left already, the requests stay
      // processing and the next start reconciles them, as after a crash at the instant.
      if (!rt.isRunning) {
        thread?.cancel();
        return;
      }
      launchFirstWave(rt, wave, thread);
      // Reads held for the wave wait until its posts are out, not only until this thread woke.
      if (thread) {
        await thread.left;
        noteWritten(rt, thread);
      }
    } finally {
      armedWaves.delete(armed);
      markLeft();
    }
    await rt.park(Promise.all(contexts.map((ctx) => rt.track(() => runRequest(rt, ctx, wave.get(ctx.request.id))))));
    forgetSheetsOf(
      rt,
      contexts.map((c) => c.request),
    );
  }

  /**
   * The sign-ins' pages, the clock's probes and the sheets read ahead leave garbage that would stay
   * through the instant, where the answers and the members' reads add theirs to it: collected now,
   * while there is time, the instant's peak starts from the memory the release holds (decision 214).
   */
  function collectPreparationGarbage(rt: ReleaseRuntime, armAt: number): void {
    if (!collectGarbage || armAt - rt.now() < COLLECT_BEFORE_ARMING_LEAST_MS) return;
    const returned = returnUnusedMemory(collectGarbage);
    rt.deps.logger.info("release: the preparation's garbage collected", {
      rssBeforeMb: bytesToMb(returned.rssBeforeBytes),
      rssAfterMb: bytesToMb(returned.rssAfterBytes),
      ms: Math.round(returned.ms),
    });
  }

  /** How long before the instant the wave was ready: too little means arming must start earlier. */
  function noteArmed(rt: ReleaseRuntime, counts: { requests: number; posts: number; armMs: number; planMs: number }, fireAt: number): void {
    const details = { ...counts, readyMsBefore: fireAt - rt.now() };
    const { readyMsBefore } = details;
    if (readyMsBefore < ARM_AHEAD_MS / 5) rt.deps.logger.warn("release: the first wave was armed late", details);
    else rt.deps.logger.info("release: first wave armed", details);
  }

  /**
   * How the wave's thread wrote the first posts: what a first post's lateness is made of, beside
   * the clock's uncertainty the fire time adds (decision 192).
   */
  function noteWritten(rt: ReleaseRuntime, thread: ArmedWave): void {
    const writing = thread.writing();
    if (!writing) return;
    const round = (ms: number) => Math.round(ms * 100) / 100;
    rt.deps.logger.info("release: first wave written", { posts: writing.posts, wokeAfterMs: round(writing.wokeAfterMs), writesMs: round(writing.writesMs) });
  }

  const started = () => {
    if (!rt) throw new Error("the release engine has not been started");
    return rt;
  };

  return {
    waveAboutToLeave() {
      if (armedWaves.size === 0) return null;
      const now = deps.clock.now();
      const soon = [...armedWaves].filter((wave) => wave.fireAt - now <= WAVE_HOLD_MS && now - wave.fireAt < WAVE_HOLD_MS);
      if (soon.length === 0) return null;
      // A safety net in real time: a read is never held longer than this, whatever became of the wave.
      const cap = new Promise<void>((resolve) => setTimeout(resolve, WAVE_HOLD_MS * 2));
      return Promise.race([Promise.all(soon.map((wave) => wave.left)).then(() => undefined), cap]);
    },
    async start() {
      if (rt?.isRunning) return;
      const runtime = new ReleaseRuntime(deps, settings, measureOffset);
      runtime.measured = lastMeasured;
      runtime.isRunning = true;
      rt = runtime;
      planner = new Planner(runtime, (releaseAt) => runBatch(runtime, releaseAt));
      const plan = planner;
      runtime.replan = () => plan.wake();
      runtime.spawn("recover", () => recoverProcessing(runtime));
      runtime.spawn("plan", () => plan.loop());
    },
    async stop() {
      if (!rt?.isRunning) return;
      rt.isRunning = false;
      rt.stopController.abort();
      // Nothing of this engine may wait on for a turn or a token of the club budget now.
      rt.openings.clear();
      rt.deps.club.politeness?.budget.cancelWaiting();
      await planner?.stop();
      await rt.drain();
      lastMeasured = rt.measured;
    },
    wake() {
      if (rt?.isRunning) planner?.wake();
    },
    clubNow: () => started().clubNow(),
    offset: () => rt?.measured ?? null,
    isArmedFor: (releaseAt) => planner?.isArmedFor(releaseAt) ?? false,
    idle: () => rt?.idle() ?? Promise.resolve(),
  };
}
