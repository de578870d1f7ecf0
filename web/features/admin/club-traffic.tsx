/**
 * The System Monitor's view of Teebox's manners at the club (decisions 145, 146): requests in the
 * last minute, the busiest member, the budget, and a line when the club asked Teebox to slow down.
 */
import { formatClockTime } from "../../../src/domain/manila-time.ts";
import { useText } from "../../lib/text.ts";
import type { SystemStats } from "./admin-api.ts";

type ClubTraffic = NonNullable<SystemStats["club"]>;

/** The card beside CPU and memory. */
export function ClubRequestsCard({ club }: { club: ClubTraffic }) {
  const t = useText();
  const busiest = club.busiestMember;
  return (
    <div className="card admin-monitor__card" data-testid="monitor-club-requests">
      <h3>{t("admin.monitor.club_requests")}</h3>
      <p>{t("admin.monitor.club_requests_value", { count: club.requestsLastMinute, total: club.totalSinceStart, since: formatClockTime(club.sinceMs) })}</p>
      <p>{busiest ? t("admin.monitor.club_busiest", { name: busiest.name, count: busiest.requests, minutes: busiest.windowMinutes }) : t("admin.monitor.club_busiest_none")}</p>
      <p className="page__note">
        {t("admin.monitor.club_budget", {
          clubPerMinute: club.budget.clubPerMinute,
          clubBurst: club.budget.clubBurst,
          memberPerMinute: club.budget.memberPerMinute,
          memberBurst: club.budget.memberBurst,
          waiting: club.budget.waiting,
        })}
      </p>
    </div>
  );
}

/** One line, red while the pause lasts, when the club asked Teebox to slow down (once per episode). */
export function SlowDownLine({ club }: { club: ClubTraffic | undefined }) {
  const t = useText();
  const episode = club?.slowDown;
  if (!episode) return null;
  const why = t(`admin.monitor.slow_down_${episode.reason}`, { status: episode.status });
  const text = episode.isActive
    ? t("admin.monitor.slow_down_active", { time: formatClockTime(episode.startedAt), why, until: formatClockTime(episode.pausedUntil) })
    : t("admin.monitor.slow_down_over", { time: formatClockTime(episode.startedAt), why, ended: formatClockTime(episode.endedAt) });
  return (
    <p className={`admin-monitor__club card ${episode.isActive ? "admin-status--bad" : ""}`} role={episode.isActive ? "alert" : undefined} data-testid="monitor-slow-down">
      {text}
    </p>
  );
}
