/**
 * What every stage of the release engine shares: its narrow dependencies, its settings, the claim
 * board, and the bookkeeping that lets `stop` wait for work in flight and `idle` tell a test when
 * every task waits on the clock.
 */
import type { AppDatabase } from "../../db/client.ts";
import type { ClubClient } from "../../club/client.ts";
import type { ClockOffset } from "../../club/clock-offset.ts";
import type { MemberSessions } from "../../club/member-sessions.ts";
import type { ClubTeeSheet } from "../../club/records.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Notifier } from "../../realtime/notifier.ts";
import type { JobHandle, JobRegistry } from "../registry.ts";
import { ClaimBoard } from "./claims.ts";
import { NOT_YET_OPEN_SCHEDULE, type RetrySettings } from "../../attempt/policy.ts";
import { OpeningTurns } from "./opening-turns.ts";
import { readSettings } from "../../services/settings.service.ts";
import type { RequestPhase } from "../../db/schema.ts";
import { setPhase } from "../../lifecycle/request-lifecycle.ts";
import type { SlotIdTemplate } from "./slot-ids.ts";
import { createYieldingQueue } from "../../lib/yielding-queue.ts";

/** The few things the engine uses; `createContainer` builds them, a test may give its own. */
/**
 * How closely the club clock is measured: `coarse` to plan when to prepare (a few probes), `fine`
 * ahead of the instant itself (every post waits out the uncertainty, so it must be small).
 */
export type OffsetPrecision = "coarse" | "fine";

/** What bounds a measurement of the club's clock: the moment it must have ended by, and the engine's stop. */
export interface MeasureBounds {
  deadlineMs?: number;
  signal?: AbortSignal;
}

/** How the club clock's offset is measured (tests give a fixed one). */
export type MeasureOffset = (deps: ReleaseDeps, precision?: OffsetPrecision, bounds?: MeasureBounds) => Promise<ClockOffset>;

export interface ReleaseDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
  /**
   * The club itself (its clock), for the offset and for opening connections ahead of a release; its
   * politeness budget, whose waiting requests a stop refuses and `idle` counts as waiting on the clock.
   */
  club: Pick<ClubClient, "clubTime"> & Partial<Pick<ClubClient, "politeness">>;
  sessions: MemberSessions;
  notifier: Notifier;
}

export interface ReleaseSettings extends RetrySettings {
  /** How long before a release the engine signs members in and measures the club clock. */
  prepareLeadMs: number;
  /** A measured offset older than this is measured again before a release. */
  offsetMaxAgeMs: number;
  /**
   * Whether `unavailableWindowMs` comes from the app setting club_retry_minutes, read before each
   * release and on start (decision 115); false when the engine's options fix it (tests, benchmarks).
   */
  retryWindowFromSettings: boolean;
  /** How long one minute of club_retry_minutes lasts (tests scale a 40 s fault down to seconds). */
  retryMinuteMs: number;
}

export const DEFAULT_RELEASE_SETTINGS: ReleaseSettings = {
  prepareLeadMs: 90_000,
  offsetMaxAgeMs: 10 * 60_000,
  notYetOpenSchedule: NOT_YET_OPEN_SCHEDULE,
  // As long as club trouble: the app setting club_retry_minutes (decision 147).
  notYetOpenWindowMs: null,
  unavailableBackoffMs: [100, 250, 500, 1000, 2000],
  unavailableWindowMs: 10 * 60_000,
  retryWindowFromSettings: true,
  retryMinuteMs: 60_000,
};

/** How long the outcomes' writes may hold the thread before members' reads and the club's answers are let in. */
const OUTCOME_SLICE_MS = 4;
/** An outcome's write unanswered this long (a database across a network) no longer holds up the next. */
const OUTCOME_STALL_MS = 1_000;

export class ReleaseRuntime {
  job: JobHandle | null = null;
  isRunning = false;
  stopController = new AbortController();
  measured: (ClockOffset & { measuredAt: number; precision?: OffsetPrecision }) | null = null;
  measuring: Promise<void> | null = null;
  readonly board = new ClaimBoard();
  /** Release instants being prepared or waited for (a batch each). */
  readonly preparing = new Set<number>();
  /** Slot-id patterns per course, learned ahead of a release; null when the ids are opaque. */
  readonly templates = new Map<string, SlotIdTemplate | null>();
  /** Sheets read at a release, shared by the requests of that date and course. */
  readonly sheets = new Map<string, Promise<ClubTeeSheet>>();
  /** The times each running request has posted for: only those can hold a booking it does not know of. */
  readonly attempted = new Map<number, Set<string>>();
  /** Requests of a date the club has not opened yet take turns to ask again (decision 147). */
  readonly openings: OpeningTurns;
  /**
   * The requests' outcomes (booked, failed) written in turn, the thread let go between slices
   * (decision 207): the answers to a first wave end a thousand requests within a few milliseconds.
   * One at a time: on libSQL, confirmations (each a transaction) written side by side with the
   * failures left a write waiting on a lock for a second.
   */
  readonly outcomes = createYieldingQueue({ sliceMs: OUTCOME_SLICE_MS, stallMs: OUTCOME_STALL_MS });
  /** Asks the planner to look again (a request was held, so its release must be watched). */
  replan: () => void = () => undefined;
  private readonly tasks = new Set<Promise<void>>();
  private taskCount = 0;
  private parkedCount = 0;

