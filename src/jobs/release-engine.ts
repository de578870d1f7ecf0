/**
 * The release engine: a member's queued request reaches the club at the release instant on the
 * club's own clock, never early, never twice, never lost, and never in a race with another
 * Teebox member for one slot (README, "The release engine").
 *
 * - Requests live in the database; an attempt is written as 'sent' before its booking post
 *   leaves. On start it arms what is pending, reconciles what was left processing (reading the
 *   member's bookings at the club) and processes at once what became due while it was down.
 * - Ahead of a release it signs in every member with a request due (a fresh session), measures
 *   the club clock's offset and learns how the club names slots; then it waits (a coarse timer,
 *   then a fine wait) for the instant on the club's clock and fires every request at once.
 * - Each request tries its times in priority order through the claim board (src/jobs/release/claims.ts).
 */
import type { AppDeps } from "../deps.ts";
import type { MemberClubSession } from "../club/client.ts";
import { measureClockOffset, type ClockOffset } from "../club/clock-offset.ts";
import { ClubError } from "../club/errors.ts";
import type { ClubTeeSheet } from "../club/records.ts";
import { addDays, manilaDate } from "../domain/manila-time.ts";
import { memberClub } from "../features/club/club.service.ts";
import { toClubPlayers } from "../features/bookings/club-players.ts";
import type { JobHandle } from "./registry.ts";
import { ClaimBoard } from "./release/claims.ts";
import { waitPrecisely } from "./release/precise-wait.ts";
import {
  confirmRequest,
  courseNameOf,
  failRequest,
  knownBookingRefs,
  loadAttempts,
  loadPendingAt,
  loadRequestsByStatus,
  markProcessing,
  recordAttemptAnswer,
  recordAttemptSent,
  recordAttemptTimes,
  recordLateness,
  settleUnansweredAttempts,
  type RequestRow,
} from "./release/request-store.ts";
import { applySlotIdTemplate, learnSlotIdTemplate, type SlotIdTemplate } from "./release/slot-ids.ts";

export interface ReleaseEngineOptions {
  /** How long before a release the engine signs members in and measures the club clock. */
  prepareLeadMs?: number;
  /** How the club clock's offset is measured (tests give a fixed one). */
  measureOffset?: (deps: AppDeps) => Promise<ClockOffset>;
  /** A measured offset older than this is measured again before a release. */
  offsetMaxAgeMs?: number;
  /** 'Not yet open': the same time again after this long, for at most `notYetOpenWindowMs`. */
  notYetOpenRetryMs?: number;
  notYetOpenWindowMs?: number;
  /** Club unavailable: retries after these pauses (the last repeats), for at most `unavailableWindowMs`. */
  unavailableBackoffMs?: readonly number[];
  unavailableWindowMs?: number;
}

export interface ReleaseEngine {
  /** Loads the requests, reconciles and arms timers. Before it, `wake` does nothing. */
  start(deps: AppDeps): Promise<void>;
  stop(): Promise<void>;
  /** A request was stored, edited or cancelled: plan again. */
  wake(): void;
  /** Our best reading of the club's clock (ours plus the last measured offset); only once started. */
  clubNow(): number;
  /** The last measured offset of the club clock, if any. */
  offset(): (ClockOffset & { measuredAt: number }) | null;
  /** Resolves once every task waits on the clock or on another task (tests step a fake clock). */
  idle(): Promise<void>;
}

export const NO_TIME_AVAILABLE = "No selected time was available.";

const DEFAULTS = {
  prepareLeadMs: 90_000,
  offsetMaxAgeMs: 10 * 60_000,
  notYetOpenRetryMs: 40,
  notYetOpenWindowMs: 20_000,
  unavailableBackoffMs: [100, 250, 500, 1000, 2000] as readonly number[],
  unavailableWindowMs: 30_000,
};

/** Requests are made ready (processing, sessions at hand) this long before the instant. */
const ARM_AHEAD_MS = 500;
/** At most this many connections are opened ahead of a release. */
const WARM_CONNECTIONS = 32;

/** The longest the planner sleeps before looking again, whatever is queued. */
const MAX_PLAN_SLEEP_MS = 60 * 60_000;

