/**
 * The WebSocket contract's shapes, shared by the server hub and the web client.
 * Client → server: `{ action, payload }`. Server → client: `{ type, ... }`. Plain types and one
 * list, so the web app reads them without the server's validation code.
 */
import type { RequestReason } from "./request-reasons.ts";
import type { ResourceKey } from "./resources.ts";

export const CLIENT_ACTIONS = ["RUN_SCRAPER", "SUBMIT_BOOKING_REQUEST", "CANCEL_REQUEST", "CANCEL_CONFIRMED_BOOKING", "UPDATE_PLAYERS"] as const;
export type ClientAction = (typeof CLIENT_ACTIONS)[number];

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

/**
 * What a submitted request became: waiting for its release ('pending'), taken at once
 * ('submitted'), or saved but held, not sent ('needs_attention', with the reason).
 */
export type SubmissionStatus = "pending" | "submitted" | "needs_attention";

export type ServerMessage =
  /**
   * Data changed. `changed` names what (src/domain/resources.ts): a client that knows the keys
   * reloads only those; one that does not, and every bare `status: updated`, reloads everything.
   */
  | { type: "status"; status: "updated"; changed?: readonly ResourceKey[] }
  | { type: "submissionResult"; status: SubmissionStatus; details: SubmissionResultDetails; reason?: RequestReason; requestId?: string }
  | { type: "error"; message: string; errorKey?: string; requestId?: string }
  | { type: "toast"; toast: ToastPayload }
  | { type: "uiTextUpdated" }
  | { type: "scraper"; state: "started" | "running" | "recent"; lastScrapeTime: number | null; requestId?: string }
  | { type: "ack"; action: ClientAction; requestId?: string };