  constructor(
    readonly deps: ReleaseDeps,
    public settings: ReleaseSettings,
    readonly measureOffset: MeasureOffset,
  ) {
    this.openings = new OpeningTurns(deps.clock);
    // Requests waiting for a claim wake on a stop as on any change of the board, and find the
    // engine stopped: one listener for the runtime, not one per wait (a thousand requests may wait
    // through a few hundred changes at one release).
    this.stopController.signal.addEventListener("abort", () => this.board.wakeAll(), { once: true });
  }

  now = (): number => this.deps.clock.now();
  /** Our best reading of the club's clock: ours plus the last measured offset. */
  clubNow = (): number => this.clubAt(this.deps.clock.now());
  /** A moment of our clock on the club's, by the measured offset. */
  clubAt = (localMs: number): number => localMs + (this.measured?.offsetMs ?? 0);
  /**
   * A moment of our precise clock on the club's, by the middle of the measured interval: a post the
   * wave timed by that interval's lower end never reads as early (decision 202).
   */
  clubAtPrecisely = (localMs: number): number => {
    const interval = this.measured?.interval;
    return interval ? localMs + (interval.lo + interval.hi) / 2 : this.clubAt(localMs);
  };

  /** Counts a piece of work for `idle` while it runs. */
  async track<T>(task: () => Promise<T>): Promise<T> {
    this.taskCount++;
    try {
      return await task();
    } finally {
      this.taskCount--;
    }
  }

  /** Runs a task the engine waits for on stop; resolves when it has ended (never rejects). */
  spawn(name: string, task: () => Promise<void>): Promise<void> {
    const running = this.track(task)
      .catch((error) => {
        this.deps.logger.error("release engine task failed", { task: name, error });
        this.job?.failed(error, this.now());
      })
      .finally(() => this.tasks.delete(running));
    this.tasks.add(running);
    return running;
  }

  /** Waiting on the clock or on other tasks (not on the club or the database). */
  async park<T>(promise: Promise<T>): Promise<T> {
    this.parkedCount++;
    try {
      return await promise;
    } finally {
      this.parkedCount--;
    }
  }

  /** Resolves when the engine is stopped: one promise for the runtime, not a listener on its signal per call. */
  private readonly stoppedOnce = new Promise<void>((resolve) => this.stopController.signal.addEventListener("abort", () => resolve(), { once: true }));

  stopped(): Promise<void> {
    return this.stoppedOnce;
  }

  sleepFor(ms: number): Promise<void> {
    return this.park(this.deps.clock.sleepUntil(this.now() + ms, this.stopController.signal));
  }

  /** The retry window from the app setting, unless the engine's options fixed it. */
  async loadRetryWindow(): Promise<void> {
    if (!this.settings.retryWindowFromSettings) return;
    try {
      const { club_retry_minutes } = await readSettings(this.deps.database.db);
      this.settings = { ...this.settings, unavailableWindowMs: club_retry_minutes * this.settings.retryMinuteMs };
    } catch (error) {
      this.deps.logger.warn("release: could not read the club retry setting", { error: describeError(error) });
    }
  }

  /** Stores a processing request's phase when it changes, and tells its member's pages. */
  async notePhase(request: { id: number; userId: number }, current: { phase?: RequestPhase | null }, phase: RequestPhase | null): Promise<void> {
    if ((current.phase ?? null) === phase) return;
    current.phase = phase;
    this.deps.notifier.publish(await setPhase(this.deps.database.db, request.id, phase));
  }

  noteAttempted(requestId: number, time: string): void {
    const times = this.attempted.get(requestId) ?? new Set<string>();
    times.add(time);
    this.attempted.set(requestId, times);
  }

  async drain(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /**
   * Stable over a few turns of the event loop, so a reply in flight is not mistaken for quiet. A
   * request waiting for a token of the club budget waits on the clock too.
   */
  async idle(): Promise<void> {
    let quietTurns = 0;
    while (quietTurns < 3) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const waitingForBudget = this.deps.club.politeness?.budget.waiting() ?? 0;
      quietTurns = this.taskCount - this.parkedCount <= waitingForBudget ? quietTurns + 1 : 0;
    }
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
