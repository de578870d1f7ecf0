/**
 * The submission-result dialog: opened by the socket's `submissionResult`
 * wherever the member is. Pending → 'Request Scheduled' with 'Scheduled For' the release time;
 * needs_attention (saved but held, not sent) → 'Request Not Sent' with the reason; anything else →
 * 'Request Submitted'. It lists course, date and time.
 */
import { useEffect, useState } from "react";
import { formatReleaseAt } from "../../src/domain/format.ts";
import { formatLongDate, parseBookingDate } from "../../src/domain/manila-time.ts";
import type { UiTextKey } from "../../src/domain/ui-text/index.ts";
import { useLiveData } from "../lib/live-data-store.ts";
import { appSocket, type SocketClient } from "../lib/socket.ts";
import { useText, useTextLookup } from "../lib/text.ts";
import type { ServerMessage } from "../lib/types.ts";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import "./submission-result-dialog.css";

type SubmissionResult = Extract<ServerMessage, { type: "submissionResult" }>;

export function isScheduledResult(result: Pick<SubmissionResult, "status">): boolean {
  return result.status.trim().toLowerCase() === "pending";
}

/** The dialog's title and text for what the request became. */
function wordingOf(result: SubmissionResult): { title: UiTextKey; body: UiTextKey } {
  if (isScheduledResult(result)) return { title: "submission.scheduled_title", body: "submission.scheduled_body" };
  if (result.status !== "needs_attention") return { title: "submission.submitted_title", body: "submission.submitted_body" };
  // Held at once only for its partners so far; another reason gets the plain text, the reason row says which.
  const body = result.reason?.key === "partners.reason.not_accepted" ? "submission.held_partners_body" : "submission.held_body";
  return { title: "submission.held_title", body };
}

export function SubmissionResultDialog({ client = appSocket }: { client?: SocketClient }) {
  const t = useText();
  const tryText = useTextLookup();
  const [result, setResult] = useState<SubmissionResult | null>(null);
  const courses = useLiveData((s) => s.rules?.courseSchedule);

  useEffect(
    () =>
      client.subscribe((message) => {
        if (message.type === "submissionResult") setResult(message);
      }),
    [client],
  );

  if (!result) return null;
  const close = () => setResult(null);
  const isScheduled = isScheduledResult(result);
  const wording = wordingOf(result);
  const { details, reason } = result;
  const reasonText = reason ? tryText(reason.key, reason.context) : undefined;
  const courseName = courses?.find((c) => c.id.toLowerCase() === details.course.toLowerCase())?.name ?? details.course;
  const date = parseBookingDate(details.play_date);

  return (
    <Dialog isOpen className="submission-result" title={t(wording.title)} onClose={close} actions={<Button onClick={close}>{t("submission.close")}</Button>}>
      <p>{t(wording.body)}</p>
      <dl className="submission-result__details">
        <dt>{t("submission.course")}</dt>
        <dd>{courseName}</dd>
        <dt>{t("submission.date")}</dt>
        <dd>{date ? formatLongDate(date) : details.play_date}</dd>
        <dt>{t("submission.time")}</dt>
        <dd>{details.time}</dd>
        {isScheduled && details.releaseAt != null ? (
          <>
            <dt>{t("submission.scheduled_for")}</dt>
            <dd data-testid="scheduled-for">{formatReleaseAt(details.releaseAt)}</dd>
          </>
        ) : null}
        {reasonText ? (
          <>
            <dt>{t("submission.reason")}</dt>
            <dd>{reasonText}</dd>
          </>
        ) : null}
      </dl>
    </Dialog>
  );
}
