/**
 * Members' stored club passwords, sealed with the secret key: opened only to sign in at the club,
 * and when this key cannot open one (a restore without its key file, a changed SECRET_KEY) the
 * member, the admin's monitor and the start-up log each get one clear sentence, never a crypto message.
 */
import { isNotNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { AppError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import { canOpen, UnreadableSecretError, type SecretBox } from "../lib/secret-box.ts";

export const CLUB_PASSWORD_UNREADABLE = {
  message: "Your club password could not be read; enter it again in your profile.",
  errorKey: "club.password_unreadable",
} as const;

/** The member's stored club password, or a clear answer when this key cannot open it. */
export function openClubPassword(deps: { secretBox: Pick<SecretBox, "open"> }, sealed: string): string {
  try {
    return deps.secretBox.open(sealed);
  } catch (error) {
    if (error instanceof UnreadableSecretError) throw new AppError(400, CLUB_PASSWORD_UNREADABLE.message, CLUB_PASSWORD_UNREADABLE.errorKey);
    throw error;
  }
}

/** Members whose stored club password this key cannot open. */
export async function findUnreadableClubPasswords(deps: { database: { db: Db }; secretBox: SecretBox }): Promise<string[]> {
  const rows = await deps.database.db.select({ username: users.username, sealed: users.clubPasswordSealed }).from(users).where(isNotNull(users.clubPasswordSealed));
  return rows.filter((r) => !canOpen(deps.secretBox, r.sealed as string)).map((r) => r.username);
}

/** One clear line at start-up when stored club passwords cannot be read. */
export async function reportUnreadableClubPasswords(deps: { database: { db: Db }; secretBox: SecretBox; logger: Logger }): Promise<void> {
  const unreadable = await findUnreadableClubPasswords(deps);
  if (unreadable.length === 0) return;
  deps.logger.error(
    `${unreadable.length} stored club password(s) cannot be decrypted with the current key (restored without its key file, or SECRET_KEY changed); those members must enter their club password again in their profile`,
    { members: unreadable.slice(0, 20) },
  );
}
