/**
 * A Teebox with the release engine against a demo club that shares its fake clock: time moves
 * only when a test moves it, so the club sees our attempts at exact instants.
 */
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { eq } from "drizzle-orm";
import { createClubClient, type ClubAuditEntry } from "../../src/club/client.ts";
import { createClubSim, type ClubSim, type RivalsOptions } from "../../src/club-sim/index.ts";
import type { ClubAccount } from "../../src/club-sim/demo-data.ts";
import { bookingRequests, bookings, requestAttempts, users } from "../../src/db/schema.ts";
import { toSessionUser } from "../../src/services/sessions.ts";
import type { SessionUser } from "../../src/domain/session-user.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import type { ReleaseEngine, ReleaseEngineOptions } from "../../src/jobs/release-engine.ts";
import type { MailSenderOptions } from "../../src/jobs/mail-sender.ts";
import type { ContainerConfig } from "../../src/container.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { createTestApp, TEST_NOW, type TestApp } from "../helpers/api.ts";

/** The play date and its release instant most release tests use (a week before, 07:00 Manila). */
export const PLAY = "2026-11-30";
export const RELEASE = manilaInstant("2026-11-23", "07:00");

export interface ReleaseFixture {
  t: TestApp;
  clock: FakeClock;
  sim: ClubSim;
  engine: ReleaseEngine;
  /** Every member action the adapter made at the club (sign-ins, bookings …), in order. */
  clubActions: ClubAuditEntry[];
  user(username: string): Promise<SessionUser>;
  /** Sends SUBMIT_BOOKING_REQUEST as the member and returns the answer. */
  submit(username: string, payload: unknown): Promise<ServerMessage>;
  /** Moves the fake clock to `atMs` and lets the engine act until it waits again. */
  moveTo(atMs: number): Promise<void>;
  /** Steps the clock by `stepMs` until `done()` holds (at most `maxSteps` steps). */
  stepUntil(done: () => Promise<boolean> | boolean, stepMs?: number, maxSteps?: number): Promise<void>;
  request(id: number): Promise<typeof bookingRequests.$inferSelect>;
  attempts(id: number): Promise<(typeof requestAttempts.$inferSelect)[]>;
  bookingsOf(username: string): Promise<(typeof bookings.$inferSelect)[]>;
  close(): Promise<void>;
}

export interface ReleaseFixtureOptions {
  now?: number;
  /** The club clock minus ours. */
  clubOffsetMs?: number;
  /** What the engine believes the offset is (default: the true one). */
  measuredOffsetMs?: number;
  rivals?: RivalsOptions;
  /** More member accounts at the club. */
  extraAccounts?: ClubAccount[];
  engine?: ReleaseEngineOptions;
  startEngine?: boolean;
  /** How long the adapter waits for the club (default 5 s). */
  clubTimeoutMs?: number;
  /** The mail job's transport and pace (default: no SMTP). */
  mail?: MailSenderOptions;
  /** The push job's subject and pace, and the push services devices may subscribe at (a loopback stand-in). */
  push?: ContainerConfig["push"];
}

export async function startReleaseFixture(options: ReleaseFixtureOptions = {}): Promise<ReleaseFixture> {
  const now = options.now ?? TEST_NOW;
  const clock = new FakeClock(now);
  const sim = createClubSim({
    clock,
    seed: 7,
    clockOffsetMs: options.clubOffsetMs ?? 0,
    prebookedShare: 0,
    blockedShare: 0,
    rivals: options.rivals,
    extraAccounts: options.extraAccounts,
  });
  const running = await sim.start();
  const clubActions: ClubAuditEntry[] = [];
  const t = await createTestApp({
    now,
    demo: true,
    clubUrl: running.url,
    extend: () => ({
      clock,
      club: createClubClient({ baseUrl: running.url, clock, maxConnections: 16, timeoutMs: options.clubTimeoutMs ?? 5000, onAudit: (entry) => clubActions.push(entry) }),
    }),
    releaseEngine: {
      measureOffset: async () => ({ offsetMs: options.measuredOffsetMs ?? sim.clockOffsetMs(), uncertaintyMs: 0 }),
      ...options.engine,
    },
    mail: options.mail,
    push: options.push,
  });
  const engine = t.deps.releaseEngine;
  if (options.startEngine ?? true) await engine.start();

  const user = async (username: string) => {
    const rows = await t.deps.database.db.select().from(users).where(eq(users.username, username));
    return toSessionUser(rows[0]);
  };
  return {
    t,
    clock,
    sim,
    engine,
    clubActions,
    user,
    async submit(username, payload) {
      const member = await user(username);
      let answer: ServerMessage | null = null;
      await t.deps.hub.dispatch({ user: member, sessionId: "test" }, JSON.stringify({ action: "SUBMIT_BOOKING_REQUEST", payload }), (m) => (answer = m));
      if (!answer) throw new Error("no answer");
      await engine.idle();
      return answer;
    },
    async moveTo(atMs) {
      await engine.idle();
      await clock.set(atMs);
      await engine.idle();
    },
    async stepUntil(done, stepMs = 10, maxSteps = 5000) {
      for (let i = 0; i < maxSteps; i++) {
        await engine.idle();
        if (await done()) return;
        await clock.advance(stepMs);
      }
      throw new Error("stepUntil: the condition never held");
    },
    async request(id) {
      const rows = await t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.id, id));
      return rows[0];
    },
    attempts: (id) => t.deps.database.db.select().from(requestAttempts).where(eq(requestAttempts.requestId, id)).orderBy(requestAttempts.id),
    async bookingsOf(username) {
      const member = await user(username);
      return t.deps.database.db.select().from(bookings).where(eq(bookings.userId, member.id));
    },
    async close() {
      await t.close();
      await running.stop();
    },
  };
}

/** A booking submission of the member alone (or with `players`). */
export function submission(date: string, times: string[], course = "masters", players: unknown[] = []) {
  return {
    course,
    targetDate: date,
    selectionOrder: times.map((time) => ({ time, slotId: null })),
    memberCartType: "Rental Cart - Solo",
    playerDetails: { players },
  };
}

/** A flight player who is a club member (and a Teebox member when the number is theirs), walking and charged to their account. */
export function memberPlayer(lastName: string, id: string) {
  return {
    type: "Member",
    cartType: { Walking: true },
    chargeFeesTo: { "Charge to their account": true },
    searchLastName: lastName,
    searchIdNumber: id,
  };
}
