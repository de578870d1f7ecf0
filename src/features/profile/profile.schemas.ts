import { z } from "zod";

/**
 * PUT /v1/my/profile. Types and lengths here; the member-facing rules (required fields,
 * email shape, options) are checked in the service so each has its own errorKey.
 */
export const updateProfileSchema = z.object({
  // Sanity bounds only: the shared limits (domain/text-limits) answer with a clear "too long".
  name: z.string().max(2000),
  memberId: z.string().max(2000),
  southwoods_email: z.string().max(2000),
  /** Blank or absent keeps the stored club password. */
  golf_password: z.string().max(200).optional(),
  defaultCartType: z.string().max(100),
  defaultFeeGuest: z.string().max(100),
  defaultFeeMember: z.string().max(100),
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

const password = z.string().max(200);

export const changePasswordSchema = z.object({
  currentPassword: password,
  newPassword: password,
  confirmPassword: password,
});

/** The setup wizard's first password: the current one is the username an admin gave. */
export const setPasswordSchema = z.object({
  currentPassword: password,
  newPassword: password,
});
