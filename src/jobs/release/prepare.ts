/**
 * Ahead of a release: fresh club sessions for every member due, the club clock's offset, and how
 * the club names the slots of each course, so nothing is left to ask the club at the instant.
 */
import { measureClockOffset, type ClockOffset } from "../../club/clock-offset.ts";
import { addDays, manilaDate } from "../../domain/manila-time.ts";
import type { RequestRow } from "../../lifecycle/request-lifecycle.ts";
import { applySlotIdTemplate, learnSlotIdTemplate } from "./slot-ids.ts";
import { describeError, type OffsetPrecision, type ReleaseDeps, type ReleaseRuntime } from "./runtime.ts";

/** At most this many connections are opened ahead of a release. */
const WARM_CONNECTIONS = 32;

/** The precision a fine measurement aims at; one this close is not measured again before it ages. */
const FINE_UNCERTAINTY_MS = 1;

export function defaultMeasureOffset(deps: ReleaseDeps, precision: OffsetPrecision = "fine"): Promise<ClockOffset> {
  // Planning needs only a rough offset, quickly (a late request must not wait for it).
  if (precision === "coarse") return measureClockOffset(deps.club, { clock: deps.clock, targetUncertaintyMs: 250, maxProbes: 5, probesPerRound: 4 });
  // Loopback and nearby servers answer within a millisecond or two, so the offset can be pinned to
  // about one. A busy moment widens a probe; up to ~30 one-second rounds (well inside the 90 s lead)
  // keep trying until a quiet one pins it, since every post waits out the uncertainty so as never
  // to be early.
  return measureClockOffset(deps.club, { clock: deps.clock, targetUncertaintyMs: FINE_UNCERTAINTY_MS, maxProbes: 121, probesPerRound: 4 });
}

export async function prepareRelease(rt: ReleaseRuntime, rows: RequestRow[]): Promise<void> {
  const { sessions, logger } = rt.deps;
  const userIds = [...new Set(rows.map((r) => r.userId))];
  await Promise.all(
    userIds.map(async (userId) => {
      try {
        await (await sessions.forMember(userId)).renew();
      } catch (error) {
        // The attempt itself reports the reason to the member; here it is only noted.
        logger.warn("release: member sign-in failed ahead of a release", { userId, error: describeError(error) });
      }
    }),
  );
  await ensureOffset(rt, "fine");
  const firstByCourse = new Map<string, RequestRow>();
  for (const row of rows) if (!firstByCourse.has(row.courseId)) firstByCourse.set(row.courseId, row);
  await Promise.all([...firstByCourse.values()].map((row) => learnTemplate(rt, row)));
}

export async function ensureOffset(rt: ReleaseRuntime, precision: OffsetPrecision): Promise<void> {
  const isFresh = rt.measured !== null && rt.now() - rt.measured.measuredAt < rt.settings.offsetMaxAgeMs;
  const isCloseEnough = precision === "coarse" || (rt.measured !== null && (rt.measured.precision === "fine" || rt.measured.uncertaintyMs <= FINE_UNCERTAINTY_MS));
  if (isFresh && isCloseEnough) return;
  if (rt.measuring) await rt.measuring;
  if (precision === "coarse" && rt.measured) return;
  rt.measuring ??= (async () => {
    try {
      const offset = await rt.measureOffset(rt.deps, precision);
      rt.measured = { ...offset, measuredAt: rt.now(), precision };
      rt.deps.logger.info("release: club clock measured", { offsetMs: offset.offsetMs, uncertaintyMs: offset.uncertaintyMs, sendAheadMs: offset.sendAheadMs ?? 0 });
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
      const sheet = await session.fetchTeeSheet(date, row.courseId);
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
  await Promise.allSettled(Array.from({ length: Math.min(count, WARM_CONNECTIONS) }, () => rt.deps.club.clubTime()));
}
