/**
 * Members' club sessions: a member's stored (sealed) club login opened into a session of the club
 * adapter. Jobs and features ask this, never the users table and the secret box themselves.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { errorText, textError } from "../lib/errors.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import type { ClubClient, MemberClubSession } from "./client.ts";
import { openClubPassword } from "./club-passwords.ts";

export interface MemberSessions {
  /** The member's club session; a 400 `club.no_login` when no club login is stored. */
  forMember(userId: number): Promise<MemberClubSession>;
  /** Whether the member has a club login stored (a request needs one). */
  hasLogin(userId: number): Promise<boolean>;
}

export const NO_CLUB_LOGIN = { message: errorText("club.no_login"), errorKey: "club.no_login" } as const;

export function createMemberSessions(deps: { db: Db; club: Pick<ClubClient, "forMember">; secretBox: Pick<SecretBox, "open"> }): MemberSessions {
  const loginOf = async (userId: number) => {
    const rows = await deps.db.select({ email: users.clubEmail, sealed: users.clubPasswordSealed }).from(users).where(eq(users.id, userId)).limit(1);
    const row = rows[0];
    return row?.email && row.sealed ? { email: row.email, sealed: row.sealed } : null;
  };
  return {
    async forMember(userId) {
      const login = await loginOf(userId);
      if (!login) throw textError(400, "club.no_login");
      return deps.club.forMember({ userId, email: login.email, password: openClubPassword(deps, login.sealed) });
    },
    async hasLogin(userId) {
      return (await loginOf(userId)) !== null;
    },
  };
}
