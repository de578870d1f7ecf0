/** System Monitor: the club in use, then CPU, memory, disk, requests to the club and processes, and the email outbox, refreshed every 5 s. */
import { useEffect, useState } from "react";
import { formatBytes } from "../../../src/domain/format.ts";
import { formatClockTime } from "../../../src/domain/manila-time.ts";
import { DataTable } from "../../components/data-table.tsx";
import { ApiError } from "../../lib/api.ts";
import { useText } from "../../lib/text.ts";
import { adminApi, type ClubStatus, type SystemHistory, type SystemStats } from "./admin-api.ts";
import { MonitorCharts } from "./monitor-charts.tsx";
import { ErrorLine, FailureText } from "./admin-ui.tsx";
import { ClubConnection } from "./club-connection.tsx";
import { ClubRequestsCard, SlowDownLine } from "./club-traffic.tsx";
import { MailOutbox } from "./mail-outbox.tsx";

export const MONITOR_REFRESH_MS = 5000;
/** The day's charts change by a point every few minutes: read once a minute. */
const HISTORY_EVERY = 12;

export interface MonitorTimer {
  every(callback: () => void, ms: number): () => void;
}

const realTimer: MonitorTimer = {
  every(callback, ms) {
    const handle = setInterval(callback, ms);
    return () => clearInterval(handle);
  },
};

function ClubLine({ club, isUnavailable }: { club: ClubStatus | null; isUnavailable: boolean }) {
  const t = useText();
  if (isUnavailable) return <p className="admin-monitor__club">{t("admin.monitor.club_unavailable")}</p>;
  if (!club) return null;
  return (
    <div className="admin-monitor__club card" data-testid="club-status">
      <strong>{t("admin.monitor.club")}: </strong>
      <span>{club.mode === "demo" ? t("admin.monitor.club_demo") : t("admin.monitor.club_live")}</span> <code>{club.url}</code>{" "}
      <span className={club.reachable ? "admin-status--ok" : "admin-status--bad"}>{club.reachable ? t("admin.monitor.club_reachable") : t("admin.monitor.club_unreachable")}</span>
      {club.lastError ? (
        <div className="admin-monitor__error">
          <FailureText text={t("admin.monitor.club_last_error", { error: club.lastError })} />
        </div>
      ) : null}
    </div>
  );
}

