/** The typed records the adapter hands out, validated with zod as they leave the parsers. */
import { z } from "zod";
import { isHhMm, isIsoDate } from "../domain/manila-time.ts";
import type { ClubErrorKind } from "./errors.ts";

const isoDate = z.string().refine(isIsoDate, "expected an ISO date");
const hhmm = z.string().refine(isHhMm, "expected HH:mm");

export const slotStatusSchema = z.enum(["AVAILABLE", "BOOKED", "BLOCKED"]);

export const clubSlotSchema = z.object({ time: hhmm, status: slotStatusSchema, slotId: z.string().min(1) });
export type ClubSlot = z.infer<typeof clubSlotSchema>;

export const clubTeeSheetSchema = z.object({
  date: isoDate,
  /** The club's course id, as used in fetchTeeSheet. */
  course: z.string().min(1),
  /** False when the date is not open yet (then there are no slots). */
  released: z.boolean(),
  slots: z.array(clubSlotSchema),
});
export type ClubTeeSheet = z.infer<typeof clubTeeSheetSchema>;

export const clubBookedPlayerSchema = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  /** Membership number; empty for guests. */
  id: z.string(),
});

export const clubBookingSchema = z.object({
  ref: z.string().min(1),
  date: isoDate,
  time: hhmm,
  /** Course id: the displayed name, lower-cased and dashed ('Masters' → 'masters'). */
  course: z.string().min(1),
  courseName: z.string().min(1),
  players: z.array(clubBookedPlayerSchema),
});
export type ClubBooking = z.infer<typeof clubBookingSchema>;

export const clubAdvisorySchema = z.object({
  title: z.string().min(1),
  eventDate: isoDate.nullable(),
  content: z.string(),
});
export type ClubAdvisory = z.infer<typeof clubAdvisorySchema>;

export const clubPlayerSchema = z.object({
  type: z.string().min(1),
  firstName: z.string().optional(),
  lastName: z.string().min(1),
  memberId: z.string().optional(),
  cart: z.string().min(1),
  fee: z.string().min(1),
});
export type ClubPlayer = z.infer<typeof clubPlayerSchema>;

export interface ClubAuditEntry {
  userId: number | null;
  email: string;
  action: "login" | "book" | "edit" | "cancel" | "verify";
  outcome: "ok" | ClubErrorKind;
  durationMs: number;
  detail?: string;
}
