/**
 * The slot watch: books (or tells of) tee times that come free after the release, for the
 * members who watch them. Each pass, in this order:
 *   1. watches whose date (or range) has gone by end;
 *   2. a member with a post left unanswered (a crash, a club that stopped answering; a watch's or
 *      an edit's) has their club bookings read first, and posts nothing until that read succeeds;
 *   3. the free slots of the watched sheets are gathered (src/jobs/watch/watch-finding.ts);
 *   4. they are handed to the watches in the order the watches were made (earliest first), and
 *      each watch books its slot through its member's club session, one post at a time.
 * Passes run every few seconds on the one job loop (src/jobs/loop.ts); the club is asked for a
 * sheet at most once per `watch_poll_seconds`. Every early return of a pass leaves the finder's
 * memory in step with the watches left, so with no watch left there is no poll to wait for.
 */
import type { AppDatabase } from "../db/client.ts";
import type { MemberSessions } from "../club/member-sessions.ts";
import { manilaDate, manilaTimeOfDay } from "../domain/manila-time.ts";
import { assignFreedSlots, isWatchOver, type FreeSlot } from "../domain/watches.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { bookingsOfMember, courseNameOf } from "../lifecycle/booking-records.ts";
import { disabledMembers, loadRequestsByStatus } from "../lifecycle/request-lifecycle.ts";
import { countActiveWatches, endWatch, loadActiveWatches, markWatchFound, type WatchRow } from "../lifecycle/watch-lifecycle.ts";
import { membersWithOpenPosts, settleOpenPosts, type OpenPostKind } from "../attempt/reconcile.ts";
import type { Notifier } from "../realtime/notifier.ts";
import { readRules } from "../services/booking-config.service.ts";
import { readSettings } from "../services/settings.service.ts";
import type { JobRegistry } from "./registry.ts";
import { createJobLoop } from "./loop.ts";
import { postForWatch, watchOpenPosts } from "./watch/watch-booking.ts";
import { createFinder } from "./watch/watch-finding.ts";

export interface SlotWatchDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
  sessions: MemberSessions;
  notifier: Notifier;
  /** Other kinds of posts whose unknown outcomes are settled at the head of each pass (an edit's). */
  openPosts?: readonly OpenPostKind[];
}

export interface SlotWatchOptions {
  /** Between two passes (the stored sheets are looked at each pass). Default 5 seconds. */
  passEveryMs?: number;
}

export interface SlotWatchStats {
  activeWatches: number;
  /** Sheets read from the club in the last minute. */
  pollsPerMinute: number;
  pollSeconds: number;
}

export interface SlotWatch {
  start(): void;
  stop(): Promise<void>;
  /** One pass now (a pass in flight is shared). */
  pass(): Promise<void>;
  /** Runs a pass soon (a watch was made). */
  wake(): void;
  stats(): Promise<SlotWatchStats>;
}

const DEFAULT_PASS_MS = 5000;
/** Two passes never start closer than this, whatever the next poll asks for. */
const PASS_FLOOR_MS = 1000;
const MINUTE_MS = 60_000;
/** With no watch at all, a pass this often (a new watch wakes the job at once anyway). */
const IDLE_PASS_MS = 10 * MINUTE_MS;
const slotKey = (s: FreeSlot) => `${s.date}|${s.courseId}|${s.time}`;