function defaultMeasureOffset(deps: AppDeps): Promise<ClockOffset> {
  // Loopback and nearby servers answer in a few ms, so the offset can be pinned to a few ms.
  return measureClockOffset(deps.club, { clock: deps.clock, targetUncertaintyMs: 2, maxProbes: 41, probesPerRound: 4 });
}

type SlotResult =
  | { kind: "booked" }
  /** Taken by someone else: nobody tries it again. */
  | { kind: "gone" }
  /** Not for this request (not on the club's sheet): the others may still try it. */
  | { kind: "skip" }
  | { kind: "failed"; reason: string }
  | { kind: "stopped" };

/** A first attempt written as sent at the release instant, posted by the request's runner. */
interface PreparedAttempt {
  time: string;
  slotId: string;
  isPredicted: boolean;
  attemptId: number;
  /** The booking post, built before the instant (form, cookies, CSRF token). */
  post: () => Promise<{ ref: string }>;
  /** Set when the post leaves at the instant; the request's run awaits its answer. */
  launched: { answer: Promise<{ ref: string }>; firedAtLocal: number; firedAtClub: number } | null;
}

interface RunContext {
  request: RequestRow;
  session: MemberClubSession;
  excluded: Set<string>;
  /** A booking post went unanswered: the club must be read before anything else is posted. */
  hasUnsettledPost: boolean;
  /** Since when the club's bookings page could not be read to settle such a post. */
  unreadableSince?: number | null;
}

