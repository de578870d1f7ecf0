/**
 * The readiness check before each release. The day before a release (at the admin's
 * `readiness_check_time`, Manila) and on demand, each pending request is checked as if it were
 * released now: the member's club login really signs in, and src/domain/readiness.ts holds the
 * rest. A problem moves the request to needs_attention and tells the member.
 *
 * What happens at the release to a request still needing attention (decision record 107): shortly
 * before its instant it is checked again; fixed (the member changed their club login, an admin the
 * rule) it goes back to pending and the engine sends it; still wrong, it is not sent, and at the
 * instant it fails with the reason, so the member is never left believing it went out.
 */
import { and, eq, inArray, or } from "drizzle-orm";
import type { AppDatabase } from "../db/client.ts";
import { bookingRequests, users } from "../db/schema.ts";
import type { MemberSessions } from "../club/member-sessions.ts";
import { ClubError } from "../club/errors.ts";
import { addDays, manilaDate, manilaInstant } from "../domain/manila-time.ts";
import { checkReadiness } from "../domain/readiness.ts";
import { reason, renderReason, type RequestReason } from "../domain/request-reasons.ts";
import { DEFAULT_UI_TEXT } from "../domain/ui-text/index.ts";
import type { Clock } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import { clearAttention, failRequest, flagRequest, type RequestRow } from "../lifecycle/request-lifecycle.ts";
import type { Notifier } from "../realtime/notifier.ts";
import { readRules } from "../services/booking-config.service.ts";
import { readSettings } from "../services/settings.service.ts";
import { partnerFindings } from "../services/partners.ts";
import type { JobRegistry } from "./registry.ts";
import { createJobLoop } from "./loop.ts";

export interface ReadinessCheckDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
  sessions: MemberSessions;
  notifier: Notifier;
  /** Tells the release engine a request is pending again. */
  wakeEngine(): void;
}

export interface ReadinessCheckOptions {
  /** Between two looks at the clock. Default 30 seconds. */
  tickMs?: number;
  /** How long before its release a request needing attention is checked again. Default 2 minutes. */
  recheckLeadMs?: number;
}

export interface ReadinessSummary {
  checked: number;
  problems: number;
}

export interface ReadinessCheck {
  start(): void;
  stop(): Promise<void>;
  /** Checks one member's pending (and needing-attention) requests now. */
  checkMember(userId: number): Promise<ReadinessSummary>;
  /** The daily check: every request released tomorrow (Manila). */
  checkReleasingOn(releaseDate: string): Promise<ReadinessSummary>;
  /** One look at the clock: the daily check when due, and the requests whose release is near. */
  tick(): Promise<void>;
}