export function createSlotWatch(d: SlotWatchDeps, options: SlotWatchOptions = {}): SlotWatch {
  const passEveryMs = options.passEveryMs ?? DEFAULT_PASS_MS;
  /** When each sheet read of the last minute was made (for the monitor); pruned every pass. */
  const pollTimes: number[] = [];
  /**
   * When a post for a slot was refused: that slot is skipped until a sheet read after it shows it
   * free. Forgotten once its date has gone by (a pass prunes it).
   */
  const refusedAt = new Map<string, number>();
  const forgetOld = (now: number) => {
    while (pollTimes.length > 0 && pollTimes[0] < now - MINUTE_MS) pollTimes.shift();
    const today = manilaDate(now);
    for (const key of refusedAt.keys()) if (key.slice(0, 10) < today) refusedAt.delete(key);
  };
  const openPostKinds = [watchOpenPosts(d), ...(d.openPosts ?? [])];
  const finder = createFinder((error, sheet) =>
    d.logger.warn("watch: a watched sheet could not be read", { sheet, error: error instanceof Error ? error.message : String(error) }),
  );

  async function endOverWatches(watches: WatchRow[], now: number): Promise<WatchRow[]> {
    const today = manilaDate(now);
    const nowTime = manilaTimeOfDay(now).slice(0, 5);
    const live: WatchRow[] = [];
    for (const watch of watches) {
      if (!isWatchOver(watch, today, nowTime)) {
        live.push(watch);
        continue;
      }
      d.notifier.publish(await endWatch(d.database.db, watch.id, { key: "watches.reason.date_passed", context: {} }, now));
    }
    return live;
  }

  /** An upgrade never "finds" the booking it replaces; one whose booking is gone ends. */
  async function withUpgradedBookings(watches: WatchRow[], now: number) {
    const out = [];
    for (const watch of watches) {
      if (!watch.upgradeRef) {
        out.push(watch);
        continue;
      }
      const held = (await bookingsOfMember(d.database.db, watch.userId)).find((b) => b.bookingRef === watch.upgradeRef);
      if (!held) {
        d.notifier.publish(await endWatch(d.database.db, watch.id, { key: "watches.reason.upgrade_gone", context: {} }, now));
        continue;
      }
      out.push({ ...watch, upgradeTime: held.time, upgradeCourseId: held.courseId });
    }
    return out;
  }

  /** One pass; returns when the next sheet poll falls due (null: no sheet polled), or when to look again while idle. */
  async function passNow(signal: AbortSignal): Promise<{ nextPollAt: number | null } | { nextAt: number }> {
    const { db } = d.database;
    const now = d.clock.now();
    forgetOld(now);
    const watches = await endOverWatches(await loadActiveWatches(db), now);
    // Members whose unanswered post could not be reconciled post nothing this pass; nor do disabled
    // members (their requests are held too), nor members whose request the release engine is
    // posting right now (one poster per member at a time).
    const blocked = new Set<number>();
    const unanswered = await membersWithOpenPosts(openPostKinds);
    for (const userId of unanswered) if (!(await settleOpenPosts(() => d.sessions.forMember(userId), userId, openPostKinds))) blocked.add(userId);
    // Nothing watched and nothing to settle: rest until a watch is made (it wakes the job).
    if (watches.length === 0 && unanswered.length === 0) {
      finder.keepOnly([], []);
      return { nextAt: now + IDLE_PASS_MS };
    }
    for (const userId of await disabledMembers(db, [...new Set(watches.map((w) => w.userId))])) blocked.add(userId);
    for (const request of await loadRequestsByStatus(db, "processing")) blocked.add(request.userId);
    const stillWatching = (await loadActiveWatches(db)).filter((w) => watches.some((x) => x.id === w.id) && !blocked.has(w.userId));
    const [rules, settings] = await Promise.all([readRules(db), readSettings(db)]);
    const pollEveryMs = settings.watch_poll_seconds * 1000;
    // Sheets no watch needs any more are forgotten even when nothing is left to do this pass:
    // a remembered poll would otherwise stay "due" for ever.
    finder.keepOnly(stillWatching, rules.courseSchedule);
    if (stillWatching.length === 0) return { nextPollAt: finder.nextPollAt(pollEveryMs) };

    const reading = await finder.freeSlots(db, d.sessions, stillWatching, rules.courseSchedule, now, pollEveryMs);
    for (let i = 0; i < reading.polled; i++) pollTimes.push(now);
    const fresh = reading.slots.filter((s) => (refusedAt.get(slotKey(s)) ?? -1) < s.seenAt);
    const targets = await withUpgradedBookings(stillWatching, now);
    const assigned = assignFreedSlots(targets, fresh);

    for (const watch of targets) {
      const slot = assigned.get(watch.id);
      if (!slot || signal.aborted) continue;
      const courseName = await courseNameOf(db, slot.courseId);
      if (watch.mode === "notify") {
        d.notifier.publish(await markWatchFound(db, watch.id, { courseId: slot.courseId, time: slot.time, courseName }, d.clock.now()));
        continue;
      }
      let session;
      try {
        session = await d.sessions.forMember(watch.userId);
      } catch (error) {
        d.logger.warn("watch: no club session for the member", { watchId: watch.id, error: error instanceof Error ? error.message : String(error) });
        continue;
      }
      let slotId = slot.slotId;
      if (!slotId) {
        const sheet = await session.fetchTeeSheet(slot.date, slot.courseId).catch(() => null);
        slotId = sheet?.slots.find((s) => s.time === slot.time && s.status === "AVAILABLE")?.slotId ?? null;
        if (!slotId) {
          refusedAt.set(slotKey(slot), d.clock.now());
          continue;
        }
      }
      const outcome = await postForWatch(d, session, watch, { ...slot, slotId });
      if (outcome.kind !== "booked") refusedAt.set(slotKey(slot), d.clock.now());
      finder.markTaken(slot);
    }
    return { nextPollAt: finder.nextPollAt(pollEveryMs) };
  }

  // The next pass comes at the pass interval, or sooner when a sheet's poll falls due, so a freed
  // slot waits at most one poll interval (never more than the admin's rate allows).
  const loop = createJobLoop(d, {
    name: "slot watch",
    pass: async (signal) => {
      const next = await passNow(signal);
      if ("nextAt" in next) return next.nextAt;
      return next.nextPollAt === null ? null : Math.min(d.clock.now() + passEveryMs, next.nextPollAt);
    },
    intervalMs: passEveryMs,
    floorMs: Math.min(PASS_FLOOR_MS, passEveryMs),
  });

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    // Each pass begins with the reconcile of posts left unanswered (by a crash too), so the first
    // pass after a start reads the club before anything is posted.
    pass: () => loop.runPass(),
    wake: () => loop.wake(),
    async stats() {
      forgetOld(d.clock.now());
      const settings = await readSettings(d.database.db);
      return { activeWatches: await countActiveWatches(d.database.db), pollsPerMinute: pollTimes.length, pollSeconds: settings.watch_poll_seconds };
    },
  };
}
