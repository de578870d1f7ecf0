/**
 * Playing partners on the Bookings page (decision 200): the invitations the member received, each
 * answered here (Accept, Decline) or, once the club booked the game, shown read only "with" its
 * organiser; and, for the member's own requests and watches, each partner's answer beside them.
 * Reloads when a change names the member's invitations (the resource cache, web/lib/resources.ts).
 */
import type { ReceivedInvitation, SentInvitation } from "../../../src/features/partners/partners.schemas.ts";
import { normaliseMemberId } from "../../../src/domain/players.ts";
import { useResource } from "../../lib/resources.ts";
import { useText } from "../../lib/text.ts";
import { InvitationAnswerButtons } from "./invitation-answer.tsx";
import { listInvitations, type InvitationsResponse } from "./partners-api.ts";
import "./partners.css";

export function useInvitations(): { invitations: InvitationsResponse | null; reload: () => void } {
  const { data, error, reload } = useResource("my.invitations", listInvitations);
  return { invitations: data ?? (error ? { from: "anyone", received: [], sent: [] } : null), reload: () => void reload() };
}

function ReceivedCard({ invitation, reload }: { invitation: ReceivedInvitation; reload: () => void }) {
  const t = useText();
  const { booking } = invitation;
  return (
    <li className="booking-card invitation" data-testid={`invitation:${invitation.id}`}>
      <div className="booking-card__head">
        <div>
          <div className="booking-card__date">
            {invitation.date} · {invitation.time}
          </div>
          <div className="booking-card__course">{invitation.course}</div>
        </div>
        <span className={`status status--invitation-${invitation.status}`}>{t(`partners.status.${invitation.status}`)}</span>
      </div>
      {booking ? (
        <>
          <p className="invitation__with">{t("partners.with_organiser", { organiser: invitation.organiser })}</p>
          <p className="row-sub">
            {t("partners.booked_with", { course: booking.course, date: booking.date, time: booking.time, bookingId: booking.bookingId, organiser: invitation.organiser })}
          </p>
          <p className="row-sub">{booking.players.join(", ")}</p>
          <p className="row-sub invitation__read-only">{t("partners.read_only", { organiser: invitation.organiser })}</p>
        </>
      ) : (
        <p className="row-sub">
          {t(invitation.status === "unasked" ? "partners.unasked" : "partners.invitation", {
            organiser: invitation.organiser,
            course: invitation.course,
            date: invitation.date,
            time: invitation.time,
          })}
        </p>
      )}
      {invitation.isOpen ? <InvitationAnswerButtons invitationId={invitation.id} organiser={invitation.organiser} onAnswered={reload} /> : null}
    </li>
  );
}

/** The member's own games with partners, each partner beside their answer. */
function groupBySource(sent: readonly SentInvitation[]): SentInvitation[][] {
  const groups = new Map<string, SentInvitation[]>();
  for (const s of sent) {
    const key = `${s.source}:${s.sourceId}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()];
}

export function PartnerAnswers({ answers }: { answers: readonly SentInvitation[] }) {
  const t = useText();
  return (
    <ul className="partner-answers">
      {answers.map((a) => (
        <li key={a.id} data-testid={`partner-answer:${a.memberId}`}>
          <span className="partner-answers__name">{a.name}</span> <span className={`status status--invitation-${a.status}`}>{t(`partners.status.${a.status}`)}</span>
        </li>
      ))}
    </ul>
  );
}

/** One partner's answer to an invitation the member sent, for the player's line of the request (nothing when none was sent). */
export function AnswerBeside({ sent, source, sourceId, memberId }: { sent: readonly SentInvitation[]; source: SentInvitation["source"]; sourceId: number; memberId: string }) {
  const t = useText();
  const wanted = normaliseMemberId(memberId);
  const answer = sent.find((s) => s.source === source && s.sourceId === sourceId && s.memberId === wanted);
  if (!answer) return null;
  return (
    <span className={`status status--invitation-${answer.status}`} data-testid={`answer-beside:${sourceId}:${wanted}`}>
      {t(`partners.status.${answer.status}`)}
    </span>
  );
}

export function PartnersSection({ invitations, reload }: { invitations: InvitationsResponse | null; reload: () => void }) {
  const t = useText();
  const received = invitations?.received ?? [];
  const games = groupBySource(invitations?.sent ?? []);
  return (
    <section className="bookings-section" aria-labelledby="partners-title">
      <h2 id="partners-title" className="bookings-section__title">
        {t("partners.title")}
      </h2>
      <h3 className="partners__subtitle">{t("partners.received")}</h3>
      {received.length === 0 ? (
        <p className="page__note">{t("partners.received_empty")}</p>
      ) : (
        <ul className="booking-cards">
          {received.map((invitation) => (
            <ReceivedCard key={invitation.id} invitation={invitation} reload={reload} />
          ))}
        </ul>
      )}
      {games.length > 0 ? (
        <>
          <h3 className="partners__subtitle">{t("partners.sent")}</h3>
          <ul className="booking-cards">
            {games.map((answers) => (
              <li key={`${answers[0].source}:${answers[0].sourceId}`} className="booking-card" data-testid={`partner-game:${answers[0].source}:${answers[0].sourceId}`}>
                <div className="booking-card__date">
                  {answers[0].date} · {answers[0].time}
                </div>
                <div className="booking-card__course">{t("partners.game", { course: answers[0].course, date: answers[0].date })}</div>
                <PartnerAnswers answers={answers} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
