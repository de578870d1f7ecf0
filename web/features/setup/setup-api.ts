/** The setup wizard's calls. */
import type { FormOption } from "../../../src/domain/form-options.ts";
import { userResponseSchema, type UserResponse } from "../../../src/features/auth/auth-responses.schemas.ts";
import { formOptionsResponseSchema } from "../../../src/features/system/system.schemas.ts";
import { api, getJson } from "../../lib/api.ts";
import type { BodyAt } from "../../lib/api-contracts.ts";
import { apiPaths } from "../../lib/api-paths.ts";

export function fetchFormOptions(): Promise<FormOption[]> {
  return getJson(apiPaths.formOptions, formOptionsResponseSchema);
}

/** Step 1: the first password replaces the username an admin gave as the current one. */
export function setFirstPassword(currentPassword: string, newPassword: string): Promise<void> {
  return api.post(apiPaths.my.setPassword, { currentPassword, newPassword });
}

/** Step 3: checks the club login with the club before anything is saved (the answer is not read). */
export function verifyClubLogin(email: string, password: string): Promise<void> {
  return api.post(apiPaths.my.verifyCredentials, { email, password });
}

export function saveProfile(profile: BodyAt<typeof apiPaths.my.profile, "PUT">): Promise<UserResponse> {
  return api.putFor(apiPaths.my.profile, profile, userResponseSchema);
}
