/** The submit of the booking form, shared by the desktop panel and the wizard's last step. */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { showToast } from "../../lib/toast-store.ts";
import type { SessionUser } from "../../lib/types.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { paths } from "../../paths.ts";
import { buildSubmission, checkBeforeSubmit, flightOf, limitsFor, selfOf, type BookingData } from "./book-model.ts";
import { useBookStore } from "./book-store.ts";
import { editConfirmedBooking, submitBookingRequest, type SubmitFailure } from "./submit-booking.ts";

export interface SubmitState {
  submit(): Promise<void>;
  isSubmitting: boolean;
  errorText: string | null;
}

export function useSubmitBooking(data: BookingData, user: SessionUser): SubmitState {
  const t = useText();
  const tryText = useTextLookup();
  const navigate = useNavigate();
  const [isSubmitting, setSubmitting] = useState(false);
  const [errorText, setErrorText] = useState<string | null>(null);

  /**
   * Keyed text (the UI text keyed by the server's message, then by its errorKey), else 'Failed to
   * submit booking.'. A keyed text with {placeholders} cannot be filled from an error, so the
   * server's own message, already filled, stands for it.
   */
  function failureText(failure: SubmitFailure): string {
    if (failure.kind === "not_connected") return t("book.not_connected");
    if (failure.kind !== "rejected") return t("book.submit_failed");
    const byMessage = tryText(failure.message);
    if (byMessage) return byMessage;
    return tryText(failure.errorKey, undefined, failure.message) ?? t("book.submit_failed");
  }

  async function submit() {
    if (isSubmitting) return;
    const state = useBookStore.getState();
    const flight = flightOf(user, state);
    const problem = checkBeforeSubmit(state, flight, limitsFor(data, state), selfOf(user));
    if (problem) {
      state.markTriedSubmit();
      setErrorText(tryText(problem.errorKey, problem.context) ?? problem.message);
      return;
    }
    setErrorText(null);
    setSubmitting(true);
    const target = state.editTarget;
    const submission = buildSubmission(state, flight, target);
    const outcome = target?.kind === "booking" ? await editConfirmedBooking(target.bookingId, submission) : await submitBookingRequest(submission);
    setSubmitting(false);
    if (!outcome.ok) {
      setErrorText(failureText(outcome.failure));
      return;
    }
    // The socket's submissionResult opens the result dialog; the wizard starts over.
    useBookStore.getState().reset();
    if (target?.kind === "booking") showToast("success", { textKey: "book.edit.saved" });
    if (target) navigate(paths.bookings);
  }

  return { submit, isSubmitting, errorText };
}
