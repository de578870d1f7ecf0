/**
 * What the page readers are told: Teebox's courses with their aliases, so the club's own names
 * ('THE MASTERS') map to them, and a log line for anything a reader skipped. Kept in memory and
 * refreshed in the background, since the readers are synchronous.
 */
import type { Db } from "../db/client.ts";
import { courses } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { NumericDateOrder, PageReadOptions } from "./text.ts";

/** Courses are read again at most this often for the page readers (an admin's rename or alias shows within it). */
const COURSE_NAMES_TTL_MS = 60_000;

export function createCourseReading(db: Db, logger: Logger, clock: Clock, numericDateOrder: NumericDateOrder | null = null): () => PageReadOptions {
  const report = (problem: string) => logger.warn("club page read with a gap", { problem });
  let current: PageReadOptions = { report, numericDateOrder };
  let loadedAt = Number.NEGATIVE_INFINITY;
  return () => {
    // On Teebox's clock, as every promise about time is (a simulated one in a soak).
    if (clock.now() - loadedAt > COURSE_NAMES_TTL_MS) {
      loadedAt = clock.now();
      db.select({ id: courses.id, name: courses.name, aliases: courses.aliases })
        .from(courses)
        .then((rows) => {
          current = rows.length > 0 ? { courses: rows.map((r) => ({ id: r.id, name: r.name, aliases: r.aliases ?? [] })), report, numericDateOrder } : { report, numericDateOrder };
        })
        .catch((error: unknown) => logger.warn("course names for the club's pages could not be read", { error }));
    }
    return current;
  };
}
