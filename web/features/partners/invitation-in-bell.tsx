/**
 * An invitation's answer in the bell (decision 200): Accept and Decline under a "partner_invited"
 * line while the invitation can still be answered; its current state once answered, withdrawn or
 * released. The state comes from the member's invitations (one cached load for every row).
 */
import type { NotificationItem } from "../../../src/features/notifications/notifications-responses.schemas.ts";
import { useText } from "../../lib/text.ts";
import { InvitationAnswerButtons } from "./invitation-answer.tsx";
import { useInvitations } from "./partners-section.tsx";

export function InvitationInBell({ item }: { item: NotificationItem }) {
  if (item.kind !== "partner_invited") return null;
  const id = Number(item.context?.invitationId);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return <InvitationState id={id} organiser={item.context?.organiser ?? ""} />;
}

function InvitationState({ id, organiser }: { id: number; organiser: string }) {
  const t = useText();
  const { invitations } = useInvitations();
  if (!invitations) return null;
  const invitation = invitations.received.find((r) => r.id === id);
  // Not listed: withdrawn by its organiser, or a game gone by.
  if (!invitation) return <span className="status status--invitation-cancelled">{t("partners.status.cancelled")}</span>;
  if (invitation.isOpen) return <InvitationAnswerButtons invitationId={id} organiser={organiser} />;
  return <span className={`status status--invitation-${invitation.status}`}>{t(`partners.status.${invitation.status}`)}</span>;
}