export function SystemMonitor({ timer = realTimer }: { timer?: MonitorTimer }) {
  const t = useText();
  const [stats, setStats] = useState<SystemStats | null>(null);
  const [club, setClub] = useState<ClubStatus | null>(null);
  const [isClubUnavailable, setClubUnavailable] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [history, setHistory] = useState<SystemHistory["points"] | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the poll runs on the timer; a change of the texts does not restart it.
  useEffect(() => {
    let isActive = true;
    let polls = 0;
    async function refresh() {
      if (polls++ % HISTORY_EVERY === 0) {
        adminApi.systemHistory().then(
          (answer) => isActive && setHistory(answer.points),
          () => undefined,
        );
      }
      try {
        const next = await adminApi.systemStats();
        if (!isActive) return;
        setStats(next);
        setError(null);
        setUpdatedAt(Date.now());
      } catch (failure) {
        if (isActive) setError(failure instanceof ApiError && failure.serverMessage ? failure.serverMessage : t("admin.monitor.load_failed"));
      }
      try {
        const status = await adminApi.clubStatus();
        if (isActive) {
          setClub(status);
          setClubUnavailable(false);
        }
      } catch {
        if (isActive) setClubUnavailable(true);
      }
    }
    void refresh();
    // biome-ignore lint/suspicious/useIterableCallbackReturn: the monitor's timer, not Array's every.
    const stop = timer.every(() => void refresh(), MONITOR_REFRESH_MS);
    return () => {
      isActive = false;
      stop();
    };
    // The poll keeps running across text edits; `t` is read fresh on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [timer]);

  return (
    <section className="admin-section" aria-labelledby="admin-monitor-title">
      <h2 id="admin-monitor-title">{t("admin.monitor.title")}</h2>
      <ClubLine club={club} isUnavailable={isClubUnavailable} />
      <ClubConnection />
      <ErrorLine text={error} />
      <SlowDownLine club={stats?.club} />
      {stats ? (
        <>
          <div className="admin-monitor__cards">
            <div className="card admin-monitor__card" data-testid="monitor-cpu">
              <h3>{t("admin.monitor.cpu")}</h3>
              <p>{t("admin.monitor.cpu_value", { percent: stats.cpu.currentLoad.toFixed(1), cores: stats.cpu.cores })}</p>
            </div>
            <div className="card admin-monitor__card" data-testid="monitor-memory">
              <h3>{t("admin.monitor.memory")}</h3>
              <p>{t("admin.monitor.used_of", { used: formatBytes(stats.memory.used), total: formatBytes(stats.memory.total), percent: stats.memory.percent.toFixed(1) })}</p>
            </div>
            {stats.disk ? (
              <div className="card admin-monitor__card" data-testid="monitor-disk">
                <h3>{t("admin.monitor.disk")}</h3>
                <p>{t("admin.monitor.used_of", { used: formatBytes(stats.disk.used), total: formatBytes(stats.disk.total), percent: stats.disk.percent.toFixed(1) })}</p>
              </div>
            ) : null}
            {stats.database ? (
              <div className="card admin-monitor__card" data-testid="monitor-database">
                <h3>{t("admin.monitor.database")}</h3>
                <p>
                  {stats.database.walBytes === null
                    ? t("admin.monitor.database_value", { size: formatBytes(stats.database.bytes) })
                    : t("admin.monitor.database_value_wal", { size: formatBytes(stats.database.bytes), wal: formatBytes(stats.database.walBytes) })}
                </p>
              </div>
            ) : null}
            {stats.watches ? (
              <div className="card admin-monitor__card" data-testid="monitor-watches">
                <h3>{t("admin.monitor.watches")}</h3>
                <p>{t("admin.monitor.watches_value", { active: stats.watches.activeWatches, polls: stats.watches.pollsPerMinute, seconds: stats.watches.pollSeconds })}</p>
              </div>
            ) : null}
            {stats.club ? <ClubRequestsCard club={stats.club} /> : null}
          </div>
          {history ? <MonitorCharts points={history} /> : null}
          <h3>{t("admin.monitor.processes")}</h3>
          <DataTable
            testId="monitor-processes"
            label={t("admin.monitor.processes")}
            columns={[
              { header: t("admin.monitor.col_id") },
              { header: t("admin.monitor.col_name") },
              { header: t("admin.monitor.col_status") },
              { header: t("admin.monitor.col_cpu") },
              { header: t("admin.monitor.col_memory") },
              { header: t("admin.monitor.col_last_pass") },
              { header: t("admin.monitor.col_next_pass") },
              { header: t("admin.monitor.col_passes") },
              { header: t("admin.monitor.col_error") },
            ]}
            rows={stats.processes.map((p) => ({
              key: `${p.name}-${p.pm_id ?? ""}`,
              cells: [
                p.pm_id ?? "-",
                p.name,
                <span className={p.status === "online" ? "admin-status--ok" : "admin-status--bad"}>{p.status}</span>,
                p.cpu === null ? "-" : `${p.cpu.toFixed(1)}%`,
                p.memory === null ? "-" : formatBytes(p.memory),
                p.lastPassAt ? formatClockTime(p.lastPassAt) : "-",
                p.nextPassAt ? formatClockTime(p.nextPassAt) : "-",
                p.passesPerMinute ?? "-",
                p.lastError ? <FailureText text={p.lastError} /> : "-",
              ],
            }))}
          />
          <p className="page__note" data-testid="monitor-updated">
            {t("admin.monitor.refreshed", { time: formatClockTime(updatedAt) })}
          </p>
        </>
      ) : error ? null : (
        <p>{t("admin.monitor.no_data")}</p>
      )}
      <MailOutbox timer={timer} refreshMs={MONITOR_REFRESH_MS} />
    </section>
  );
}
