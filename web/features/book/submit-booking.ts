/**
 * Sending a booking: a new or pending request goes over the socket (SUBMIT_BOOKING_REQUEST) and is
 * answered by `submissionResult` or `error`; a confirmed booking is edited with
 * POST /v1/bookings/{id}/edit.
 */
import type { BookingSubmission } from "../../../src/domain/booking-submission.ts";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { appSocket, type SocketClient } from "../../lib/socket.ts";
import type { ServerMessage } from "../../lib/types.ts";

/** The failure as the server gave it, so the screen can show the keyed text. */
export type SubmitFailure = { kind: "rejected"; message?: string; errorKey?: string } | { kind: "not_connected" } | { kind: "no_answer" };
export type SubmitOutcome = { ok: true; status: string } | { ok: false; failure: SubmitFailure };

/** Long enough for a submit processed at once to be stored; the result itself arrives later. */
export const SUBMIT_ANSWER_TIMEOUT_MS = 20_000;

let requestCounter = 0;

function nextRequestId(): string {
  requestCounter += 1;
  return `book-${Date.now().toString(36)}-${requestCounter}`;
}

/**
 * Sends the request and waits for its answer. An answer carrying another request's id is not
 * ours; one without an id is taken as ours, since the member has one submit in flight at a time.
 */
export function submitBookingRequest(submission: BookingSubmission, client: SocketClient = appSocket, timeoutMs: number = SUBMIT_ANSWER_TIMEOUT_MS): Promise<SubmitOutcome> {
  const requestId = nextRequestId();
  return new Promise<SubmitOutcome>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: SubmitOutcome) => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
      resolve(outcome);
    };
    const isOurs = (message: { requestId?: string }) => message.requestId === undefined || message.requestId === requestId;
    const unsubscribe = client.subscribe((message: ServerMessage) => {
      if (message.type === "submissionResult" && isOurs(message)) finish({ ok: true, status: message.status });
      else if (message.type === "error" && isOurs(message)) {
        finish({ ok: false, failure: { kind: "rejected", message: message.message, errorKey: message.errorKey } });
      }
    });
    if (!client.send("SUBMIT_BOOKING_REQUEST", submission, requestId)) {
      finish({ ok: false, failure: { kind: "not_connected" } });
      return;
    }
    timer = setTimeout(() => finish({ ok: false, failure: { kind: "no_answer" } }), timeoutMs);
  });
}

/** Edits a confirmed booking's players (or moves it) through the call; failures keep the server's text. */
export async function editConfirmedBooking(bookingId: string, submission: BookingSubmission): Promise<SubmitOutcome> {
  try {
    await apiRequest(apiPaths.editBooking(bookingId), {
      method: "POST",
      body: submission,
    });
    return { ok: true, status: "edited" };
  } catch (error) {
    if (error instanceof ApiError) {
      return { ok: false, failure: { kind: "rejected", message: error.serverMessage, errorKey: error.errorKey } };
    }
    return { ok: false, failure: { kind: "no_answer" } };
  }
}
