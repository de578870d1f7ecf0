/**
 * GET /metrics in the Prometheus text format (decision 132), for a maintainer's scraper: the
 * process, each job's passes and errors, the last release's lateness and the club clock's offset,
 * requests to the club, watch polls, the mail and push outboxes, members' push devices and the
 * database's size.
 *
 * Open from this machine only (a request that came through a proxy never counts as local), or to
 * anyone with `Authorization: Bearer <METRICS_TOKEN>`.
 */
import { desc, isNotNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import { bookingRequests, mailOutbox, pushOutbox, pushSubscriptions } from "../../db/schema.ts";
import { measureDatabase } from "../../db/size.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { routeGroup } from "../../lib/contract.ts";
import { AppError } from "../../lib/errors.ts";
import { probeRoutes } from "./probes.contract.ts";

type Line = [name: string, labels: Record<string, string>, value: number];

interface Family {
  name: string;
  help: string;
  type: "gauge" | "counter";
  lines: Line[];
}

const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? Number.NaN : ms / 1000);

function family(name: string, type: Family["type"], help: string, values: [Record<string, string>, number][] | number): Family {
  const list = typeof values === "number" ? [[{}, values] as [Record<string, string>, number]] : values;
  return { name, help, type, lines: list.map(([labels, value]) => [name, labels, value]) };
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

function render(families: Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
    for (const [name, labels, value] of f.lines) {
      const entries = Object.entries(labels);
      const labelText = entries.length === 0 ? "" : `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}`;
      out.push(`${name}${labelText} ${Number.isFinite(value) ? value : "NaN"}`);
    }
  }
  return `${out.join("\n")}\n`;
}

/** The newest release's requests: how late their first posts left (the worst), and how many. */
async function lastRelease(deps: Pick<AppDeps, "database">): Promise<{ releaseAt: number; worstLatenessMs: number; requests: number } | null> {
  const { db } = deps.database;
  const [newest] = await db
    .select({ releaseAt: bookingRequests.releaseAt })
    .from(bookingRequests)
    .where(isNotNull(bookingRequests.latenessMs))
    .orderBy(desc(bookingRequests.releaseAt))
    .limit(1);
  if (!newest) return null;
  const [row] = await db
    .select({ worst: sql<number>`max(${bookingRequests.latenessMs})`, n: sql<number>`count(*)` })
    .from(bookingRequests)
    .where(sql`${bookingRequests.releaseAt} = ${newest.releaseAt} and ${bookingRequests.latenessMs} is not null`);
  return { releaseAt: newest.releaseAt, worstLatenessMs: Number(row?.worst ?? 0), requests: Number(row?.n ?? 0) };
}

/** What the metrics read of the app. */
export type MetricsDeps = Pick<AppDeps, "database" | "telemetry" | "jobs" | "releaseEngine" | "slotWatch" | "hub" | "metricsToken" | "club">;

