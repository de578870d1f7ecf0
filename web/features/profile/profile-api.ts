/** The profile calls (spec §7): save the profile, change the password, and the form options. */
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SessionUser } from "../../lib/types.ts";
import { api } from "../../lib/api.ts";

export interface ProfileUpdate {
  name: string;
  memberId: string;
  southwoods_email: string;
  /** Left out when blank: the stored club password is kept. */
  golf_password?: string;
  defaultCartType: string;
  defaultFeeGuest: string;
  defaultFeeMember: string;
}

export function fetchFormOptions(): Promise<FormOption[]> {
  return api.get<FormOption[]>("/v1/form-options");
}

export function updateProfile(update: ProfileUpdate): Promise<{ user: SessionUser }> {
  return api.put<{ user: SessionUser }>("/v1/my/profile", update);
}

export function changePassword(body: { currentPassword: string; newPassword: string; confirmPassword: string }): Promise<void> {
  return api.post<void>("/v1/my/user/change-password", body);
}
