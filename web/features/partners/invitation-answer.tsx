/**
 * Accept and Decline for one invitation (decision 200): on the Bookings page and in the bell. The
 * answer goes to the server; a refusal (already answered, withdrawn, released) is shown as its toast.
 * `onAnswered` lets the place it sits in reload; the invitations list reloads on the server's change.
 */
import { useState } from "react";
import type { InvitationAnswer } from "../../../src/domain/partners.ts";
import { Button } from "../../components/button.tsx";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import { answerInvitation, failureOf } from "./partners-api.ts";

export function InvitationAnswerButtons({ invitationId, organiser, onAnswered }: { invitationId: number; organiser: string; onAnswered?: (answer: InvitationAnswer) => void }) {
  const t = useText();
  const tryText = useTextLookup();
  const [busy, setBusy] = useState<InvitationAnswer | null>(null);
  const [answered, setAnswered] = useState<InvitationAnswer | null>(null);

  async function send(answer: InvitationAnswer) {
    setBusy(answer);
    try {
      await answerInvitation(invitationId, answer);
      setAnswered(answer);
      showToast("success", { textKey: answer === "accepted" ? "partners.accepted_toast" : "partners.declined_toast", context: { organiser } });
      onAnswered?.(answer);
    } catch (error) {
      const failure = failureOf(error);
      showToast("error", { textKey: failure.errorKey ?? "partners.answer_failed", message: tryText(failure.errorKey, undefined, failure.message) ?? t("partners.answer_failed") });
    } finally {
      setBusy(null);
    }
  }

  if (answered) {
    return <span className={`status status--invitation-${answered}`}>{t(`partners.status.${answered}`)}</span>;
  }
  return (
    <div className="row-actions invitation-answer">
      <Button variant="primary" isLoading={busy === "accepted"} disabled={busy !== null} onClick={() => void send("accepted")}>
        {t("partners.accept")}
      </Button>
      <Button variant="secondary" isLoading={busy === "declined"} disabled={busy !== null} onClick={() => void send("declined")}>
        {t("partners.decline")}
      </Button>
    </div>
  );
}
