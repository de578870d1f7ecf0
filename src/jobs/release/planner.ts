/**
 * Planning what is due: the instants of the pending requests, and when each batch must start
 * preparing (`prepareLeadMs` before the instant on the club's clock).
 */
import { manilaDate } from "../../domain/manila-time.ts";
import { disabledMembers, loadRequestsByStatus, unholdRequest } from "../../lifecycle/request-lifecycle.ts";
import { reason } from "../../domain/request-reasons.ts";
import { finishFailed } from "./outcomes.ts";
import { ensureOffset } from "./prepare.ts";
import type { ReleaseRuntime } from "./runtime.ts";
import { createJobLoop, type JobLoop } from "../loop.ts";

/** The longest the planner sleeps before looking again, whatever is queued. */
const MAX_PLAN_SLEEP_MS = 60 * 60_000;

/** Two planning passes never start closer than this, whatever a stale instant asks for. */
const PLAN_FLOOR_MS = 250;

/** The release engine's planning, on the one job loop (src/jobs/loop.ts) as the job "release engine". */
export class Planner {
  private readonly jobLoop: JobLoop;

  constructor(
    private readonly rt: ReleaseRuntime,
    private readonly runBatch: (releaseAt: number) => Promise<void>,
  ) {
    this.jobLoop = createJobLoop(rt.deps, {
      name: "release engine",
      pass: async () => {
        const nextAt = await this.launchDueBatches();
        return Math.min(nextAt ?? Number.POSITIVE_INFINITY, rt.now() + MAX_PLAN_SLEEP_MS);
      },
      intervalMs: MAX_PLAN_SLEEP_MS,
      floorMs: PLAN_FLOOR_MS,
      // Waiting for the next instant is waiting on the clock: tests see the engine idle then.
      onWait: (waiting) => rt.park(waiting),
    });
    rt.job = this.jobLoop.handle;
  }

  /** A request was stored, edited or cancelled: plan again. */
  wake(): void {
    this.jobLoop.wake();
  }

  /** The planning loop, run as one of the engine's tasks; ends once stopped. */
  loop(): Promise<void> {
    return this.jobLoop.run();
  }

  stop(): Promise<void> {
    return this.jobLoop.stop();
  }

  /**
   * Whether the release at `releaseAt` (club clock) will be prepared in time: it is being prepared,
   * or the planner's next look comes no later than its preparation must begin.
   */
  isArmedFor(releaseAt: number): boolean {
    const { rt } = this;
    if (!rt.isRunning) return false;
    if (rt.preparing.has(releaseAt)) return true;
    const next = this.jobLoop.nextPassAt();
    const prepareAt = releaseAt - (rt.measured?.offsetMs ?? 0) - rt.settings.prepareLeadMs;
    // Mid-pass the planner is looking right now.
    if (next === null) return this.jobLoop.isRunning();
    return next <= Math.max(prepareAt, rt.now()) + PLAN_FLOOR_MS;
  }

  /** Starts a batch for every release instant whose preparation is due; returns when to look next. */
  private async launchDueBatches(): Promise<number | null> {
    const { rt } = this;
    let nextAt = await this.settleHeld();
    const pending = await loadRequestsByStatus(rt.deps.database.db, "pending");
    // Instants are on the club's clock: plan on a measurement of it, not on ours (a club clock
    // far off ours would otherwise be prepared for late). Unmeasurable, ours stands in.
    if (pending.length > 0 && !rt.measured) await ensureOffset(rt, "coarse");
    const offsetMs = rt.measured?.offsetMs ?? 0;
    rt.board.forgetBefore(manilaDate(rt.clubNow()));
    for (const releaseAt of new Set(pending.map((r) => r.releaseAt))) {
      if (rt.preparing.has(releaseAt)) continue;
      const prepareAt = releaseAt - offsetMs - rt.settings.prepareLeadMs;
      if (prepareAt <= rt.now()) {
        rt.preparing.add(releaseAt);
        rt.spawn(`release ${releaseAt}`, () => this.runBatch(releaseAt));
      } else {
        nextAt = nextAt === null ? prepareAt : Math.min(nextAt, prepareAt);
      }
    }
    return nextAt;
  }

  /**
   * Held requests (their member disabled): back to pending when the member is enabled before the
   * release; failed with the reason once the release passes while still disabled. Returns when
   * the next held request's release passes, to look again then.
   */
  private async settleHeld(): Promise<number | null> {
    const { rt } = this;
    const { db } = rt.deps.database;
    const held = await loadRequestsByStatus(db, "held");
    if (held.length === 0) return null;
    const disabled = await disabledMembers(db, [...new Set(held.map((r) => r.userId))]);
    let nextAt: number | null = null;
    for (const request of held) {
      const isReleased = request.releaseAt <= rt.clubNow();
      if (!disabled.has(request.userId) && !isReleased) {
        rt.deps.notifier.publish(await unholdRequest(db, request.id, rt.now()));
      } else if (isReleased) {
        await finishFailed(rt, request, reason("bookings.reason.member_disabled", { date: request.playDate }));
      } else {
        const at = request.releaseAt - (rt.measured?.offsetMs ?? 0);
        nextAt = nextAt === null ? at : Math.min(nextAt, at);
      }
    }
    return nextAt;
  }
}
