/**
 * Teebox's side of the club login: opening a member's stored (sealed) club password to get their
 * club session, checking a login against the club, and telling admins which club is in use.
 */
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { courses, users } from "../../db/schema.ts";
import type { PageReadOptions } from "../../club/text.ts";
import { createClubClient, type ClubClient, type MemberClubSession } from "../../club/client.ts";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import { recordAudit } from "../audit/audit.service.ts";
import { ClubError } from "../../club/errors.ts";
import { AppError } from "../../lib/errors.ts";

/** Written into the data folder in demo mode: the demo club's address and control token. */
export const CLUB_INFO_FILE = "demo-club.json";

export interface ClubInfo {
  mode: "demo" | "live";
  url: string;
}

export interface ClubStatus extends ClubInfo {
  reachable: boolean;
  lastError: string | null;
}

/** The member's club session, opened with their stored club login. */
export async function memberClub(deps: AppDeps, userId: number): Promise<MemberClubSession> {
  const rows = await deps.database.db
    .select({ email: users.clubEmail, sealed: users.clubPasswordSealed })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const row = rows[0];
  if (!row?.email || !row.sealed) {
    throw new AppError(400, "Connect your club account in your profile first.", "club.no_login");
  }
  return deps.club.forMember({ userId, email: row.email, password: deps.secretBox.open(row.sealed) });
}

/** Turns a club failure into the answer a member sees (never a 5xx of ours for the club's trouble). */
export function clubErrorToAppError(error: unknown): AppError {
  if (!(error instanceof ClubError)) throw error;
  switch (error.kind) {
    case "bad_credentials":
      return new AppError(400, "The club did not accept that email and password.", "club.bad_credentials");
    case "unavailable":
      return error.status === undefined
        ? new AppError(504, "The club's booking site did not answer in time. Please try again.", "club.timeout")
        : new AppError(502, "The club's booking site is having trouble. Please try again later.", "club.unavailable");
    case "page_not_understood":
      return new AppError(502, "The club's booking site answered with a page Teebox could not read.", "club.page_not_understood");
    default:
      return new AppError(400, error.message, `club.${error.kind}`);
  }
}

export async function verifyClubLogin(deps: AppDeps, email: string, password: string): Promise<void> {
  try {
    await deps.club.verifyCredentials(email, password);
  } catch (error) {
    throw clubErrorToAppError(error);
  }
}

export async function readClubStatus(deps: AppDeps): Promise<ClubStatus> {
  try {
    await deps.club.clubTime();
    return { ...deps.clubInfo, reachable: true, lastError: null };
  } catch (error) {
    return { ...deps.clubInfo, reachable: false, lastError: error instanceof Error ? error.message : String(error) };
  }
}

/** Courses are read again at most this often for the page readers (an admin's rename or alias shows within it). */
const COURSE_NAMES_TTL_MS = 60_000;

/**
 * What the page readers are told: Teebox's courses with their aliases, so the club's own names
 * ('THE MASTERS') map to them, and a log line for anything a reader skipped. Kept in memory and
 * refreshed in the background, since the readers are synchronous.
 */
function createCourseReading(db: Db, logger: Logger): () => PageReadOptions {
  const report = (problem: string) => logger.warn("club page read with a gap", { problem });
  let current: PageReadOptions = { report };
  let loadedAt = Number.NEGATIVE_INFINITY;
  return () => {
    if (performance.now() - loadedAt > COURSE_NAMES_TTL_MS) {
      loadedAt = performance.now();
      db.select({ id: courses.id, name: courses.name, aliases: courses.aliases })
        .from(courses)
        .then((rows) => {
          current = rows.length > 0 ? { courses: rows.map((r) => ({ id: r.id, name: r.name, aliases: r.aliases ?? [] })), report } : { report };
        })
        .catch((error: unknown) => logger.warn("course names for the club's pages could not be read", { error }));
    }
    return current;
  };
}

/** The club adapter with every member action (login, book, edit, cancel, verify) written to the audit log. */
export function createAuditedClubClient(options: { baseUrl: string; clock: Clock; db: Db; logger: Logger; timeoutMs?: number }): ClubClient {
  const { clock, db, logger } = options;
  return createClubClient({
    baseUrl: options.baseUrl,
    clock,
    timeoutMs: options.timeoutMs,
    reading: createCourseReading(db, logger),
    // At a release every member's first post must leave at once; the scraper paces itself.
    maxConnections: 64,
    onAudit: (entry) => {
      recordAudit(db, {
        at: clock.now(),
        actorUserId: entry.userId,
        action: `club.${entry.action}`,
        target: entry.email,
        outcome: entry.outcome,
        durationMs: Math.round(entry.durationMs),
        detail: entry.detail ?? null,
      }).catch((error) => logger.error("audit write failed", { error }));
    },
  });
}
