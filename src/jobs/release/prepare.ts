/**
 * Ahead of a release: fresh club sessions for every member due, the club clock's offset, and how
 * the club names the slots of each course, so nothing is left to ask the club at the instant.
 */
import { measureClockOffset, type ClockOffset } from "../../club/clock-offset.ts";
import { addDays, manilaDate } from "../../domain/manila-time.ts";
import type { RequestRow } from "../../lifecycle/request-lifecycle.ts";
import type { Clock } from "../../lib/clock.ts";
import { applySlotIdTemplate, learnSlotIdTemplate } from "./slot-ids.ts";
import { describeError, type MeasureBounds, type OffsetPrecision, type ReleaseDeps, type ReleaseRuntime } from "./runtime.ts";

/** At most this many connections are opened ahead of a release. */
const WARM_CONNECTIONS = 32;

/**
 * What a release's allowance at the club counts (decision 196): per request due, one sign-in (the
 * login form, the credentials, the home page), one post for each time on its list (up to ten), and
 * one read of the member's bookings to settle a post left unanswered; per release, the fine clock
 * measurement's probes, the connections opened ahead, and a week of one course's sheets to learn
 * its slot ids.
 */
const SIGN_IN_REQUESTS = 3;
const POSTS_COUNTED_PER_REQUEST = 10;
const SETTLING_READS_PER_REQUEST = 1;
const FINE_MAX_PROBES = 121;
const SHEET_READS_PER_COURSE = 7;
/** An allowance the release did not close (a crash of its task) lapses this long after the instant. */
const ALLOWANCE_LAPSE_MS = 10 * 60_000;

/** The requests a release may send to the club besides its first wave, for these requests due. */
export function releaseAllowance(rows: Pick<RequestRow, "courseId" | "selection">[]): number {
  const courses = new Set(rows.map((r) => r.courseId)).size;
  const perRequest = rows.reduce((sum, r) => sum + SIGN_IN_REQUESTS + Math.min(r.selection.length, POSTS_COUNTED_PER_REQUEST) + SETTLING_READS_PER_REQUEST, 0);
  return perRequest + FINE_MAX_PROBES + WARM_CONNECTIONS + SHEET_READS_PER_COURSE * courses;
}

/**
 * Opens the release's allowance in the club budget: its sign-ins, probes, reads and posts go
 * without waiting behind the club's bucket, which is sized for Teebox at rest. Returns its closing.
 */
export function openReleaseAllowance(rt: ReleaseRuntime, rows: RequestRow[], releaseAt: number): () => void {
  const budget = rt.deps.club.politeness?.budget;
  if (!budget || rows.length === 0) return () => {};
  return budget.allow(releaseAllowance(rows), releaseAt - (rt.measured?.offsetMs ?? 0) + ALLOWANCE_LAPSE_MS);
}

const RELEASE_PACE = { pace: "release" } as const;

/** A measurement this close is not measured again before it ages. */
const FINE_UNCERTAINTY_MS = 1;
/**
 * What a fine measurement aims at. Stamped on a precise clock (decision 202), the interval narrows
 * to about the quickest round trip, a fraction of a millisecond on loopback or a nearby club; with
 * whole-millisecond stamps the target is raised to the millisecond they can show.
 */
const FINE_TARGET_MS = 0.25;

export function defaultMeasureOffset(deps: ReleaseDeps, precision: OffsetPrecision = "fine", bounds: MeasureBounds = {}): Promise<ClockOffset> {
  // Planning needs only a rough offset, quickly (a late request must not wait for it).
  if (precision === "coarse") return measureClockOffset(deps.club, { clock: deps.clock, targetUncertaintyMs: 250, maxProbes: 5, probesPerRound: 4, ...bounds });
  // Loopback and nearby servers answer within a millisecond or two, so the offset can be pinned to
  // a fraction of one. A busy moment widens a probe; up to ~30 one-second rounds (well inside the 90 s lead)
  // keep trying until a quiet one pins it, since every post waits out the uncertainty so as never
  // to be early. The deadline ends it in time for the wave when less time is left (decision 210).
  const club = { clubTime: () => deps.club.clubTime(RELEASE_PACE) };
  return measureClockOffset(club, { clock: deps.clock, targetUncertaintyMs: FINE_TARGET_MS, maxProbes: FINE_MAX_PROBES, probesPerRound: 4, ...bounds });
}

/**
 * Below this much time before the wave must be armed, the clock is measured without waiting for
 * the members' sign-ins: a few rounds of probes pin the offset to a few milliseconds.
 */
const FINE_MEASURE_LEAST_MS = 5_000;

/**
 * Signs the members due in, measures the club clock finely and learns how the club names slots,
 * all by `readyBy` (our clock), when the wave must be armed (decision 210). Ahead of time, the
 * clock is measured once the sign-ins are done (they would widen its probes); close to the instant
 * (a restart), it does not wait for them, its rounds end by `readyBy`, and whatever is still under
 * way then goes on in the background while the wave is armed: a post whose sign-in has not
 * finished waits for its session, the others leave at the instant.
 */
export async function prepareRelease(rt: ReleaseRuntime, rows: RequestRow[], readyBy: number): Promise<void> {
  const signIns = rt.spawn("release sign-ins", () => signInMembers(rt, rows));
  const learned = rt.spawn("release slot ids", async () => {
    await signIns;
    await learnTemplates(rt, rows);
  });
  await awaitUntil(rt, signIns, readyBy - FINE_MEASURE_LEAST_MS);
  await ensureOffset(rt, "fine", readyBy);
  await awaitUntil(rt, learned, readyBy);
}

