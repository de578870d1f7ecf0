/**
 * The submission-result dialog: opened by the socket's `submissionResult`
 * wherever the member is. Pending → 'Request Scheduled' with 'Scheduled For' the release time;
 * anything else → 'Request Submitted'. It lists course, date and time.
 */
import { useEffect, useState } from "react";
import { formatReleaseAt } from "../../src/domain/format.ts";
import { formatLongDate, parseBookingDate } from "../../src/domain/manila-time.ts";
import { useLiveData } from "../lib/live-data-store.ts";
import { appSocket, type SocketClient } from "../lib/socket.ts";
import { useText } from "../lib/text.ts";
import type { ServerMessage } from "../lib/types.ts";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import "./submission-result-dialog.css";

type SubmissionResult = Extract<ServerMessage, { type: "submissionResult" }>;

export function isScheduledResult(result: Pick<SubmissionResult, "status">): boolean {
  return result.status.trim().toLowerCase() === "pending";
}

export function SubmissionResultDialog({ client = appSocket }: { client?: SocketClient }) {
  const t = useText();
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
  const { details } = result;
  const courseName = courses?.find((c) => c.id.toLowerCase() === details.course.toLowerCase())?.name ?? details.course;
  const date = parseBookingDate(details.play_date);

  return (
    <Dialog
      isOpen
      className="submission-result"
      title={isScheduled ? t("submission.scheduled_title") : t("submission.submitted_title")}
      onClose={close}
      actions={<Button onClick={close}>{t("submission.close")}</Button>}
    >
      <p>{isScheduled ? t("submission.scheduled_body") : t("submission.submitted_body")}</p>
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
      </dl>
    </Dialog>
  );
}
