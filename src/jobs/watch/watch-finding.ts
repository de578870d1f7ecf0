/**
 * Where freed slots come from: the scraper's stored sheets (its own pace), and a focused poll of
 * only the watched sheets, each sheet at most once per `watch_poll_seconds` so the club is not
 * hammered. A sheet just polled is the truth over the stored one.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { teeTimeSlots } from "../../db/schema.ts";
import type { MemberSessions } from "../../club/member-sessions.ts";
import { isCourseActiveOn, type Course } from "../../domain/booking-rules.ts";
import type { FreeSlot } from "../../domain/watches.ts";
import type { WatchRow } from "../../lifecycle/watch-lifecycle.ts";

const sheetKey = (date: string, courseId: string) => `${date}|${courseId}`;

/** The (date, course) sheets the watches need, each with the watch whose member reads it (the earliest). */
export function watchedSheets(watches: readonly WatchRow[], courses: readonly Course[]): Map<string, { date: string; courseId: string; readerUserId: number }> {
  const sheets = new Map<string, { date: string; courseId: string; readerUserId: number }>();
  for (const watch of watches) {
    const ids = watch.courseId !== null ? [watch.courseId] : courses.filter((c) => isCourseActiveOn(c, watch.playDate)).map((c) => c.id);
    for (const courseId of ids) {
      const key = sheetKey(watch.playDate, courseId);
      if (!sheets.has(key)) sheets.set(key, { date: watch.playDate, courseId, readerUserId: watch.userId });
    }
  }
  return sheets;
}

/** A free slot with when the sheet that showed it was read. */
export type SeenSlot = FreeSlot & { seenAt: number };

export interface SheetReading {
  slots: SeenSlot[];
  polled: number;
}

export interface Finder {
  /** The free slots of the watched sheets now: polled ones where a poll was due, stored ones else. */
  freeSlots(db: Db, sessions: MemberSessions, watches: readonly WatchRow[], courses: readonly Course[], now: number, pollEveryMs: number): Promise<SheetReading>;
  /** A slot of a polled sheet was just taken (by a watch, or found taken): it is no longer free there. */
  markTaken(slot: FreeSlot): void;
  /** When the next poll of a watched sheet falls due (null: none polled yet). */
  nextPollAt(pollEveryMs: number): number | null;
  /** Forgets the polls of sheets these watches no longer need (every pass, even one with nothing to do). */
  keepOnly(watches: readonly WatchRow[], courses: readonly Course[]): void;
}

export function createFinder(onPollError: (error: unknown, sheet: string) => void): Finder {
  const polled = new Map<string, { at: number; slots: FreeSlot[] }>();
  return {
    markTaken(slot) {
      const poll = polled.get(sheetKey(slot.date, slot.courseId));
      if (poll) poll.slots = poll.slots.filter((s) => s.time !== slot.time);
    },
    nextPollAt(pollEveryMs) {
      let next: number | null = null;
      for (const { at } of polled.values()) next = next === null ? at + pollEveryMs : Math.min(next, at + pollEveryMs);
      return next;
    },
    keepOnly(watches, courses) {
      const sheets = watchedSheets(watches, courses);
      for (const key of polled.keys()) if (!sheets.has(key)) polled.delete(key);
    },
    async freeSlots(db, sessions, watches, courses, now, pollEveryMs) {
      const sheets = watchedSheets(watches, courses);
      for (const key of polled.keys()) if (!sheets.has(key)) polled.delete(key);
      let count = 0;
      for (const [key, sheet] of sheets) {
        const last = polled.get(key);
        if (last && now - last.at < pollEveryMs) continue;
        try {
          const session = await sessions.forMember(sheet.readerUserId);
          // Skipped to the next poll when the club budget is spent (decision 145).
          const read = await session.fetchTeeSheet(sheet.date, sheet.courseId, { pace: "skip" });
          count++;
          const slots = read.slots.filter((s) => s.status === "AVAILABLE").map((s) => ({ date: sheet.date, courseId: sheet.courseId, time: s.time, slotId: s.slotId }));
          polled.set(key, { at: now, slots });
        } catch (error) {
          // Marked as read anyway: a club in trouble is not asked again before the next poll is due.
          polled.set(key, { at: now, slots: last?.slots ?? [] });
          onPollError(error, key);
        }
      }
      const dates = [...new Set([...sheets.values()].map((s) => s.date))];
      const stored =
        dates.length === 0
          ? []
          : await db
              .select()
              .from(teeTimeSlots)
              .where(and(inArray(teeTimeSlots.date, dates), eq(teeTimeSlots.status, "AVAILABLE")));
      const slots: SeenSlot[] = [];
      for (const [key, sheet] of sheets) {
        const poll = polled.get(key);
        const storedHere = stored.filter((r) => r.date === sheet.date && r.courseId === sheet.courseId);
        // The scraper's sheet counts only when it was read after our last poll of it.
        const isStoredNewer = storedHere.length > 0 && (!poll || storedHere[0].scrapedAt > poll.at);
        if (isStoredNewer) slots.push(...storedHere.map((r) => ({ date: r.date, courseId: r.courseId, time: r.time, slotId: r.slotId, seenAt: r.scrapedAt })));
        else if (poll) slots.push(...poll.slots.map((s) => ({ ...s, seenAt: poll.at })));
      }
      return { slots, polled: count };
    },
  };
}
