/**
 * The push job: hands the push outbox's queued pushes to the browsers' push services, a few at a
 * time, in its own loop (decision 185). Nothing waits for it: the notification recorder only
 * writes the outbox and wakes this job, so a slow or dead push service never delays a booking,
 * least of all the release engine.
 *
 * Like the mail job, each push is claimed before it is sent (its attempt counted, its next try a
 * claim's length on), so a crash mid-send tries it again later rather than never. The service's
 * answer decides what follows: taken (sent); the device is gone (404, 410: the device is removed,
 * with its other queued pushes); try again later (429, 5xx, no answer: growing waits, or the
 * service's Retry-After); refused for good (other 4xx). A push older than its TTL is not sent:
 * the push service would not have kept it either.
 */
import { and, asc, eq, lte, min } from "drizzle-orm";
import type { AppDatabase } from "../db/client.ts";
import { pushOutbox, pushSubscriptions } from "../db/schema.ts";
import type { PushUrgency } from "../domain/notifications.ts";
import { classifyPushAnswer } from "../domain/push.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { createFetchPushTransport, PushNetworkError, retryAfterSeconds, type PushTransport } from "../push/transport.ts";
import { buildPushRequest, topicOf } from "../push/web-push-request.ts";
import type { VapidKeyStore } from "../services/push-keys.ts";
import { removeDevices } from "../services/push-subscriptions.ts";
import { createJobLoop, nextOutboxPassAt } from "./loop.ts";
import type { JobRegistry } from "./registry.ts";

export interface PushSenderDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
  keys: VapidKeyStore;
}

export interface PushSenderOptions {
  /** How pushes reach the push services (default: fetch, 10 s per push). */
  transport?: PushTransport;
  /** The VAPID subject: `mailto:` or `https:` (PUSH_SUBJECT). */
  subject?: string;
  /** Attempts per push before it is marked failed. Default 5. */
  maxAttempts?: number;
  /** The wait after the 1st, 2nd … failed attempt (the last one repeats). Default 30 s, 2, 10, 30 minutes. */
  retryDelaysMs?: number[];
  /** How long a claimed push waits before it is tried again when its send never finished. Default 2 minutes. */
  claimMs?: number;
  /** Look at the outbox at least this often, woken or not. Default 1 minute. */
  pollMs?: number;
  /** Pushes read per round. Default 50. */
  batch?: number;
  /** Pushes in flight at once (to different push services and devices). Default 32. */
  concurrency?: number;
}

