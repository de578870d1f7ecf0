/** The setup wizard's calls (spec §7, design.md). */
import type { FormOption } from "../../../src/domain/form-options.ts";
import { api } from "../../lib/api.ts";
import type { SessionUser } from "../../lib/types.ts";
import type { UpdateProfileInput } from "../../../src/features/profile/profile.schemas.ts";

export function fetchFormOptions(): Promise<FormOption[]> {
  return api.get<FormOption[]>("/v1/form-options");
}

/** Step 1: the first password replaces the username an admin gave as the current one. */
export function setFirstPassword(currentPassword: string, newPassword: string): Promise<void> {
  return api.post<void>("/v1/my/user/set-password", { currentPassword, newPassword });
}

/** Step 3: checks the club login with the club before anything is saved. */
export function verifyClubLogin(email: string, password: string): Promise<unknown> {
  return api.post<unknown>("/v1/my/verify-credentials", { email, password });
}

export function saveProfile(profile: UpdateProfileInput): Promise<{ user: SessionUser }> {
  return api.put<{ user: SessionUser }>("/v1/my/profile", profile);
}
