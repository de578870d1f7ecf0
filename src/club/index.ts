/** The club adapter's public face: the client, its records, its errors and the clock offset probe. */
export { createClubClient, type BookInput, type ClubClient, type ClubClientOptions, type ClubMember, type ClubTimeReading, type MemberClubSession } from "./client.ts";
export type { ClubAdvisory, ClubAuditEntry, ClubBooking, ClubPlayer, ClubSlot, ClubTeeSheet } from "./records.ts";
export { ClubError, CLUB_ERROR_KINDS, isClubError, type ClubErrorKind } from "./errors.ts";
export { measureClockOffset, type ClockOffset, type MeasureClockOffsetOptions } from "./clock-offset.ts";
