/**
 * The mail job: sends the outbox's queued messages through the SMTP server, one at a time, in its
 * own loop. Nothing waits for it: the notifier only writes the outbox and wakes this job, so a
 * slow or dead mail server never delays a booking (least of all the release engine).
 *
 * Each message is claimed before it is sent (its attempt counted, its next try moved a claim's
 * length on), so a crash mid-send tries it again later rather than never; a failure is tried
 * again after a growing delay, and after the last attempt (or a refusal that will not change,
 * such as an unknown recipient) it is marked failed with the server's answer. Messages queued
 * while no SMTP server was configured stay in the outbox, marked as not sent; those older than
 * `maxAgeMs` when a server is configured are marked failed rather than sent days late.
 */
import { and, asc, eq, lte, min } from "drizzle-orm";
import type { AppDatabase } from "../db/client.ts";
import { mailOutbox } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { MailError, type MailTransport } from "../mail/transport.ts";
import type { JobRegistry } from "./registry.ts";
import { createJobLoop, nextOutboxPassAt } from "./loop.ts";

export interface MailSenderDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
}

export interface MailSenderOptions {
  /** Where messages go; null (no SMTP_URL) keeps them in the outbox. */
  transport?: MailTransport | null;
  /** The From of every message (MAIL_FROM). */
  from?: string | null;
  /** Attempts per message before it is marked failed. Default 5. */
  maxAttempts?: number;
  /** The wait after the 1st, 2nd … failed attempt (the last one repeats). Default 1, 5, 15, 60 minutes. */
  retryDelaysMs?: number[];
  /** How long a claimed message waits before it is tried again when its send never finished. Default 10 minutes. */
  claimMs?: number;
  /** A queued message older than this is not sent any more. Default 2 days. */
  maxAgeMs?: number;
  /** Look at the outbox at least this often, woken or not. Default 1 minute. */
  pollMs?: number;
  /** Messages read per round. Default 20. */
  batch?: number;
}

export interface MailSender {
  /** True when an SMTP server is configured. */
  readonly isConfigured: boolean;
  /** The server messages go to (no password), or null. */
  describe(): string | null;
  start(): void;
  /** Stops the loop; a send in flight is abandoned and its message tried again later. */
  stop(): Promise<void>;
  /** Something was queued: look now. Never waits and never throws. */
  wake(): void;
  /** Resolves when no round is running (tests). */
  idle(): Promise<void>;
  /** One round over the due messages now; the number handed to the server or given up (tests). */
  sendDue(): Promise<number>;
}

const MINUTE = 60_000;
const DEFAULTS = {
  maxAttempts: 5,
  retryDelaysMs: [MINUTE, 5 * MINUTE, 15 * MINUTE, 60 * MINUTE],
  claimMs: 10 * MINUTE,
  maxAgeMs: 2 * 24 * 60 * MINUTE,
  pollMs: MINUTE,
  batch: 20,
};

type OutboxRow = typeof mailOutbox.$inferSelect;

export function createMailSender(d: MailSenderDeps, options: MailSenderOptions = {}): MailSender {
  const transport = options.transport ?? null;
  const from = options.from ?? null;
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as typeof DEFAULTS;
  const db = d.database.db;
  let round: Promise<number> | null = null;
  let isRoundWanted = false;

  const delayAfter = (attempt: number) => o.retryDelaysMs[Math.min(attempt, o.retryDelaysMs.length) - 1] ?? MINUTE;

  async function finish(row: OutboxRow, set: Partial<OutboxRow>): Promise<void> {
    await db.update(mailOutbox).set(set).where(eq(mailOutbox.id, row.id));
  }

  async function sendOne(row: OutboxRow): Promise<void> {
    const now = d.clock.now();
    if (now - row.createdAt > o.maxAgeMs) {
      await finish(row, { state: "failed", lastError: `not sent: queued ${Math.round((now - row.createdAt) / 3_600_000)} hours ago, too late to send` });
      return;
    }
    // The claim: only one sender gets a message, and an unfinished send is tried again after claimMs.
    const [claimed] = await db
      .update(mailOutbox)
      .set({ attempts: row.attempts + 1, nextAttemptAt: now + o.claimMs })
      .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.state, "queued"), eq(mailOutbox.attempts, row.attempts)))
      .returning();
    if (!claimed) return;
    try {
      await transport!.send({ from: from!, to: row.recipient, subject: row.subject, text: row.body, messageId: `teebox-mail-${row.id}-${row.createdAt}@teebox` }, loop.signal);
      await finish(row, { state: "sent", sentAt: d.clock.now(), lastError: null });
      d.logger.info("mail: sent", { id: row.id, attempt: claimed.attempts });
      loop.handle.ran(d.clock.now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const isFinal = (error instanceof MailError && !error.isTemporary) || claimed.attempts >= o.maxAttempts;
      const at = d.clock.now();
      if (isFinal) await finish(row, { state: "failed", lastError: message });
      else await finish(row, { nextAttemptAt: at + delayAfter(claimed.attempts), lastError: message });
      d.logger.warn(isFinal ? "mail: gave up on a message" : "mail: a send failed, trying again later", { id: row.id, attempt: claimed.attempts, error: message });
      loop.handle.failed(new Error(message), at);
    }
  }

  async function runRound(): Promise<number> {
    if (!transport || !from) return 0;
    let handled = 0;
    for (;;) {
      const due = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.state, "queued"), lte(mailOutbox.nextAttemptAt, d.clock.now())))
        .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
        .limit(o.batch);
      for (const row of due) {
        if (loop.signal.aborted) return handled;
        await sendOne(row);
        handled++;
      }
      if (due.length < o.batch || loop.signal.aborted) break;
    }
    // The job's status is its last send's: errored after a failure until a message goes out.
    return handled;
  }

  /** Starts a round, or asks the running one to look once more when it ends. */
  function kick(): Promise<number> {
    if (round) {
      isRoundWanted = true;
      return round;
    }
    const run = (async () => {
      let handled = 0;
      do {
        isRoundWanted = false;
        handled += await runRound().catch((error) => {
          d.logger.error("mail: the outbox could not be read", { error });
          loop.handle.failed(error, d.clock.now());
          return 0;
        });
      } while (isRoundWanted && !loop.signal.aborted);
      return handled;
    })().finally(() => {
      round = null;
    });
    round = run;
    return run;
  }

  async function nextDueAt(): Promise<number | null> {
    const [row] = await db
      .select({ at: min(mailOutbox.nextAttemptAt) })
      .from(mailOutbox)
      .where(eq(mailOutbox.state, "queued"));
    return row?.at ?? null;
  }

  /** The next pass comes when the earliest queued message falls due, at most `pollMs` away. */
  const loop = createJobLoop(d, {
    name: "mail sender",
    pass: async () => {
      await kick();
      const dueAt = await nextDueAt().catch(() => null);
      return nextOutboxPassAt(d.clock.now(), o.pollMs, dueAt);
    },
    intervalMs: o.pollMs,
    floorMs: Math.min(o.pollMs, 1000),
    // Its health is its last send's (errored after a failure until a message goes out).
    reportsOwnOutcome: true,
  });

  return {
    isConfigured: transport !== null && from !== null,
    describe: () => transport?.describe() ?? null,
    start() {
      if (transport) loop.start();
    },
    async stop() {
      await loop.stop();
      await round;
    },
    wake() {
      if (!loop.isRunning()) return;
      void kick();
      loop.wake();
    },
    async idle() {
      while (round) await round;
    },
    sendDue: () => kick(),
  };
}
