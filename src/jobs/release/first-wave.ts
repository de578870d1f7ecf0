/**
 * The instant itself: requests made processing with their sessions at hand, their first claims
 * taken and first attempts written as sent, then every first post leaving at once: from the
 * wave's own thread on the system clock (wave-sender.ts), else in one tight loop here.
 */
import type { MemberClubSession, PreparedBooking } from "../../club/client.ts";
import type { RequestPhase } from "../../db/schema.ts";
import { toClubPlayers } from "../../services/club-players.ts";
import { finishFailed, sessionFailure } from "./outcomes.ts";
import { knownSlotId } from "./prepare.ts";
import { disabledMembers, holdRequest, markProcessing, recordAttemptSent, type RequestRow } from "../../lifecycle/request-lifecycle.ts";
import type { DomainEvent } from "../../domain/events.ts";
import type { ReleaseRuntime } from "./runtime.ts";
import type { WireRequest } from "../../club/http.ts";
import { armWave, type ArmedWave } from "./wave-sender.ts";

/** A first attempt written as sent at the release instant, posted by the request's runner. */
export interface PreparedAttempt {
  time: string;
  slotId: string;
  isPredicted: boolean;
  attemptId: number;
  /** The booking post, built before the instant (form, cookies, CSRF token). */
  post: PreparedBooking;
  /** Its place in the wave's own thread, when that thread sends it (null: the main thread does). */
  waveIndex: number | null;
  /** Set when the post is made at the instant; the request's run awaits its answer. */
  launched: { answer: Promise<{ ref: string }>; sentAt(): AttemptSentAt } | null;
}

/** When an attempt's post left, on our clock and on the club's. */
export interface AttemptSentAt {
  firedAtLocal: number;
  firedAtClub: number;
}

export interface RunContext {
  request: RequestRow;
  session: MemberClubSession;
  excluded: Set<string>;
  /** The phase last stored for the request (decision 116). */
  phase?: RequestPhase | null;
  /**
   * Time has passed (a pause, a wait) since the member's status was last read: read it again before
   * the next post. The next time at the instant itself needs no read; the member was read when armed.
   */
  isMemberStale?: boolean;
  /** When the member's status was last read for this request (a turn soon after needs no new read). */
  memberReadAt?: number;
}

/** pending → processing, each with its member's club session; earliest-submitted first. */
export async function armRequests(rt: ReleaseRuntime, rows: RequestRow[]): Promise<RunContext[]> {
  const ordered = [...rows].sort((a, b) => a.submittedAt - b.submittedAt || a.id - b.id);
  const { database, notifier, sessions } = rt.deps;
  const disabled = await disabledMembers(database.db, [...new Set(rows.map((r) => r.userId))]);
  // One transaction for every request's transition: a thousand requests are made ready in a few
  // tens of milliseconds, where one write each took a good part of the half second before the instant.
  const { armed, held } = await database.transaction(async (tx) => {
    const armed: RequestRow[] = [];
    const held: DomainEvent[] = [];
    for (const row of ordered) {
      // A disabled member's request is never sent: held until they are enabled or the release passes.
      if (disabled.has(row.userId)) {
        const hold = await holdRequest(tx, row.id, rt.now());
        if (hold) held.push(hold);
      } else if (await markProcessing(tx, row.id, rt.now(), rt.measured ?? null)) armed.push(row);
    }
    return { armed, held };
  });
  // Told once the transaction has committed: a member never reloads a state that was rolled back.
  for (const event of held) notifier.publish(event);
  if (held.length > 0) rt.replan();
  const contexts: RunContext[] = [];
  for (const row of armed) {
    const request = { ...row, status: "processing" as const };
    try {
      contexts.push({ request, session: await sessions.forMember(request.userId), excluded: new Set() });
    } catch (error) {
      await finishFailed(rt, request, sessionFailure(error));
    }
  }
  return contexts;
}

/**
 * Just before the instant, every request takes its first claim (earliest-submitted first) and
 * its first attempt is written as sent, all in one transaction, so the posts can leave together.
 * The attempts carry the planned instant; the actual one replaces it with the answer.
 */
