/**
 * One engine per libSQL database: a lease row (`engine_lease`) that the instance starting first
 * takes in one atomic statement and then renews on the loop every timer job runs on (decision 130),
 * one small write per renewal. Another
 * instance on the same database serves nothing: it waits, saying so once and then rarely, and takes
 * the lease over when its holder lets it go (a stop) or lets it expire (a crash, a long pause, a
 * lost network). This is the first step toward a standby that takes over on its own.
 *
 * The holder counts its lease as lost as soon as a renewal is refused, or when it has not managed
 * to renew by `marginMs` before the expiry it last wrote (its clock, not the database's, so a long
 * pause is noticed on waking before any write is attempted); it must then stop its jobs at once.
 * The instances' clocks are assumed to agree to within that margin.
 *
 * A file database does not use it: there, the lock file (src/db/file-lock.ts) is the same guard.
 */
import { and, eq, gt, lte } from "drizzle-orm";
import { randomBytes } from "../lib/random.ts";
import { hostname } from "node:os";
import type { AppDatabase } from "../db/client.ts";
import { engineLease } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { createJobLoop } from "./loop.ts";
import type { JobRegistry } from "./registry.ts";

export interface EngineLeaseDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
}

export interface EngineLeaseOptions {
  /** How long a lease lasts past its last renewal. Default 30 s. */
  ttlMs?: number;
  /** How often the holder renews it. Default 10 s. */
  renewEveryMs?: number;
  /** The holder gives it up this long before it would expire without a renewal. Default 5 s. */
  marginMs?: number;
  /** How often a waiting instance looks whether the lease is free. Default 5 s. */
  retryEveryMs?: number;
  /** How often a waiting instance says it is still waiting. Default 1 hour. */
  remindEveryMs?: number;
  /** This instance's name in the lease row (default: host, pid and a random tag). */
  holder?: string;
}

export interface EngineLease {
  /** This instance's name in the lease row. */
  readonly holder: string;
  /**
   * Waits until this instance holds the lease and keeps renewing it from then on. Resolves true
   * once it is held, false when `signal` aborts first.
   */
  acquire(signal?: AbortSignal): Promise<boolean>;
  /** Resolves (with the reason, already logged) if the lease is lost while held. */
  readonly lost: Promise<string>;
  /** Stops renewing and frees the lease if it is still ours, so a waiting instance takes over at once. */
  release(): Promise<void>;
}

const SECOND = 1000;
const DEFAULTS = { ttlMs: 30 * SECOND, renewEveryMs: 10 * SECOND, marginMs: 5 * SECOND, retryEveryMs: 5 * SECOND, remindEveryMs: 60 * 60 * SECOND };
/** There is one engine per database: the lease is row 1. */
const LEASE_ID = 1;

type LeaseRow = typeof engineLease.$inferSelect;

export function defaultLeaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