export function createReadinessCheck(d: ReadinessCheckDeps, options: ReadinessCheckOptions = {}): ReadinessCheck {
  const tickMs = options.tickMs ?? 30_000;
  const recheckLeadMs = options.recheckLeadMs ?? 120_000;
  /** When the daily check last ran (epoch ms): it is due again once today's check time is later. */
  let lastDailyRunAt: number | null = null;

  /** A real sign-in through the member's session: a stored login the club refuses is found now. */
  async function checkLogin(userId: number): Promise<RequestReason | null> {
    try {
      const session = await d.sessions.forMember(userId);
      await session.renew({ pace: "background" });
      return null;
    } catch (error) {
      if (error instanceof AppError && error.errorKey === "club.no_login") return reason("readiness.reason.no_login");
      if (error instanceof ClubError && error.kind === "bad_credentials") return reason("readiness.reason.bad_login");
      // The club being down is not the member's to fix: nothing is marked for it.
      d.logger.warn("readiness: the club could not be reached to check a login", { userId, error: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }

  async function problemsOf(requests: RequestRow[]): Promise<Map<number, RequestReason | null>> {
    const { db } = d.database;
    const out = new Map<number, RequestReason | null>();
    if (requests.length === 0) return out;
    const rules = await readRules(db);
    const memberIds = [...new Set(requests.map((r) => r.userId))];
    const members = await db.select({ id: users.id, memberId: users.memberId }).from(users).where(inArray(users.id, memberIds));
    const logins = new Map<number, RequestReason | null>();
    for (const userId of memberIds) logins.set(userId, await checkLogin(userId));
    const partners = await partnerFindings(db, requests);
    for (const request of requests) {
      const login = logins.get(request.userId) ?? null;
      out.set(
        request.id,
        login ??
          checkReadiness(
            {
              courseId: request.courseId,
              playDate: request.playDate,
              times: request.selection.map((s) => s.time),
              players: request.players,
              selfMemberId: members.find((m) => m.id === request.userId)?.memberId ?? "",
            },
            { courses: rules.courseSchedule, rules: rules.bookingRules.rules, holidays: rules.bookingRules.holidays, windows: rules.allowedWindows },
          ) ??
          partners.get(request.id) ??
          null,
      );
    }
    return out;
  }

  /** Applies the findings: pending → needs_attention with the reason, needs_attention → pending when fixed. */
  async function apply(requests: RequestRow[]): Promise<ReadinessSummary> {
    const { db } = d.database;
    const found = await problemsOf(requests);
    let problems = 0;
    for (const request of requests) {
      const problem = found.get(request.id) ?? null;
      const now = d.clock.now();
      if (problem) {
        problems++;
        const flagged = request.status === "pending" ? await flagRequest(db, request.id, problem, now) : null;
        if (flagged) {
          d.logger.info("request needs attention", { requestId: request.id, reason: problem.key });
          d.notifier.publish(flagged);
        }
      } else if (request.status === "needs_attention") {
        const cleared = await clearAttention(db, request.id, now);
        if (!cleared) continue;
        d.notifier.publish(cleared);
        d.wakeEngine();
      }
    }
    return { checked: requests.length, problems };
  }

  const waiting = (extra: ReturnType<typeof eq>) =>
    d.database.db
      .select()
      .from(bookingRequests)
      .where(and(inArray(bookingRequests.status, ["pending", "needs_attention"]), extra));

  async function checkReleasingOn(releaseDate: string): Promise<ReadinessSummary> {
    const rows = (
      await d.database.db
        .select()
        .from(bookingRequests)
        .where(inArray(bookingRequests.status, ["pending", "needs_attention"]))
    ).filter((r) => manilaDate(r.releaseAt) === releaseDate);
    return apply(rows);
  }

  /**
   * Requests still needing attention near their release: checked again, and failed at the instant.
   * A request sent only if every partner accepted is checked then too, even when it was made after
   * the day's check: its partners' answers are the last word before it leaves.
   */
  async function settleNearRelease(now: number): Promise<void> {
    const { db } = d.database;
    const rows = await db
      .select()
      .from(bookingRequests)
      .where(or(eq(bookingRequests.status, "needs_attention"), and(eq(bookingRequests.status, "pending"), eq(bookingRequests.partnersMustAccept, true))));
    // A pending one is looked at only before its instant: from then on it is the engine's.
    const near = rows.filter((r) => r.releaseAt - now <= recheckLeadMs && (r.status === "needs_attention" || r.releaseAt > now));
    if (near.length === 0) return;
    await apply(near);
    for (const request of near) {
      if (request.releaseAt > now) continue;
      const current = (await db.select().from(bookingRequests).where(eq(bookingRequests.id, request.id)))[0];
      if (current?.status !== "needs_attention") continue;
      const stored = current.reasonKey ? reason(current.reasonKey as RequestReason["key"], current.reasonContext ?? {}) : reason("bookings.reason.other", { message: "" });
      // The problem it still had is this reason's {cause}: never {reason}, the name a notification's
      // line gives the whole reason, or the line would render this reason inside itself.
      const why = reason("readiness.reason.not_fixed", { cause: renderReason(DEFAULT_UI_TEXT[stored.key], stored.context) });
      d.notifier.publish(await failRequest(db, request.id, why, d.clock.now()));
    }
  }

  async function tick(): Promise<void> {
    const now = d.clock.now();
    const today = manilaDate(now);
    const settings = await readSettings(d.database.db);
    // Due at today's check time as it is set now: a time moved later after today's run makes it
    // due again at the new time; one moved earlier than the run does not.
    const dueAt = manilaInstant(today, settings.readiness_check_time);
    if (now >= dueAt && (lastDailyRunAt === null || lastDailyRunAt < dueAt)) {
      lastDailyRunAt = now;
      const summary = await checkReleasingOn(addDays(today, 1));
      d.logger.info("readiness check of tomorrow's releases", { ...summary });
    }
    await settleNearRelease(now);
  }

  const loop = createJobLoop(d, { name: "readiness check", pass: () => tick(), intervalMs: tickMs, floorMs: Math.min(tickMs, 1000) });

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    async checkMember(userId) {
      return apply(await waiting(eq(bookingRequests.userId, userId)));
    },
    checkReleasingOn,
    tick,
  };
}