export interface PushSender {
  start(): void;
  /** Stops the loop; sends in flight are abandoned and their pushes tried again later. */
  stop(): Promise<void>;
  /** Something was queued: look now. Never waits and never throws. */
  wake(): void;
  /** Resolves when no round is running (tests). */
  idle(): Promise<void>;
  /** One round over the due pushes now; the number handed to a push service or given up (tests). */
  sendDue(): Promise<number>;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** The longest Retry-After believed: a push service asking for more is tried again after this. */
const MAX_RETRY_AFTER_MS = 60 * MINUTE;
/** Teebox's own address for its pushes (PUSH_SUBJECT), when none is configured. */
export const DEFAULT_PUSH_SUBJECT = "mailto:push@teebox.invalid";
const DEFAULTS = {
  maxAttempts: 5,
  retryDelaysMs: [30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE],
  claimMs: 2 * MINUTE,
  pollMs: MINUTE,
  batch: 50,
  concurrency: 32,
};

type DueRow = { push: typeof pushOutbox.$inferSelect; device: typeof pushSubscriptions.$inferSelect | null };

export function createPushSender(d: PushSenderDeps, options: PushSenderOptions = {}): PushSender {
  const transport = options.transport ?? createFetchPushTransport();
  const subject = options.subject ?? DEFAULT_PUSH_SUBJECT;
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([key, v]) => v !== undefined && key in DEFAULTS)) } as typeof DEFAULTS;
  const db = d.database.db;

  const delayAfter = (attempt: number) => o.retryDelaysMs[Math.min(attempt, o.retryDelaysMs.length) - 1] ?? MINUTE;

  async function finish(id: number, set: Partial<typeof pushOutbox.$inferInsert>): Promise<void> {
    await db.update(pushOutbox).set(set).where(eq(pushOutbox.id, id));
  }

  /** A failed attempt: tried again after its wait (or the service's Retry-After), or given up after the last. */
  async function failAttempt(push: DueRow["push"], attempt: number, message: string, retryAfterMs: number | null): Promise<void> {
    const at = d.clock.now();
    const isFinal = attempt >= o.maxAttempts;
    if (isFinal) await finish(push.id, { state: "failed", lastError: message });
    else await finish(push.id, { nextAttemptAt: at + Math.max(delayAfter(attempt), Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)), lastError: message });
    d.logger.warn(isFinal ? "push: gave up on a push" : "push: a send failed, trying again later", { id: push.id, attempt, error: message });
    loop.handle.failed(new Error(message), at);
  }

  async function sendOne({ push, device }: DueRow): Promise<void> {
    const now = d.clock.now();
    if (!device) {
      await finish(push.id, { state: "failed", lastError: "not sent: the device was removed" });
      return;
    }
    if (now - push.createdAt > push.ttlSeconds * SECOND) {
      await finish(push.id, { state: "failed", lastError: `not sent: older than its ${push.ttlSeconds} s to live` });
      return;
    }
    // The claim: only one round gets a push, and an unfinished send is tried again after claimMs.
    const [claimed] = await db
      .update(pushOutbox)
      .set({ attempts: push.attempts + 1, nextAttemptAt: now + o.claimMs })
      .where(and(eq(pushOutbox.id, push.id), eq(pushOutbox.state, "queued"), eq(pushOutbox.attempts, push.attempts)))
      .returning({ attempts: pushOutbox.attempts });
    if (!claimed) return;
    try {
      const keys = await d.keys.get();
      // What is left of its time to live when it leaves: a retried push is not kept longer than the first.
      const ttlSeconds = push.ttlSeconds - Math.floor((now - push.createdAt) / SECOND);
      const request = await buildPushRequest(device, push.payload, { subject, ...keys }, { ttlSeconds, urgency: push.urgency as PushUrgency, topic: topicOf(push.eventId) });
      const answer = await transport.send(request, loop.signal);
      const outcome = classifyPushAnswer(answer.status);
      const said = `${answer.status}${answer.text ? ` ${answer.text.trim()}` : ""}`;
      if (outcome === "sent") {
        const at = d.clock.now();
        await finish(push.id, { state: "sent", sentAt: at, lastError: null });
        await db.update(pushSubscriptions).set({ lastSentAt: at }).where(eq(pushSubscriptions.id, device.id));
        loop.handle.ran(at);
      } else if (outcome === "gone") {
        await finish(push.id, { state: "failed", lastError: `the push service says the device is gone (${said})` });
        await removeDevices(d.database, [device.id], `not sent: the push service said the device is gone (${answer.status})`);
        d.logger.info("push: a device is gone; removed", { id: push.id, status: answer.status });
      } else if (outcome === "refused") {
        await finish(push.id, { state: "failed", lastError: `refused by the push service (${said})` });
        d.logger.warn("push: a push was refused", { id: push.id, status: answer.status, text: answer.text });
        loop.handle.failed(new Error(`refused by the push service (${answer.status})`), d.clock.now());
      } else {
        const waitSeconds = retryAfterSeconds(answer.retryAfter, d.clock.now());
        await failAttempt(push, claimed.attempts, `the push service answered ${said}`, waitSeconds === null ? null : waitSeconds * SECOND);
      }
    } catch (error) {
      if (loop.signal.aborted) return;
      const message = error instanceof PushNetworkError ? error.message : `could not be sent (${error instanceof Error ? error.message : String(error)})`;
      await failAttempt(push, claimed.attempts, message, null);
    }
  }

  /**
   * The pushes being sent: workers (at most `concurrency`) take due pushes from a shared queue,
   * filled by one read at a time whenever it runs dry. A worker stuck on a slow push service
   * holds only its own push: the others go on, and a push queued meanwhile is taken by a free
   * worker (a wake adds workers up to the limit) rather than after the slowest send.
   */
  interface Round {
    queue: DueRow[];
    workers: number;
    handled: number;
    refilling: Promise<void> | null;
    done: Promise<number>;
    end(handled: number): void;
  }
  let round: Round | null = null;
  /** Set by a wake; a read clears it as it starts, so a push queued during a read is read again. */
  let isReadWanted = false;

  async function refill(current: Round): Promise<void> {
    isReadWanted = false;
    const due = await db
      .select({ push: pushOutbox, device: pushSubscriptions })
      .from(pushOutbox)
      .leftJoin(pushSubscriptions, eq(pushOutbox.subscriptionId, pushSubscriptions.id))
      .where(and(eq(pushOutbox.state, "queued"), lte(pushOutbox.nextAttemptAt, d.clock.now())))
      .orderBy(asc(pushOutbox.nextAttemptAt), asc(pushOutbox.id))
      .limit(o.batch);
    // A push another worker took but has not claimed yet may be read again; its claim then fails harmlessly.
    current.queue.push(...due);
  }

  async function next(current: Round): Promise<DueRow | undefined> {
    for (;;) {
      const row = current.queue.shift();
      if (row || loop.signal.aborted) return row;
      current.refilling ??= refill(current).finally(() => {
        current.refilling = null;
      });
      await current.refilling;
      if (current.queue.length === 0 && !isReadWanted) return undefined;
    }
  }

  async function work(current: Round): Promise<void> {
    current.workers++;
    try {
      for (let row = await next(current); row; row = await next(current)) {
        await sendOne(row);
        current.handled++;
      }
    } catch (error) {
      d.logger.error("push: the outbox could not be read", { error });
      loop.handle.failed(error, d.clock.now());
    } finally {
      current.workers--;
      if (current.workers === 0) {
        round = null;
        current.end(current.handled);
      }
    }
  }

  /** Sends what is due: joins the running round with more workers (up to the limit), or starts one. */
  function kick(): Promise<number> {
    isReadWanted = true;
    if (!round) {
      let end: (handled: number) => void = () => {};
      const done = new Promise<number>((resolve) => {
        end = resolve;
      });
      round = { queue: [], workers: 0, handled: 0, refilling: null, done, end };
    }
    const current = round;
    const idle = o.concurrency - current.workers;
    for (let i = 0; i < idle; i++) void work(current);
    return current.done;
  }

  async function nextDueAt(): Promise<number | null> {
    const [row] = await db
      .select({ at: min(pushOutbox.nextAttemptAt) })
      .from(pushOutbox)
      .where(eq(pushOutbox.state, "queued"));
    return row?.at ?? null;
  }

  /** The next pass comes when the earliest queued push falls due, at most `pollMs` away. */
  const loop = createJobLoop(d, {
    name: "push sender",
    pass: async () => {
      await kick();
      const dueAt = await nextDueAt().catch(() => null);
      return nextOutboxPassAt(d.clock.now(), o.pollMs, dueAt);
    },
    intervalMs: o.pollMs,
    floorMs: Math.min(o.pollMs, SECOND),
    // Its health is its last send's (errored after a failure until a push goes out).
    reportsOwnOutcome: true,
  });

  return {
    start() {
      loop.start();
    },
    async stop() {
      await loop.stop();
      await round?.done;
    },
    wake() {
      if (!loop.isRunning()) return;
      void kick();
      loop.wake();
    },
    async idle() {
      while (round) await round.done;
    },
    sendDue: () => kick(),
  };
}
