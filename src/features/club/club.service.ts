/**
 * Teebox's side of the club login: opening a member's stored (sealed) club password to get their
 * club session, checking a login against the club, and telling admins which club is in use.
 */
import { eq, isNotNull } from "drizzle-orm";
import { canOpen, UnreadableSecretError } from "../../lib/secret-box.ts";
import type { AppDeps } from "../../deps.ts";
import { users } from "../../db/schema.ts";
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
  return deps.club.forMember({ userId, email: row.email, password: openClubPassword(deps, row.sealed) });
}

export const CLUB_PASSWORD_UNREADABLE = {
  message: "Your club password could not be read; enter it again in your profile.",
  errorKey: "club.password_unreadable",
} as const;

/** The member's stored club password, or a clear answer when this key cannot open it. */
export function openClubPassword(deps: Pick<AppDeps, "secretBox">, sealed: string): string {
  try {
    return deps.secretBox.open(sealed);
  } catch (error) {
    if (error instanceof UnreadableSecretError) throw new AppError(400, CLUB_PASSWORD_UNREADABLE.message, CLUB_PASSWORD_UNREADABLE.errorKey);
    throw error;
  }
}

/** Members whose stored club password this key cannot open (a restore without its key, a changed SECRET_KEY). */
export async function findUnreadableClubPasswords(deps: Pick<AppDeps, "database" | "secretBox">): Promise<string[]> {
  const rows = await deps.database.db.select({ username: users.username, sealed: users.clubPasswordSealed }).from(users).where(isNotNull(users.clubPasswordSealed));
  return rows.filter((r) => !canOpen(deps.secretBox, r.sealed as string)).map((r) => r.username);
}

/** One clear line at start-up when stored club passwords cannot be read. */
export async function reportUnreadableClubPasswords(deps: Pick<AppDeps, "database" | "secretBox" | "logger">): Promise<void> {
  const unreadable = await findUnreadableClubPasswords(deps);
  if (unreadable.length === 0) return;
  deps.logger.error(
    `${unreadable.length} stored club password(s) cannot be decrypted with the current key (restored without its key file, or SECRET_KEY changed); those members must enter their club password again in their profile`,
    { members: unreadable.slice(0, 20) },
  );
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

/** The club adapter with every member action (login, book, edit, cancel, verify) written to the audit log. */
export function createAuditedClubClient(options: { baseUrl: string; clock: Clock; db: Db; logger: Logger; timeoutMs?: number }): ClubClient {
  const { clock, db, logger } = options;
  return createClubClient({
    baseUrl: options.baseUrl,
    clock,
    timeoutMs: options.timeoutMs,
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