export async function renderMetrics(deps: MetricsDeps): Promise<string> {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  const sample = deps.telemetry.latest();
  const jobs = deps.jobs.list();
  const offset = deps.releaseEngine.offset();
  const release = await lastRelease(deps);
  const watches = await deps.slotWatch.stats();
  const outbox = await deps.database.db.select({ state: mailOutbox.state, n: sql<number>`count(*)` }).from(mailOutbox).groupBy(mailOutbox.state);
  const pushes = await deps.database.db.select({ state: pushOutbox.state, n: sql<number>`count(*)` }).from(pushOutbox).groupBy(pushOutbox.state);
  const [devices] = await deps.database.db.select({ n: sql<number>`count(*)` }).from(pushSubscriptions);
  const size = await measureDatabase(deps.database);
  const club = deps.club.politeness;
  const traffic = club?.traffic.snapshot();
  const byKindAndOutcome = Object.entries(traffic?.totals ?? {}).flatMap(([kind, outcomes]) =>
    Object.entries(outcomes ?? {}).map(([outcome, n]) => [{ kind, outcome }, n ?? 0] as [Record<string, string>, number]),
  );

  const families: Family[] = [
    family("teebox_process_cpu_seconds_total", "counter", "CPU time the process has used.", (cpu.user + cpu.system) / 1e6),
    family("teebox_process_resident_memory_bytes", "gauge", "Resident memory of the process.", memory.rss),
    family("teebox_process_heap_used_bytes", "gauge", "JavaScript heap in use.", memory.heapUsed),
    family("teebox_event_loop_lag_p99_seconds", "gauge", "99th percentile of the event loop's lag over the last sampled minute.", seconds(sample?.lagP99Ms ?? 0)),
    family("teebox_event_loop_lag_max_seconds", "gauge", "Longest event loop lag over the last sampled minute.", seconds(sample?.lagMaxMs ?? 0)),
    family("teebox_sockets_open", "gauge", "Browser sockets open.", deps.hub.connectionCount()),
    family(
      "teebox_job_up",
      "gauge",
      "1 while a job runs (online or with a last error), 0 once stopped.",
      jobs.map((j) => [{ job: j.name }, j.status === "stopped" ? 0 : 1]),
    ),
    family(
      "teebox_job_passes_total",
      "counter",
      "Passes (units of work) a job has made since start.",
      jobs.map((j) => [{ job: j.name }, j.passes]),
    ),
    family(
      "teebox_job_errors_total",
      "counter",
      "Failed passes of a job since start.",
      jobs.map((j) => [{ job: j.name }, j.errors]),
    ),
    family(
      "teebox_job_passes_per_minute",
      "gauge",
      "Passes a job started in the last minute.",
      jobs.map((j) => [{ job: j.name }, j.passesPerMinute]),
    ),
    family(
      "teebox_job_last_pass_timestamp_seconds",
      "gauge",
      "When a job's last pass ended.",
      jobs.map((j) => [{ job: j.name }, seconds(j.lastRunAt)]),
    ),
    family(
      "teebox_job_next_pass_timestamp_seconds",
      "gauge",
      "When a job's next pass is due.",
      jobs.map((j) => [{ job: j.name }, seconds(j.nextRunAt)]),
    ),
    family("teebox_club_clock_offset_seconds", "gauge", "The club's clock minus ours, as last measured.", seconds(offset?.offsetMs)),
    family("teebox_club_clock_uncertainty_seconds", "gauge", "Half the width of the interval the club clock's offset lies in.", seconds(offset?.uncertaintyMs)),
    family("teebox_release_last_timestamp_seconds", "gauge", "The instant of the newest release Teebox posted for.", seconds(release?.releaseAt)),
    family("teebox_release_last_lateness_seconds", "gauge", "How late the newest release's latest first post left after the instant.", seconds(release?.worstLatenessMs)),
    family("teebox_release_last_requests", "gauge", "Requests posted for at the newest release.", release?.requests ?? 0),
    family("teebox_club_requests_total", "counter", "Requests sent to the club since start, by kind and outcome (decision 145).", byKindAndOutcome),
    family(
      "teebox_club_requests_skipped_total",
      "counter",
      "Requests not sent because the club budget was spent, by kind.",
      Object.entries(traffic?.skipped ?? {}).map(([kind, n]) => [{ kind }, n ?? 0]),
    ),
    family("teebox_club_requests_last_minute", "gauge", "Requests sent to the club in the last 60 seconds.", traffic?.lastMinute ?? 0),
    family("teebox_club_budget_waiting", "gauge", "Requests waiting for a token of the club budget.", club?.budget.waiting() ?? 0),
    family("teebox_club_slow_down", "gauge", "1 while the club has asked Teebox to slow down and its pause lasts (decision 146).", club?.budget.episodes().current ? 1 : 0),
    family("teebox_watch_active", "gauge", "Slot watches watching.", watches.activeWatches),
    family("teebox_watch_polls_per_minute", "gauge", "Watched sheets read from the club in the last minute.", watches.pollsPerMinute),
    family(
      "teebox_mail_outbox_messages",
      "gauge",
      "Messages in the mail outbox, by state.",
      (["queued", "sent", "failed"] as const).map((state) => [{ state }, Number(outbox.find((o) => o.state === state)?.n ?? 0)]),
    ),
    family(
      "teebox_push_outbox_messages",
      "gauge",
      "Pushes in the push outbox, by state.",
      (["queued", "sent", "failed"] as const).map((state) => [{ state }, Number(pushes.find((o) => o.state === state)?.n ?? 0)]),
    ),
    family("teebox_push_devices", "gauge", "Devices members turned push on for.", Number(devices?.n ?? 0)),
    family("teebox_database_bytes", "gauge", "Size of the database's pages.", size.bytes),
    family("teebox_database_wal_bytes", "gauge", "Size of the database's write-ahead log (file databases).", size.walBytes ?? 0),
  ];
  return render(families);
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** From this machine, not through a proxy: the socket's peer is loopback and nothing was forwarded. */
function isLocalCaller(c: Context<AppEnv>): boolean {
  const peer = c.env?.clientIp?.() ?? "";
  return LOOPBACK.test(peer) && !c.req.header("x-forwarded-for") && !c.req.header("forwarded");
}

function hasToken(c: Context<AppEnv>, token: string | null): boolean {
  if (!token) return false;
  const given = c.req.header("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export function createMetricsRoutes(deps: MetricsDeps) {
  const token = deps.metricsToken ?? null;
  return routeGroup().handle(probeRoutes.metrics, async (c) => {
    if (!isLocalCaller(c) && !hasToken(c, token)) {
      return c.json(new AppError(403, "The metrics are open from this machine, or with the metrics token (METRICS_TOKEN).", "metrics.forbidden").toBody(), 403);
    }
    return c.text(await renderMetrics(deps), 200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
  });
}
