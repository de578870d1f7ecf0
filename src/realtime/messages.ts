/**
 * The WebSocket contract (spec §7), shared by the server hub and the web client.
 * Client → server: `{ action, payload }`. Server → client: `{ type, ... }`.
 */
import { z } from "zod";

export const CLIENT_ACTIONS = [
  "RUN_SCRAPER",
  "SUBMIT_BOOKING_REQUEST",
  "CANCEL_REQUEST",
  "CANCEL_CONFIRMED_BOOKING",
  "UPDATE_PLAYERS",
] as const;
export type ClientAction = (typeof CLIENT_ACTIONS)[number];

/** The envelope only; each action's payload is validated by the feature that handles it. */
export const clientMessageSchema = z.object({
  action: z.enum(CLIENT_ACTIONS),
  payload: z.unknown().optional(),
  /** Optional correlation id echoed back on the answer to this action. */
  requestId: z.string().max(64).optional(),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export type ToastKind = "success" | "error" | "info";
export interface ToastPayload {
  kind: ToastKind;
  /** Plain text; used when there is no textKey or the key has no text. */
  message?: string;
  /** A UI-text key whose {placeholder}s are filled from `context`. */
  textKey?: string;
  context?: Record<string, string | number>;
}

export interface SubmissionResultDetails {
  play_date: string;
  course: string;
  time: string;
  /** Epoch ms of the release instant, present when the request was scheduled. */
  releaseAt: number | null;
}

export type ServerMessage =
  | { type: "status"; status: "updated" }
  | { type: "submissionResult"; status: string; details: SubmissionResultDetails; requestId?: string }
  | { type: "error"; message: string; errorKey?: string; requestId?: string }
  | { type: "toast"; toast: ToastPayload }
  | { type: "uiTextUpdated" }
  | { type: "scraper"; state: "started" | "running" | "recent"; lastScrapeTime: number | null; requestId?: string }
  | { type: "ack"; action: ClientAction; requestId?: string };