export async function planFirstWave(rt: ReleaseRuntime, contexts: RunContext[], fireAt: number): Promise<Map<number, PreparedAttempt>> {
  const plannedClub = fireAt + (rt.measured?.offsetMs ?? 0);
  const first: { ctx: RunContext; attempt: PreparedAttempt }[] = [];
  for (const ctx of contexts) {
    const { request } = ctx;
    const choice = rt.board.choose(
      request.id,
      request.playDate,
      request.courseId,
      request.selection.map((s) => s.time),
      ctx.excluded,
    );
    if (choice.kind !== "try") continue;
    const slot = knownSlotId(rt, request, choice.time);
    if (!slot) continue;
    const post = ctx.session.prepareBook({ date: request.playDate, course: request.courseId, slotId: slot.slotId, time: choice.time, players: toClubPlayers(request.players) });
    first.push({ ctx, attempt: { time: choice.time, ...slot, attemptId: 0, post, waveIndex: null, launched: null } });
  }
  await rt.deps.database.transaction(async (tx) => {
    for (const { ctx, attempt } of first) {
      attempt.attemptId = await recordAttemptSent(tx, { requestId: ctx.request.id, time: attempt.time, slotId: attempt.slotId, firedAtClub: plannedClub, firedAtLocal: fireAt });
      rt.noteAttempted(ctx.request.id, attempt.time);
    }
  });
  return new Map(first.map(({ ctx, attempt }) => [ctx.request.id, attempt]));
}

/**
 * Every member's first post leaves at the instant, so the first wave is not held to the adapter's
 * usual count of requests in flight (64); this bounds it still: the connections the wave's thread
 * opens to the club ahead of the instant, one a post (decisions 121, 192). Most clubs accept a few
 * hundred connections from one address; the wave is at most one post per slot of the date.
 */
const FIRST_WAVE_MAX_IN_FLIGHT = 256;

/**
 * Hands the wave's posts to a thread of their own, which sends them at `fireAt` whatever the main
 * thread is doing then (decision 121). A post not built ahead (no session yet) stays with the main thread.
 */
export function armWaveThread(rt: ReleaseRuntime, wave: Map<number, PreparedAttempt>, fireAt: number): ArmedWave | null {
  const posts: WireRequest[] = [];
  for (const attempt of wave.values()) {
    if (!attempt.post.wire) continue;
    attempt.waveIndex = posts.length;
    posts.push(attempt.post.wire);
  }
  return posts.length > 0 ? armWave(fireAt, posts, FIRST_WAVE_MAX_IN_FLIGHT, rt.deps.logger) : null;
}

/**
 * Whether some of the wave's posts leave from the main thread at the instant (no thread of their
 * own, or not built ahead), so that a read answered then could hold them up.
 */
export function sendsOnMainThread(wave: ReadonlyMap<number, PreparedAttempt>): boolean {
  for (const attempt of wave.values()) if (attempt.waveIndex === null) return true;
  return false;
}

/**
 * At the instant, every first post is made in one tight loop, earliest-submitted first; each
 * request's run then takes up its answer. Nothing else runs between two posts. Posts the wave's
 * thread carries have left already (or leave now): here they only join their answers.
 */
export function launchFirstWave(rt: ReleaseRuntime, wave: Map<number, PreparedAttempt>, thread: ArmedWave | null): void {
  for (const attempt of wave.values()) {
    const calledAt: AttemptSentAt = { firedAtLocal: rt.now(), firedAtClub: rt.clubNow() };
    const index = thread ? attempt.waveIndex : null;
    const answer = attempt.post.post(thread && index !== null ? thread.via(index) : undefined);
    // Handled when the request's run awaits it; this only keeps an early failure from being unhandled.
    answer.catch(() => undefined);
    attempt.launched = {
      answer,
      sentAt() {
        const sentMs = thread && index !== null ? thread.sentAt(index) : null;
        // Kept in whole milliseconds, as Date.now() would have read them (decision 202).
        return sentMs === null ? calledAt : { firedAtLocal: Math.floor(sentMs), firedAtClub: Math.floor(rt.clubAtPrecisely(sentMs)) };
      },
    };
  }
}
