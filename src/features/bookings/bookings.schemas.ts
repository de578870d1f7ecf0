/**
 * Input schemas of the bookings calls and socket actions. The submission payload itself is the domain's bookingSubmissionSchema (booking-submission-schema.ts).
 */
import { z } from "zod";
import type { ConfirmedBookingView, PendingRequestView, RequestPhase } from "../../domain/bookings-view.ts";

export const cancelRequestPayloadSchema = z.object({ id: z.coerce.number().int().positive() });
export const cancelBookingPayloadSchema = z.object({ bookingId: z.string().trim().min(1).max(100) });
export const bookingIdParamSchema = z.string().trim().min(1).max(100);
export const requestIdParamSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** One booking post as the member's record shows it. */
export interface AttemptView {
  time: string;
  /** Club-clock instant the post left (our reading of the club's clock). */
  firedAtClub: number;
  /** Milliseconds after the release instant (negative would mean early; the engine never is). */
  offsetFromReleaseMs: number;
  /** confirmed, slot_taken, not_yet_open, unavailable, …; null while unanswered. */
  outcome: string | null;
  /** The club's words, or what went wrong. */
  answer: string | null;
  /** The answer as a UI-text key and its placeholders (rendered into `answer`). */
  answerKey: string | null;
  answerContext: Record<string, string> | null;
  durationMs: number | null;
}

export type RequestStatusLabel = "Pending" | "On hold" | "Processing" | "Needs attention" | "Failed";

export interface RequestView extends PendingRequestView {
  status: RequestStatusLabel;
  /**
   * While Processing: 'waiting_for_club' (the club does not answer) or 'checking_with_club' (a
   * post's outcome is being read from the club); the page shows it as the status text. Else null.
   */
  phase: RequestPhase | null;
  /** Why it failed or is held, rendered from the editable UI text. */
  failureReason: string | null;
  /** The reason as a UI-text key (src/domain/request-reasons.ts) and its placeholders. */
  reasonKey: string | null;
  reasonContext: Record<string, string> | null;
  submittedAt: number;
  /** How late the first post left after the release instant, on the club's clock. */
  latenessMs: number | null;
  /** The selection as submitted, for editing: times in priority order with their slot ids. */
  selectionOrder: { time: string; slotId: string | null }[];
  memberCartType: string;
  /** Send only if every partner has accepted by the readiness check (decision 200), so an edit starts from it. */
  partnersMustAccept: boolean;
  attempts: AttemptView[];
}

export type BookingView = ConfirmedBookingView & { createdAt: number };