export function createEngineLease(d: EngineLeaseDeps, options: EngineLeaseOptions = {}): EngineLease {
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as typeof DEFAULTS;
  const holder = options.holder ?? defaultLeaseHolder();
  const { db } = d.database;
  /** The expiry this instance last wrote: past `expiresAt - marginMs` it no longer counts on the lease. */
  let expiresAt = 0;
  let state: "waiting" | "held" | "lost" | "released" = "waiting";
  let nextReminderAt: number | null = null;
  let markHeld!: () => void;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  let markLost!: (reason: string) => void;
  const lost = new Promise<string>((resolve) => (markLost = resolve));

  const current = async (): Promise<LeaseRow | null> => (await db.select().from(engineLease).where(eq(engineLease.id, LEASE_ID)))[0] ?? null;

  /** Takes the lease in one statement if nobody holds it or it has expired; true when it is ours. */
  async function tryTake(now: number): Promise<boolean> {
    const until = now + o.ttlMs;
    const taken = await db
      .insert(engineLease)
      .values({ id: LEASE_ID, holder, takenAt: now, renewedAt: now, expiresAt: until })
      .onConflictDoUpdate({
        target: engineLease.id,
        set: { holder, takenAt: now, renewedAt: now, expiresAt: until },
        // Only an expired lease changes hands; a live one is left as it is and nothing is returned.
        setWhere: lte(engineLease.expiresAt, now),
      })
      .returning({ holder: engineLease.holder });
    if (taken[0]?.holder !== holder) return false;
    expiresAt = until;
    return true;
  }

  /** Moves the expiry on, only while the row is still ours and unexpired; false when it is not. */
  async function renew(now: number): Promise<boolean> {
    const until = now + o.ttlMs;
    const renewed = await db
      .update(engineLease)
      .set({ renewedAt: now, expiresAt: until })
      .where(and(eq(engineLease.id, LEASE_ID), eq(engineLease.holder, holder), gt(engineLease.expiresAt, now)))
      .returning({ expiresAt: engineLease.expiresAt });
    if (renewed.length === 0) return false;
    expiresAt = until;
    return true;
  }

  /** When the holder renews next: its interval, but never past the moment it would give the lease up. */
  const nextRenewalAt = (now: number) => Math.min(now + o.renewEveryMs, expiresAt - o.marginMs);

  function loseLease(reason: string, now: number): number {
    state = "lost";
    loop.handle.failed(new Error(reason), now);
    d.logger.error(`Teebox lost the engine lease: ${reason}. Its jobs stop now; another instance may run them.`, { holder });
    markLost(reason);
    // Never taken again by this process: the loop ends after this pass (not awaited here: it waits
    // for this very pass), and a supervisor starts the process again as one that waits.
    void loop.stop();
    return now + o.remindEveryMs;
  }

  /** While waiting: takes the lease when it is free, else says so (once, then rarely) and looks again. */
  async function waitPass(now: number): Promise<number> {
    let row = await current();
    if ((!row || row.expiresAt <= now) && (await tryTake(now))) {
      state = "held";
      d.logger.info("this Teebox holds the engine lease and runs the jobs", { holder, expiresAt: new Date(expiresAt).toISOString() });
      markHeld();
      return nextRenewalAt(now);
    }
    row ??= await current();
    if (nextReminderAt === null || now >= nextReminderAt) {
      d.logger.warn(
        nextReminderAt === null
          ? "Another Teebox runs the jobs against this database: this one serves nothing and waits to take over when its lease ends"
          : "Still waiting for the other Teebox's engine lease to end",
        { holder, heldBy: row?.holder ?? null, leaseExpiresAt: row ? new Date(row.expiresAt).toISOString() : null },
      );
      nextReminderAt = now + o.remindEveryMs;
    }
    return Math.min(now + o.retryEveryMs, row && row.expiresAt > now ? row.expiresAt : Infinity);
  }

  /** While held: renews, or gives the lease up when it can no longer count on it. */
  async function holdPass(now: number): Promise<number> {
    // Checked before any write: after a long pause this instance must not act as the holder.
    if (now >= expiresAt - o.marginMs) return loseLease(`it was not renewed in time (it expired at ${new Date(expiresAt).toISOString()})`, now);
    try {
      if (!(await renew(now))) return loseLease("another instance took it over, or it expired", now);
    } catch (error) {
      // The database did not answer: tried again at the next pass, until the margin runs out.
      d.logger.warn("the engine lease could not be renewed; trying again", { holder, error });
      loop.handle.failed(error, now);
      return Math.min(now + o.retryEveryMs, expiresAt - o.marginMs);
    }
    return nextRenewalAt(now);
  }

  /** Deletes the row if it is still ours, so an instance that waits takes over at its next look. */
  async function freeRow(): Promise<void> {
    try {
      await db.delete(engineLease).where(and(eq(engineLease.id, LEASE_ID), eq(engineLease.holder, holder)));
    } catch (error) {
      // It then simply expires.
      d.logger.warn("the engine lease could not be released; it will expire instead", { holder, error });
    }
  }

  const loop = createJobLoop(d, {
    name: "engine lease",
    // A pass that fails (the database did not answer while waiting) is tried again at the interval.
    intervalMs: o.retryEveryMs,
    floorMs: Math.min(o.retryEveryMs, o.renewEveryMs, SECOND),
    async pass() {
      const now = d.clock.now();
      if (state === "waiting") return waitPass(now);
      if (state === "held") return holdPass(now);
      return now + o.remindEveryMs;
    },
  });

  return {
    holder,
    async acquire(signal) {
      if (signal?.aborted) return false;
      loop.start();
      const aborted = new Promise<"aborted">((resolve) => signal?.addEventListener("abort", () => resolve("aborted"), { once: true }));
      if ((await Promise.race([held.then(() => "held" as const), aborted])) === "held") return true;
      // A pass in flight finishes first: if it took the lease meanwhile, it is let go at once.
      await loop.stop();
      const tookIt = state === "held";
      state = "released";
      if (tookIt) await freeRow();
      return false;
    },
    lost,
    async release() {
      const wasHeld = state === "held";
      state = "released";
      await loop.stop();
      if (wasHeld) await freeRow();
    },
  };
}
