import { Link } from "react-router-dom";
import type { NextUpItem } from "../../../src/domain/bookings-view.ts";
import type { Course } from "../../../src/domain/booking-rules.ts";
import { formatLongDate, normaliseTime } from "../../../src/domain/manila-time.ts";
import { formatPlayerName, normaliseMemberId } from "../../../src/domain/players.ts";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { useText } from "../../lib/text.ts";
import { paths } from "../../paths.ts";

const STATUS_TEXT: Record<NextUpItem["status"], UiTextKey> = {
  Confirmed: "home.status.confirmed",
  Pending: "home.status.pending",
  Failed: "home.status.failed",
};

export function courseNameOf(courseId: string, schedule: readonly Course[]): string {
  return schedule.find((c) => c.id.toLowerCase() === courseId.toLowerCase())?.name ?? courseId;
}

/** The players other than the member, by membership number (guests never match it). */
export function otherPlayerNames(item: NextUpItem, ownMemberId: string): string[] {
  const own = normaliseMemberId(ownMemberId);
  const players = item.kind === "booking" ? item.booking.playersInfo.map((p) => ({ name: p.name, id: p.id })) : item.request.players.map((p) => ({ name: p.name, id: p.memberId }));
  return players
    .filter((p) => !own || normaliseMemberId(p.id) !== own)
    .map((p) => formatPlayerName(p.name))
    .filter(Boolean);
}

function displayTime(item: NextUpItem): string {
  const raw = item.kind === "booking" ? item.booking.time : (item.request.times[0] ?? "");
  return normaliseTime(raw) ?? raw;
}

/** Home: the earliest upcoming booking or request, with a link to the Bookings page. */
export function NextUpCard({ item, courses, ownMemberId }: { item: NextUpItem; courses: readonly Course[]; ownMemberId: string }) {
  const t = useText();
  const others = otherPlayerNames(item, ownMemberId);
  return (
    <section className="card next-up" aria-label={t("home.next_up.title")} data-testid="next-up">
      <div className="next-up__header">
        <h2 className="home-section__title">{t("home.next_up.title")}</h2>
        <span className={`status-badge status-badge--${item.status.toLowerCase()}`} data-testid="next-up-status">
          {t(STATUS_TEXT[item.status])}
        </span>
      </div>
      <p className="next-up__when">
        <span className="next-up__date">{formatLongDate(item.date)}</span>
        <span className="next-up__time">{displayTime(item)}</span>
      </p>
      <p className="next-up__course">{courseNameOf(item.course, courses)}</p>
      <p className="next-up__players">{others.length > 0 ? t("home.next_up.players", { names: others.join(", ") }) : t("home.next_up.no_other_players")}</p>
      <Link className="button button--secondary next-up__link" to={paths.bookings}>
        {t("home.next_up.view_details")}
      </Link>
    </section>
  );
}
