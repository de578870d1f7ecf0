/**
 * Keeps each member's confirmed bookings in step with the club: bookings made, changed or
 * cancelled on the club's own site show up in Teebox. It reads every member's bookings page
 * periodically (one member at a time, a polite pace) and a member's right after their actions.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { AppDatabase } from "../db/client.ts";
import { users, type StoredPlayer } from "../db/schema.ts";
import type { MemberSessions } from "../club/member-sessions.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Notifier } from "../realtime/notifier.ts";
import { applyClubBookings, bookingsOfMember } from "../lifecycle/booking-records.ts";
import { findBookedAtClub } from "../attempt/reconcile.ts";
import { confirmRequest, isReleaseNear, knownBookingRefs, unsureRequestsOf } from "../lifecycle/request-lifecycle.ts";
import type { ClubBooking } from "../club/records.ts";
import { manilaDate } from "../domain/manila-time.ts";
import { displayName } from "../services/club-players.ts";
import type { JobRegistry } from "./registry.ts";
import { createJobLoop } from "./loop.ts";

/** What the sync uses; `createContainer` gives it these. */
export interface BookingsSyncDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
  sessions: MemberSessions;
  notifier: Notifier;
}

export interface BookingsSyncOptions {
  /** Between two rounds over all members. Default 15 minutes. */
  intervalMs?: number;
  /** Before the first round after start. Default 30 seconds. */
  firstRoundDelayMs?: number;
}

export interface BookingsSync {
  start(): void;
  stop(): Promise<void>;
  /** Reads one member's club bookings now; true when Teebox's list changed. */
  syncMember(userId: number): Promise<boolean>;
  /** One round over every member with a club login. */
  syncAll(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 15 * 60_000;
const DEFAULT_FIRST_ROUND_DELAY_MS = 30_000;

/** Players as the club lists them (name, type, id); cart and fee are not shown there. */
function playersFromClub(booking: ClubBooking): StoredPlayer[] {
  return booking.players.map((p) => ({ type: p.type, firstName: "", lastName: p.name, memberId: p.id, cart: "", fee: "" }));
}

export function createBookingsSync(d: BookingsSyncDeps, options: BookingsSyncOptions = {}): BookingsSync {
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  let isStarted = false;
  /** One sync per member at a time: a second caller shares the run in flight. */
  const inFlight = new Map<number, Promise<boolean>>();

  async function syncMemberNow(userId: number): Promise<boolean> {
    const session = await d.sessions.forMember(userId);
    const startedAt = d.clock.now();
    // After every urgent request when the club budget is spent; one member at a time, so it only waits (decision 145).
    const atClub = await session.fetchMyBookings({ pace: "background" });
    const ours = await bookingsOfMember(d.database.db, userId);
    const applied = await applyClubBookings(d.database, { userId, atClub, ours, readAt: startedAt, today: manilaDate(startedAt), displayName, playersFromClub });
    await d.database.db.update(users).set({ clubBookingsReadAt: startedAt }).where(eq(users.id, userId));
    for (const event of applied.events) d.notifier.publish(event);
    const isSettled = await settleUnsureRequests(userId, atClub, startedAt);
    return applied.isChanged || isSettled;
  }

  /**
   * A request the release engine could not settle (decision 117) is confirmed once the club lists
   * a booking of the member for its date, course and a time it posted for, not held by another.
   */
  async function settleUnsureRequests(userId: number, atClub: ClubBooking[], now: number): Promise<boolean> {
    let isChanged = false;
    for (const { request, times } of await unsureRequestsOf(d.database.db, userId)) {
      const found = await findBookedAtClub({ fetchMyBookings: async () => atClub }, { playDate: request.playDate, courseId: request.courseId, times }, (refs) =>
        knownBookingRefs(d.database.db, userId, refs),
      );
      if (!found || found === "unreadable") continue;
      const confirmed = await confirmRequest(d.database, { request, attemptId: null, time: found.time, ref: found.ref, durationMs: null, now });
      if (!confirmed) continue;
      isChanged = true;
      d.notifier.publish(confirmed);
    }
    return isChanged;
  }

  function syncMember(userId: number): Promise<boolean> {
    if (!isStarted) return Promise.resolve(false);
    const running = inFlight.get(userId);
    if (running) return running;
    const run = syncMemberNow(userId).finally(() => inFlight.delete(userId));
    inFlight.set(userId, run);
    return run;
  }

  async function syncAll(): Promise<void> {
    const members = await d.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.status, "active"), isNotNull(users.clubPasswordSealed)));
    let failures = 0;
    let read = 0;
    for (const { id } of members) {
      if (loop.signal.aborted) return;
      // A round signs in and reads every member (three or four requests each, 800 for 200 members),
      // which spends the club budget a release then waits for: it stops before its next member and
      // the next round starts again.
      if (await isReleaseNear(d.database.db, d.clock.now())) {
        d.logger.info("bookings sync: round put off, a release is near", { membersRead: read, members: members.length });
        break;
      }
      read++;
      try {
        await syncMember(id);
      } catch (error) {
        failures++;
        d.logger.warn("bookings sync: a member's bookings could not be read", { userId: id, error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (failures > 0 && failures === read) loop.handle.failed(new Error("no member's club bookings could be read"), d.clock.now());
    else loop.handle.ran(d.clock.now());
  }

  const loop = createJobLoop(d, {
    name: "bookings sync",
    pass: () => syncAll(),
    intervalMs,
    floorMs: Math.min(intervalMs, 60_000),
    firstPassDelayMs: options.firstRoundDelayMs ?? DEFAULT_FIRST_ROUND_DELAY_MS,
    // A round is healthy only when some member's bookings could be read (syncAll says so).
    reportsOwnOutcome: true,
  });

  return {
    start() {
      isStarted = true;
      loop.start();
    },
    async stop() {
      await loop.stop();
      await Promise.allSettled([...inFlight.values()]);
    },
    syncMember,
    syncAll,
  };
}
