/** The profile calls (spec §7): save the profile, change the password, and the form options. */
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SessionUser } from "../../lib/types.ts";
import { api } from "../../lib/api.ts";
import type { UpdateProfileInput } from "../../../src/features/profile/profile.schemas.ts";

/** The server's own contract (a blank or absent golf_password keeps the stored club password). */
export type ProfileUpdate = UpdateProfileInput;

export function fetchFormOptions(): Promise<FormOption[]> {
  return api.get<FormOption[]>("/v1/form-options");
}

export function updateProfile(update: ProfileUpdate): Promise<{ user: SessionUser }> {
  return api.put<{ user: SessionUser }>("/v1/my/profile", update);
}

export function changePassword(body: { currentPassword: string; newPassword: string; confirmPassword: string }): Promise<void> {
  return api.post<void>("/v1/my/user/change-password", body);
}
