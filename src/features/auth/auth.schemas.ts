import { z } from "zod";
import type { Role, UserStatus } from "../../db/schema.ts";

export const loginBodySchema = z.object({
  username: z.string().trim().min(1, "Username is required.").max(100),
  password: z.string().min(1, "Password is required.").max(200),
});

/** The signed-in user as the web app sees it (spec §3). Never a password, never club credentials. */
export interface SessionUser {
  id: number;
  username: string;
  name: string;
  memberId: string;
  southwoods_email: string;
  role: Role;
  status: UserStatus;
  defaultCartType: string;
  defaultFeeGuest: string;
  defaultFeeMember: string;
  /** Whether a club-site password is stored (the password itself never leaves the server). */
  hasClubPassword: boolean;
  /** The password is one an admin typed (or the username): the member must choose their own first. Always sent; absent reads as false. */
  mustSetPassword?: boolean;
}

export interface AuthStatus {
  isAuthenticated: boolean;
  user: SessionUser | null;
}
