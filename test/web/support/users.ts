import type { SessionUser } from "../../../web/lib/types.ts";

export function makeUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 7,
    username: "jdelacruz",
    name: "Juan Dela Cruz",
    memberId: "M-1234",
    southwoods_email: "juan@example.com",
    role: "user",
    status: "active",
    defaultCartType: "Rental Cart - Solo",
    defaultFeeGuest: "Charge my guest",
    defaultFeeMember: "Charge to their account",
    hasClubPassword: true,
    mustSetPassword: false,
    ...overrides,
  };
}
