/**
 * The System Monitor's last day at a glance: CPU, memory, event-loop lag, requests to the club per
 * minute and the database's size, each a small chart with its newest value and its highest of the
 * day. Drawn as plain SVG from the folded series (src/domain/telemetry-series.ts).
 */
import { formatBytes } from "../../../src/domain/format.ts";
import { formatClockTime } from "../../../src/domain/manila-time.ts";
import type { SeriesPoint } from "../../../src/domain/telemetry-series.ts";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { useText } from "../../lib/text.ts";

const WIDTH = 240;
const HEIGHT = 48;

interface ChartSpec {
  id: string;
  titleKey: UiTextKey;
  value: (p: SeriesPoint) => number | null;
  format: (n: number) => string;
}

const CHARTS: ChartSpec[] = [
  { id: "cpu", titleKey: "admin.monitor.chart_cpu", value: (p) => p.cpuPercent, format: (n) => `${n.toFixed(1)}%` },
  { id: "memory", titleKey: "admin.monitor.chart_memory", value: (p) => p.rssBytes, format: formatBytes },
  { id: "lag", titleKey: "admin.monitor.chart_lag", value: (p) => p.lagP99Ms, format: (n) => `${n.toFixed(1)} ms` },
  { id: "club", titleKey: "admin.monitor.chart_club", value: (p) => p.clubRequests, format: (n) => String(Math.round(n)) },
  { id: "database", titleKey: "admin.monitor.chart_database", value: (p) => p.databaseBytes, format: formatBytes },
];

/** The polyline of the values over the chart's box (a flat line at the bottom when all are 0). */
export function chartPath(values: readonly number[]): string {
  if (values.length === 0) return "";
  const top = Math.max(...values);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  return values.map((v, i) => `${(i * step).toFixed(1)},${(HEIGHT - (top > 0 ? (v / top) * (HEIGHT - 2) : 0) - 1).toFixed(1)}`).join(" ");
}

function Chart({ spec, points }: { spec: ChartSpec; points: readonly SeriesPoint[] }) {
  const t = useText();
  const values = points.map(spec.value).filter((v): v is number => v !== null);
  const title = t(spec.titleKey);
  if (values.length === 0) {
    return (
      <figure className="card admin-chart" data-testid={`chart-${spec.id}`}>
        <figcaption>{title}</figcaption>
        <p className="page__note">{t("admin.monitor.chart_empty")}</p>
      </figure>
    );
  }
  const latest = spec.format(values.at(-1)!);
  const highest = spec.format(Math.max(...values));
  const summary = t("admin.monitor.chart_summary", { title, latest, highest, from: formatClockTime(points[0]!.at), to: formatClockTime(points.at(-1)!.at) });
  return (
    <figure className="card admin-chart" data-testid={`chart-${spec.id}`}>
      <figcaption>
        {title}: <strong>{latest}</strong> <span className="page__note">{t("admin.monitor.chart_highest", { value: highest })}</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" height={HEIGHT} role="img" aria-label={summary} preserveAspectRatio="none">
        <polyline points={chartPath(values)} fill="none" stroke="currentColor" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
      </svg>
    </figure>
  );
}

export function MonitorCharts({ points }: { points: readonly SeriesPoint[] }) {
  const t = useText();
  return (
    <section aria-labelledby="admin-monitor-day">
      <h3 id="admin-monitor-day">{t("admin.monitor.last_day")}</h3>
      {points.length === 0 ? (
        <p className="page__note">{t("admin.monitor.chart_first_minute")}</p>
      ) : (
        <div className="admin-monitor__charts">
          {CHARTS.map((spec) => (
            <Chart key={spec.id} spec={spec} points={points} />
          ))}
        </div>
      )}
    </section>
  );
}