async function signInMembers(rt: ReleaseRuntime, rows: RequestRow[]): Promise<void> {
  const { sessions, logger } = rt.deps;
  await Promise.all(
    [...new Set(rows.map((r) => r.userId))].map(async (userId) => {
      try {
        await (await sessions.forMember(userId)).renew(RELEASE_PACE);
      } catch (error) {
        // The attempt itself reports the reason to the member; here it is only noted.
        logger.warn("release: member sign-in failed ahead of a release", { userId, error: describeError(error) });
      }
    }),
  );
}

async function learnTemplates(rt: ReleaseRuntime, rows: RequestRow[]): Promise<void> {
  const firstByCourse = new Map<string, RequestRow>();
  for (const row of rows) if (!firstByCourse.has(row.courseId)) firstByCourse.set(row.courseId, row);
  await Promise.all([...firstByCourse.values()].map((row) => learnTemplate(rt, row)));
}

/** Waits for `work`, but no later than `untilMs` (our clock) or the engine's stop; the work goes on. */
async function awaitUntil(rt: ReleaseRuntime, work: Promise<void>, untilMs: number): Promise<void> {
  const timer = new AbortController();
  try {
    await rt.park(Promise.race([work, rt.deps.clock.sleepUntil(untilMs, timer.signal), rt.stopped()]));
  } finally {
    // The sleep goes with the wait: a wait the work ended must not leave a sleeper behind.
    timer.abort();
  }
}

/**
 * A measurement of the club's clock at the precision asked for, unless a fresh one is close enough.
 * `deadlineMs` ends a fine one in time (decision 210); one cut short by it, or by the engine's stop,
 * counts as coarse, and a fresh narrower measurement stands over a wider one.
 */
export async function ensureOffset(rt: ReleaseRuntime, precision: OffsetPrecision, deadlineMs?: number): Promise<void> {
  const isFresh = () => rt.measured !== null && rt.now() - rt.measured.measuredAt < rt.settings.offsetMaxAgeMs;
  const isCloseEnough = precision === "coarse" || (rt.measured !== null && (rt.measured.precision === "fine" || rt.measured.uncertaintyMs <= FINE_UNCERTAINTY_MS));
  if (isFresh() && isCloseEnough) return;
  if (rt.measuring) await rt.measuring;
  if (precision === "coarse" && rt.measured) return;
  rt.measuring ??= (async () => {
    try {
      // Its waits between probes are waits on the clock: a test sees the engine idle in them.
      const clock: Clock = { now: () => rt.deps.clock.now(), sleepUntil: (atMs, signal) => rt.park(rt.deps.clock.sleepUntil(atMs, signal)) };
      const offset = await rt.measureOffset({ ...rt.deps, clock }, precision, { deadlineMs, signal: rt.stopController.signal });
      const current = rt.measured;
      // Both intervals hold the true offset: the narrower one is kept, so a fine measurement cut
      // short after one probe does not widen a coarse one taken a moment ago.
      if (current && isFresh() && current.uncertaintyMs <= offset.uncertaintyMs) return;
      rt.measured = { ...offset, measuredAt: rt.now(), precision: offset.isCutShort ? "coarse" : precision };
      rt.deps.logger.info("release: club clock measured", {
        offsetMs: offset.offsetMs,
        uncertaintyMs: offset.uncertaintyMs,
        sendAheadMs: offset.sendAheadMs ?? 0,
        ...(offset.interval ? { intervalMs: Math.round((offset.interval.hi - offset.interval.lo) * 100) / 100 } : {}),
        ...(offset.isCutShort ? { cutShort: true } : {}),
      });
    } catch (error) {
      rt.deps.logger.warn("release: the club clock could not be measured", { error: describeError(error) });
    } finally {
      rt.measuring = null;
    }
  })();
  await rt.measuring;
}

/** Reads an open sheet of the course (the days before the play date) to learn its slot ids. */
async function learnTemplate(rt: ReleaseRuntime, row: RequestRow): Promise<void> {
  if (rt.templates.has(row.courseId)) return;
  try {
    const session = await rt.deps.sessions.forMember(row.userId);
    for (let back = 1; back <= 7; back++) {
      const date = addDays(row.playDate, -back);
      if (date < manilaDate(rt.clubNow())) break;
      const sheet = await session.fetchTeeSheet(date, row.courseId, RELEASE_PACE);
      if (!sheet.released || sheet.slots.length < 2) continue;
      rt.templates.set(row.courseId, learnSlotIdTemplate(date, sheet.slots));
      return;
    }
  } catch (error) {
    rt.deps.logger.warn("release: could not read an open tee sheet", { course: row.courseId, error: describeError(error) });
  }
}

/** The slot id of a time without asking the club: from live data, or predicted. */
export function knownSlotId(rt: ReleaseRuntime, request: RequestRow, time: string): { slotId: string; isPredicted: boolean } | null {
  const chosen = request.selection.find((s) => s.time === time)?.slotId ?? null;
  if (chosen) return { slotId: chosen, isPredicted: false };
  const template = rt.templates.get(request.courseId);
  return template ? { slotId: applySlotIdTemplate(template, request.playDate, time), isPredicted: true } : null;
}

/** Opens connections to the club ahead of the burst, so no post waits for a handshake. */
export async function warmConnections(rt: ReleaseRuntime, count: number): Promise<void> {
  await Promise.allSettled(Array.from({ length: Math.min(count, WARM_CONNECTIONS) }, () => rt.deps.club.clubTime(RELEASE_PACE)));
}