export function createReleaseEngine(options: ReleaseEngineOptions = {}): ReleaseEngine {
  const settings = { ...DEFAULTS, ...options };
  const measureOffset = options.measureOffset ?? defaultMeasureOffset;
  let deps: AppDeps | null = null;
  let job: JobHandle | null = null;
  let isRunning = false;
  let stopController = new AbortController();
  let planWake: AbortController | null = null;
  let isWakePending = false;
  let measured: (ClockOffset & { measuredAt: number }) | null = null;
  let measuring: Promise<void> | null = null;
  const board = new ClaimBoard();
  /** Release instants being prepared or waited for (a batch each). */
  const preparing = new Set<number>();
  /** Slot-id patterns per course, learned ahead of a release; null when the ids are opaque. */
  const templates = new Map<string, SlotIdTemplate | null>();
  /** Sheets read at a release, shared by the requests of that date and course. */
  const sheets = new Map<string, Promise<ClubTeeSheet>>();
  const tasks = new Set<Promise<void>>();
  let taskCount = 0;
  let parkedCount = 0;

  const need = () => {
    if (!deps) throw new Error("the release engine has not been started");
    return deps;
  };
  const now = () => need().clock.now();
  const clubNow = () => need().clock.now() + (measured?.offsetMs ?? 0);

  /** Counts a piece of work for `idle` while it runs. */
  async function track<T>(task: () => Promise<T>): Promise<T> {
    taskCount++;
    try {
      return await task();
    } finally {
      taskCount--;
    }
  }

  /** Runs a task the engine waits for on stop. */
  function spawn(name: string, task: () => Promise<void>): void {
    const running = track(task)
      .catch((error) => {
        deps?.logger.error("release engine task failed", { task: name, error });
        job?.failed(error, deps?.clock.now() ?? Date.now());
      })
      .finally(() => tasks.delete(running));
    tasks.add(running);
  }

  /** Waiting on the clock or on other tasks (not on the club or the database). */
  async function park<T>(promise: Promise<T>): Promise<T> {
    parkedCount++;
    try {
      return await promise;
    } finally {
      parkedCount--;
    }
  }

  const sleepFor = (ms: number) => park(need().clock.sleepUntil(now() + ms, stopController.signal));

  // ── planning ──────────────────────────────────────────────────────────

  async function planLoop(): Promise<void> {
    while (isRunning) {
      const nextAt = await launchDueBatches();
      if (!isRunning) return;
      if (isWakePending) {
        isWakePending = false;
        continue;
      }
      planWake = new AbortController();
      const until = Math.min(nextAt ?? Number.POSITIVE_INFINITY, now() + MAX_PLAN_SLEEP_MS);
      await park(need().clock.sleepUntil(until, AbortSignal.any([planWake.signal, stopController.signal])));
      isWakePending = false;
    }
  }

  /** Starts a batch for every release instant whose preparation is due; returns when to look next. */
  async function launchDueBatches(): Promise<number | null> {
    const { database } = need();
    const pending = await loadRequestsByStatus(database.db, "pending");
    board.forgetBefore(manilaDate(clubNow()));
    let nextAt: number | null = null;
    const offsetMs = measured?.offsetMs ?? 0;
    for (const releaseAt of new Set(pending.map((r) => r.releaseAt))) {
      if (preparing.has(releaseAt)) continue;
      const prepareAt = releaseAt - offsetMs - settings.prepareLeadMs;
      if (prepareAt <= now()) {
        preparing.add(releaseAt);
        spawn(`release ${releaseAt}`, () => runBatch(releaseAt));
      } else {
        nextAt = nextAt === null ? prepareAt : Math.min(nextAt, prepareAt);
      }
    }
    job?.ran(now());
    return nextAt;
  }

  async function runBatch(releaseAt: number): Promise<void> {
    const { database } = need();
    let contexts: RunContext[] = [];
    let wave = new Map<number, PreparedAttempt>();
    let fireAt = now();
    try {
      const isDue = releaseAt <= clubNow();
      if (!isDue) {
        await prepare(await loadPendingAt(database.db, releaseAt));
        const offset = measured ?? { offsetMs: 0, uncertaintyMs: 0 };
        // The club's clock reads releaseAt at our releaseAt − offset; the uncertainty is added so
        // that no attempt can arrive early, whatever the true offset within the measured bounds.
        fireAt = Math.ceil(releaseAt - offset.offsetMs + offset.uncertaintyMs);
        await park(need().clock.sleepUntil(fireAt - ARM_AHEAD_MS, stopController.signal));
        if (!isRunning) return;
      }
      // Read again just before the instant: requests added meanwhile join, cancelled ones are
      // gone. From here on they are processing (a cancel is refused), their first claims are
      // taken and their first attempts written as sent, so nothing is left to do at the instant
      // but post.
      contexts = await armRequests(await loadPendingAt(database.db, releaseAt));
      wave = await planFirstWave(contexts, fireAt);
      await warmConnections(contexts.length);
    } finally {
      preparing.delete(releaseAt);
    }
    await park(waitPrecisely(need().clock, fireAt, stopController.signal));
    if (!isRunning) return;
    launchFirstWave(wave);
    await park(Promise.all(contexts.map((ctx) => track(() => runRequest(ctx, wave.get(ctx.request.id))))));
    forgetSheetsOf(contexts.map((c) => c.request));
  }

  /** pending → processing, each with its member's club session; earliest-submitted first. */
  async function armRequests(rows: RequestRow[]): Promise<RunContext[]> {
    const d = need();
    const ordered = [...rows].sort((a, b) => a.submittedAt - b.submittedAt || a.id - b.id);
    const contexts: RunContext[] = [];
    for (const row of ordered) {
      if (!(await markProcessing(d.database.db, row.id, now()))) continue;
      const request = { ...row, status: "processing" as const };
      try {
        contexts.push({ request, session: await memberClub(d, request.userId), excluded: new Set(), hasUnsettledPost: false });
      } catch (error) {
        await finishFailed(request, describe(error));
      }
    }
    return contexts;
  }

  /**
   * Just before the instant, every request takes its first claim (earliest-submitted first) and
   * its first attempt is written as sent, all in one transaction, so the posts can leave together.
   * The attempts carry the planned instant; the actual one replaces it with the answer.
   */
  async function planFirstWave(contexts: RunContext[], fireAt: number): Promise<Map<number, PreparedAttempt>> {
    const d = need();
    const plannedClub = fireAt + (measured?.offsetMs ?? 0);
    const first: { ctx: RunContext; attempt: PreparedAttempt }[] = [];
    for (const ctx of contexts) {
      const { request } = ctx;
      const choice = board.choose(request.id, request.playDate, request.courseId, request.selection.map((s) => s.time), ctx.excluded);
      if (choice.kind !== "try") continue;
      const slot = knownSlotId(request, choice.time);
      if (!slot) continue;
      const post = ctx.session.prepareBook({ date: request.playDate, course: request.courseId, slotId: slot.slotId, time: choice.time, players: toClubPlayers(request.players) });
      first.push({ ctx, attempt: { time: choice.time, ...slot, attemptId: 0, post, launched: null } });
    }
    await d.database.transaction(async (tx) => {
      for (const { ctx, attempt } of first) {
        attempt.attemptId = await recordAttemptSent(tx, { requestId: ctx.request.id, time: attempt.time, slotId: attempt.slotId, firedAtClub: plannedClub, firedAtLocal: fireAt });
        noteAttempted(ctx.request.id, attempt.time);
      }
    });
    return new Map(first.map(({ ctx, attempt }) => [ctx.request.id, attempt]));
  }

  /**
   * At the instant, every first post leaves in one tight loop, earliest-submitted first; each
   * request's run then takes up its answer. Nothing else runs between two posts.
   */
  function launchFirstWave(wave: Map<number, PreparedAttempt>): void {
    for (const attempt of wave.values()) {
      const firedAtLocal = now();
      const answer = attempt.post();
      // Handled when the request's run awaits it; this only keeps an early failure from being unhandled.
      answer.catch(() => undefined);
      attempt.launched = { answer, firedAtLocal, firedAtClub: clubNow() };
    }
  }

  /** Opens connections to the club ahead of the burst, so no post waits for a handshake. */
  async function warmConnections(count: number): Promise<void> {
    const d = need();
    await Promise.allSettled(Array.from({ length: Math.min(count, WARM_CONNECTIONS) }, () => d.club.clubTime()));
  }

  /** The slot id of a time without asking the club: from live data, or predicted. */
  function knownSlotId(request: RequestRow, time: string): { slotId: string; isPredicted: boolean } | null {
    const chosen = request.selection.find((s) => s.time === time)?.slotId ?? null;
    if (chosen) return { slotId: chosen, isPredicted: false };
    const template = templates.get(request.courseId);
    return template ? { slotId: applySlotIdTemplate(template, request.playDate, time), isPredicted: true } : null;
  }

  /** Fresh club sessions for every member due, the club clock's offset, and the slot-id patterns. */
  async function prepare(rows: RequestRow[]): Promise<void> {
    const d = need();
    const userIds = [...new Set(rows.map((r) => r.userId))];
    await Promise.all(
      userIds.map(async (userId) => {
        try {
          await (await memberClub(d, userId)).renew();
        } catch (error) {
          // The attempt itself reports the reason to the member; here it is only noted.
          d.logger.warn("release: member sign-in failed ahead of a release", { userId, error: describe(error) });
        }
      }),
    );
    await ensureOffset();
    const firstByCourse = new Map<string, RequestRow>();
    for (const row of rows) if (!firstByCourse.has(row.courseId)) firstByCourse.set(row.courseId, row);
    await Promise.all([...firstByCourse.values()].map((row) => learnTemplate(row)));
  }

  async function ensureOffset(): Promise<void> {
    const d = need();
    if (measured && now() - measured.measuredAt < settings.offsetMaxAgeMs) return;
    measuring ??= (async () => {
      try {
        const offset = await measureOffset(d);
        measured = { ...offset, measuredAt: now() };
        d.logger.info("release: club clock measured", { offsetMs: offset.offsetMs, uncertaintyMs: offset.uncertaintyMs });
      } catch (error) {
        d.logger.warn("release: the club clock could not be measured", { error: describe(error) });
      } finally {
        measuring = null;
      }
    })();
    await measuring;
  }

  /** Reads an open sheet of the course (the days before the play date) to learn its slot ids. */
  async function learnTemplate(row: RequestRow): Promise<void> {
    const d = need();
    if (templates.has(row.courseId)) return;
    try {
      const session = await memberClub(d, row.userId);
      for (let back = 1; back <= 7; back++) {
        const date = addDays(row.playDate, -back);
        if (date < manilaDate(clubNow())) break;
        const sheet = await session.fetchTeeSheet(date, row.courseId);
        if (!sheet.released || sheet.slots.length < 2) continue;
        templates.set(row.courseId, learnSlotIdTemplate(date, sheet.slots));
        return;
      }
    } catch (error) {
      d.logger.warn("release: could not read an open tee sheet", { course: row.courseId, error: describe(error) });
    }
  }

  // ── processing ────────────────────────────────────────────────────────

  async function runRequest(ctx: RunContext, firstAttempt?: PreparedAttempt): Promise<void> {
    const { request } = ctx;
    const times = request.selection.map((s) => s.time);
    let prepared = firstAttempt;
    try {
      for (;;) {
        if (!isRunning) return;
        let time: string;
        if (prepared?.launched) {
          // Its post has left: its answer is settled whatever the board says (the claim is this request's).
          time = prepared.time;
        } else {
          const choice = board.choose(request.id, request.playDate, request.courseId, times, ctx.excluded);
          if (choice.kind === "exhausted") return void (await finishFailed(request, NO_TIME_AVAILABLE));
          if (choice.kind === "wait") {
            await park(Promise.race([board.changed(), stopped()]));
            continue;
          }
          time = choice.time;
        }
        const result = await trySlot(ctx, time, prepared?.time === time ? prepared : undefined);
        prepared = undefined;
        if (result.kind === "booked" || result.kind === "stopped") return;
        if (result.kind === "failed") {
          board.release(request.id, request.playDate, request.courseId, time, "free");
          return void (await finishFailed(request, result.reason));
        }
        if (result.kind === "skip") ctx.excluded.add(time);
        board.release(request.id, request.playDate, request.courseId, time, result.kind === "gone" ? "gone" : "free");
      }
    } catch (error) {
      // Left processing on purpose: a restart reconciles it with the club.
      need().logger.error("release: request stopped unexpectedly", { requestId: request.id, error });
    } finally {
      board.releaseAll(request.id);
      attemptedByRequest.delete(request.id);
    }
  }

  const stopped = () => new Promise<void>((resolve) => stopController.signal.addEventListener("abort", () => resolve(), { once: true }));

  /** One time of a request, until it is booked, gone, or the request fails. */
  async function trySlot(ctx: RunContext, time: string, firstAttempt?: PreparedAttempt): Promise<SlotResult> {
    const { request } = ctx;
    const d = need();
    let notYetOpenSince: number | null = null;
    let troubleSince: number | null = null;
    let backoff = 0;
    let hasRenewed = false;
    let isIdCorrected = false;

    const retryAfterTrouble = async (reason: string): Promise<SlotResult | null> => {
      troubleSince ??= now();
      if (now() - troubleSince >= settings.unavailableWindowMs) return { kind: "failed", reason };
      const pause = settings.unavailableBackoffMs[Math.min(backoff++, settings.unavailableBackoffMs.length - 1)];
      await sleepFor(pause);
      return isRunning ? null : { kind: "stopped" };
    };

    for (;;) {
      if (!isRunning) return { kind: "stopped" };
      if (ctx.hasUnsettledPost) {
        const settled = await settleUnansweredPost(ctx);
        if (settled) return settled;
        continue;
      }
      let slot: { slotId: string; isPredicted: boolean };
      let attemptId: number;
      let sentAt: { firedAtLocal: number; firedAtClub: number } | null = null;
      let launched: PreparedAttempt["launched"] = null;
      if (firstAttempt) {
        attemptId = firstAttempt.attemptId;
        slot = { slotId: firstAttempt.slotId, isPredicted: firstAttempt.isPredicted };
        launched = firstAttempt.launched;
        sentAt = launched ? { firedAtLocal: launched.firedAtLocal, firedAtClub: launched.firedAtClub } : { firedAtLocal: now(), firedAtClub: clubNow() };
        firstAttempt = undefined;
      } else {
        const resolved = await resolveSlot(ctx, time, isIdCorrected);
        if (resolved.kind === "gone" || resolved.kind === "skip" || resolved.kind === "failed") return resolved;
        if (resolved.kind === "not_released" || resolved.kind === "trouble") {
          const waited = resolved.kind === "not_released" ? await retryNotYetOpen() : await retryAfterTrouble(resolved.reason);
          if (waited) return waited;
          continue;
        }
        slot = resolved;
        const firedAtLocal = now();
        const firedAtClub = clubNow();
        attemptId = await recordAttemptSent(d.database.db, { requestId: request.id, time, slotId: slot.slotId, firedAtClub, firedAtLocal });
        noteAttempted(request.id, time);
        if (request.latenessMs === null) {
          request.latenessMs = firedAtClub - request.releaseAt;
          await recordLateness(d.database.db, request.id, request.latenessMs);
        }
      }
      const started = performance.now();
      const settleSentAt = async () => {
        if (!sentAt) return;
        const actual = sentAt;
        sentAt = null;
        await recordAttemptTimes(d.database.db, attemptId, actual);
        if (request.latenessMs === null) {
          request.latenessMs = actual.firedAtClub - request.releaseAt;
          await recordLateness(d.database.db, request.id, request.latenessMs);
        }
      };
      try {
        const { ref } = await (launched?.answer ??
          ctx.session.book({ date: request.playDate, course: request.courseId, slotId: slot.slotId, time, players: toClubPlayers(request.players) }));
        await settleSentAt();
        await finishBooked(request, attemptId, time, ref, Math.round(performance.now() - started));
        return { kind: "booked" };
      } catch (caught) {
        const error = asClubError(caught);
        await settleSentAt();
        await recordAttemptAnswer(d.database.db, attemptId, { outcome: error.kind, answer: error.message, durationMs: Math.round(performance.now() - started) });
        switch (error.kind) {
          case "slot_taken":
          case "not_found":
            return { kind: "gone" };
          case "not_yet_open": {
            const waited = await retryNotYetOpen();
            if (waited) return waited;
            continue;
          }
          case "session_expired": {
            if (!hasRenewed) {
              hasRenewed = true;
              const renewed = await renewSession(ctx);
              if (renewed) return renewed;
              continue;
            }
            const waited = await retryAfterTrouble(error.message);
            if (waited) return waited;
            hasRenewed = false;
            continue;
          }
          case "unavailable":
          case "page_not_understood": {
            // Without a readable answer the club may have booked it: read the club before posting again.
            ctx.hasUnsettledPost = error.isAmbiguous || error.kind === "page_not_understood";
            if (error.kind === "page_not_understood" && !ctx.hasUnsettledPost) return { kind: "failed", reason: error.message };
            const waited = await retryAfterTrouble(troubleReason(error));
            if (waited) return waited;
            continue;
          }
          case "rule_refused":
            if (slot.isPredicted && !isIdCorrected) {
              // The club did not know the id we predicted: read its sheet and try the real one.
              isIdCorrected = true;
              templates.set(request.courseId, null);
              continue;
            }
            return { kind: "failed", reason: error.message };
          case "bad_credentials":
            return { kind: "failed", reason: BAD_CREDENTIALS_REASON };
          default:
            return { kind: "failed", reason: error.message };
        }
      }
    }

    async function retryNotYetOpen(): Promise<SlotResult | null> {
      notYetOpenSince ??= now();
      if (now() - notYetOpenSince >= settings.notYetOpenWindowMs) {
        return { kind: "failed", reason: `The club did not open ${request.playDate} for booking in time.` };
      }
      await sleepFor(settings.notYetOpenRetryMs);
      return isRunning ? null : { kind: "stopped" };
    }
  }

  async function renewSession(ctx: RunContext): Promise<Extract<SlotResult, { kind: "failed" }> | null> {
    try {
      await ctx.session.renew();
      return null;
    } catch (caught) {
      const error = asClubError(caught);
      if (error.kind === "bad_credentials") return { kind: "failed", reason: BAD_CREDENTIALS_REASON };
      return null;
    }
  }

  /**
   * After a post without an answer: is the booking at the club? Until the club can be read, nothing
   * else is posted for this request, so it can never end up with two bookings.
   */
  async function settleUnansweredPost(ctx: RunContext): Promise<SlotResult | null> {
    const found = await findBookedAtClub(ctx.session, ctx.request, attemptedTimes(ctx));
    if (found === "unreadable") {
      ctx.unreadableSince ??= now();
      if (now() - ctx.unreadableSince >= settings.unavailableWindowMs) {
        // Nothing more is posted: the sync job will show the booking if the club did make it.
        return { kind: "failed", reason: UNSETTLED_REASON };
      }
      await sleepFor(settings.unavailableBackoffMs.at(-1) ?? 1000);
      return isRunning ? null : { kind: "stopped" };
    }
    ctx.unreadableSince = null;
    ctx.hasUnsettledPost = false;
    if (found) {
      await finishBooked(ctx.request, null, found.time, found.ref, null);
      return { kind: "booked" };
    }
    return null;
  }

  /** The times each request has posted for: only those can hold a booking it does not know of. */
  const attemptedByRequest = new Map<number, Set<string>>();
  function noteAttempted(requestId: number, time: string): void {
    const times = attemptedByRequest.get(requestId) ?? new Set<string>();
    times.add(time);
    attemptedByRequest.set(requestId, times);
  }
  function attemptedTimes(ctx: RunContext): string[] {
    return [...(attemptedByRequest.get(ctx.request.id) ?? [])];
  }

  /** A booking of the member at the club for this request's date, course and one of `times`. */
  async function findBookedAtClub(session: MemberClubSession, request: RequestRow, times: string[]): Promise<{ ref: string; time: string } | null | "unreadable"> {
    try {
      const clubBookings = await session.fetchMyBookings();
      const candidates = clubBookings.filter((b) => b.date === request.playDate && b.course === request.courseId && times.includes(b.time));
      const taken = await knownBookingRefs(need().database.db, candidates.map((b) => b.ref));
      const match = candidates.find((b) => !taken.has(b.ref));
      return match ? { ref: match.ref, time: match.time } : null;
    } catch (error) {
      need().logger.warn("release: could not read the member's club bookings", { requestId: request.id, error: describe(error) });
      return "unreadable";
    }
  }

  type ResolvedSlot =
    | { kind: "ready"; slotId: string; isPredicted: boolean }
    | { kind: "gone" }
    | { kind: "skip" }
    | { kind: "failed"; reason: string }
    | { kind: "not_released" }
    | { kind: "trouble"; reason: string };

  /** The club's slot id for a time: chosen from live data, predicted, or read from the sheet. */
  async function resolveSlot(ctx: RunContext, time: string, mustRead: boolean): Promise<ResolvedSlot> {
    const { request } = ctx;
    const known = mustRead ? null : knownSlotId(request, time);
    if (known) return { kind: "ready", ...known };
    let sheet: ClubTeeSheet;
    try {
      sheet = await readSheet(ctx, mustRead);
    } catch (caught) {
      const error = asClubError(caught);
      if (error.kind === "bad_credentials") return { kind: "failed", reason: BAD_CREDENTIALS_REASON };
      if (error.kind === "session_expired") {
        const renewed = await renewSession(ctx);
        if (renewed) return renewed;
      }
      return { kind: "trouble", reason: troubleReason(error) };
    }
    if (!sheet.released) return { kind: "not_released" };
    for (const slot of sheet.slots) if (slot.status !== "AVAILABLE") board.markGone(request.playDate, request.courseId, slot.time);
    const slot = sheet.slots.find((s) => s.time === time);
    if (!slot) return { kind: "skip" };
    if (slot.status !== "AVAILABLE") return { kind: "gone" };
    return { kind: "ready", slotId: slot.slotId, isPredicted: false };
  }

  function readSheet(ctx: RunContext, isFreshNeeded: boolean): Promise<ClubTeeSheet> {
    const key = `${ctx.request.playDate}|${ctx.request.courseId}`;
    const cached = sheets.get(key);
    if (cached && !isFreshNeeded) return cached;
    const reading = ctx.session.fetchTeeSheet(ctx.request.playDate, ctx.request.courseId);
    sheets.set(key, reading);
    // A failed or not-yet-released read must not be reused by the next caller.
    reading.then((sheet) => { if (!sheet.released) sheets.delete(key); }, () => sheets.delete(key));
    return reading;
  }

  function forgetSheetsOf(rows: RequestRow[]): void {
    for (const row of rows) sheets.delete(`${row.playDate}|${row.courseId}`);
  }

  // ── outcomes ──────────────────────────────────────────────────────────

  async function finishBooked(request: RequestRow, attemptId: number | null, time: string, ref: string, durationMs: number | null): Promise<void> {
    const d = need();
    board.release(request.id, request.playDate, request.courseId, time, "gone");
    const isNew = await confirmRequest(d.database, { request, attemptId, time, ref, durationMs, now: now() });
    if (!isNew) return;
    const course = await courseNameOf(d.database.db, request.courseId);
    d.logger.info("release: booked", { requestId: request.id, ref, teeTime: time, latenessMs: request.latenessMs });
    d.hub.toUser(request.userId, {
      type: "toast",
      toast: {
        kind: "success",
        textKey: "bookings.toast.booked",
        context: { course, date: request.playDate, time, bookingId: ref },
        message: `Booked: ${course} on ${request.playDate} at ${time} (${ref}).`,
      },
    });
    d.hub.toUser(request.userId, { type: "status", status: "updated" });
  }

  async function finishFailed(request: RequestRow, reason: string): Promise<void> {
    const d = need();
    const isNew = await failRequest(d.database.db, request.id, reason, now());
    if (!isNew) return;
    const course = await courseNameOf(d.database.db, request.courseId);
    d.logger.info("release: request failed", { requestId: request.id, reason });
    d.hub.toUser(request.userId, {
      type: "toast",
      toast: {
        kind: "error",
        textKey: "bookings.toast.failed",
        context: { course, date: request.playDate, reason },
        message: `Your request for ${course} on ${request.playDate} failed: ${reason}`,
      },
    });
    d.hub.toUser(request.userId, { type: "status", status: "updated" });
  }

  // ── start-up ──────────────────────────────────────────────────────────

  /** Requests a stop or crash left processing: booked at the club already, or resumed. */
  async function recoverProcessing(): Promise<void> {
    const d = need();
    const rows = await loadRequestsByStatus(d.database.db, "processing");
    if (rows.length === 0) return;
    const attempts = await loadAttempts(d.database.db, rows.map((r) => r.id));
    const resumable: RunContext[] = [];
    for (const request of rows) {
      const mine = attempts.filter((a) => a.requestId === request.id);
      attemptedByRequest.set(request.id, new Set(mine.map((a) => a.time)));
      let session: MemberClubSession;
      try {
        session = await memberClub(d, request.userId);
      } catch (error) {
        await finishFailed(request, describe(error));
        continue;
      }
      const ctx: RunContext = { request, session, excluded: new Set(), hasUnsettledPost: false };
      if (mine.length > 0) {
        const found = await settleAfterRestart(ctx);
        if (found === "booked") continue;
      }
      resumable.push(ctx);
    }
    await park(Promise.all(resumable.map((ctx) => track(() => runRequest(ctx)))));
  }

  async function settleAfterRestart(ctx: RunContext): Promise<"booked" | "resume"> {
    const d = need();
    for (;;) {
      const found = await findBookedAtClub(ctx.session, ctx.request, attemptedTimes(ctx));
      if (found === "unreadable") {
        await sleepFor(settings.unavailableBackoffMs.at(-1) ?? 1000);
        if (!isRunning) return "booked";
        continue;
      }
      if (found) {
        const unanswered = (await loadAttempts(d.database.db, [ctx.request.id])).filter((a) => a.state === "sent" && a.time === found.time).at(-1);
        await finishBooked(ctx.request, unanswered?.id ?? null, found.time, found.ref, null);
        await settleUnansweredAttempts(d.database.db, ctx.request.id, "unknown", "No answer before Teebox stopped; the club had no booking for it.");
        return "booked";
      }
      await settleUnansweredAttempts(d.database.db, ctx.request.id, "unknown", "No answer before Teebox stopped; the club had no booking for it.");
      return "resume";
    }
  }

  return {
    async start(appDeps) {
      if (isRunning) return;
      deps = appDeps;
      isRunning = true;
      stopController = new AbortController();
      job = appDeps.jobs.register("release engine");
      job.started(appDeps.clock.now());
      spawn("recover", recoverProcessing);
      spawn("plan", planLoop);
    },
    async stop() {
      if (!isRunning) return;
      isRunning = false;
      stopController.abort();
      planWake?.abort();
      while (tasks.size > 0) await Promise.allSettled([...tasks]);
      job?.stopped();
    },
    wake() {
      if (!isRunning) return;
      isWakePending = true;
      planWake?.abort();
    },
    clubNow,
    offset: () => measured,
    async idle() {
      // Stable over a few turns of the event loop, so a reply in flight is not mistaken for quiet.
      let quietTurns = 0;
      while (quietTurns < 3) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        quietTurns = taskCount === parkedCount ? quietTurns + 1 : 0;
      }
    },
  };

  function troubleReason(error: ClubError): string {
    return error.kind === "page_not_understood"
      ? "The club's booking site answered with a page Teebox could not read."
      : "The club's booking site did not answer in time.";
  }
}

const BAD_CREDENTIALS_REASON = "The club did not accept your club login. Update it in your profile.";
const UNSETTLED_REASON = "The club's booking site stopped answering, so Teebox could not tell whether the booking went through. Please check your bookings.";

function asClubError(error: unknown): ClubError {
  if (error instanceof ClubError) return error;
  return new ClubError("unavailable", describe(error), { cause: error });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
