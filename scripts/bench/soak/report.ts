/**
 * The soak's report: a table with a row per simulated month, and a chart of the year (RSS, CPU at
 * rest, database size, club requests per day) as a hand-written SVG a maintainer opens in a browser.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { DayFigures } from "./day.ts";

const mean = (values: number[]) => (values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length);
const max = (values: number[]) => (values.length === 0 ? NaN : Math.max(...values));
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

const HEADER = [
  "month",
  "days",
  "released",
  "confirmed",
  "failed",
  "club bookings",
  "RSS MB (max)",
  "CPU at rest % (mean/max)",
  "DB MB (end)",
  "log MB/day",
  "club req/day",
  "busiest member-minute",
  "restarts",
  "invariant failures",
];

function rowOf(month: string, days: DayFigures[]): string[] {
  const last = days.at(-1)!;
  return [
    month,
    String(days.length),
    String(days.reduce((s, d) => s + d.released, 0)),
    String(days.reduce((s, d) => s + d.releasedConfirmed, 0)),
    String(days.reduce((s, d) => s + d.releasedFailed, 0)),
    String(days.reduce((s, d) => s + d.booked, 0)),
    fixed(max(days.map((d) => d.rssMb)), 0),
    `${fixed(mean(days.map((d) => d.cpuAtRestPercent)))}/${fixed(max(days.map((d) => d.cpuAtRestPercent)))}`,
    fixed(last.databaseMb + last.walMb),
    fixed(mean(days.map((d) => d.logMb)), 2),
    fixed(mean(days.map((d) => d.traffic.total)), 0),
    String(max(days.map((d) => d.traffic.busiestMinute?.count ?? 0))),
    String(days.reduce((s, d) => s + d.restarts.length, 0)),
    String(days.reduce((s, d) => s + d.failures.length, 0)),
  ];
}

/** The club's requests by kind, most first. */
const kinds = (byKind: Record<string, number>) =>
  Object.entries(byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ");

/** One line per simulated day, as the soak goes. */
export function dayLine(d: DayFigures): string {
  const extras = [...d.faults, ...d.restarts].join("; ");
  return [
    `day ${String(d.day).padStart(3)} ${d.date}:`,
    `released ${d.released} (${d.releasedConfirmed} booked, ${d.releasedFailed} failed), club bookings ${d.booked},`,
    `requests ${d.activity.requests}/edits ${d.activity.edits}/cancels ${d.activity.cancels}, watches ${d.activity.watches} (${d.activeWatches} active),`,
    `RSS ${fixed(d.rssMb, 0)} MB (heap ${d.heapMb === null ? "–" : fixed(d.heapMb, 0)}), CPU at rest ${fixed(d.cpuAtRestPercent)}% (mean ${fixed(d.meanCpuAtRestPercent)}%, quiet after ${fixed(d.settleMs / 1000)} s), DB ${fixed(d.databaseMb + d.walMb)} MB, log ${fixed(d.logMb, 2)} MB,`,
    `release posts ${d.release.posts} (first at +${fixed(d.release.firstPostS ?? Number.NaN, 2)} s club time, ${d.release.notYetOpen} "not yet open"),`,
    `club ${d.traffic.total} requests (${d.traffic.byKind.book ?? 0} booking posts, ${d.busyRatePerMinute}/min in the busy quarter-hour; ${kinds(d.traffic.byKind)}), busiest member-minute ${d.traffic.busiestMinute?.count ?? 0};`,
    `${d.failures.length} failure(s)${extras ? `; ${extras}` : ""} [${fixed(d.realMs / 1000)} s]`,
    ...d.failures.map((f) => `\n    ✗ ${f.invariant}: ${f.detail}`),
  ].join(" ");
}

/** A row per month (or only `month`'s), as a Markdown table. */
export function monthlyTable(figures: DayFigures[], month?: string): string {
  const months = [...new Set(figures.map((f) => f.date.slice(0, 7)))].filter((m) => !month || m === month);
  const rows = months.map((m) =>
    rowOf(
      m,
      figures.filter((f) => f.date.startsWith(m)),
    ),
  );
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(HEADER), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

interface Series {
  title: string;
  unit: string;
  values: number[];
  colour: string;
}

const WIDTH = 960;
const PANEL = 170;
const LEFT = 70;
const RIGHT = 20;
const TOP = 50;

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function panel(series: Series, index: number, days: DayFigures[]): string {
  const y0 = TOP + index * (PANEL + 44);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const finite = series.values.filter(Number.isFinite);
  const top = Math.max(1e-9, ...finite) * 1.1;
  const x = (i: number) => LEFT + (days.length <= 1 ? 0 : (i / (days.length - 1)) * plotWidth);
  const y = (v: number) => y0 + PANEL - (v / top) * PANEL;
  const points = series.values
    .map((v, i) => (Number.isFinite(v) ? `${x(i).toFixed(1)},${y(v).toFixed(1)}` : ""))
    .filter(Boolean)
    .join(" ");
  const ticks = [0, 0.5, 1].map((f) => {
    const value = top * f;
    return `<text x="${LEFT - 6}" y="${y(value) + 4}" text-anchor="end">${fixed(value, value < 10 ? 1 : 0)}</text><line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(value)}" y2="${y(value)}" class="grid"/>`;
  });
  // A tick under the first day of each month.
  const months = days.flatMap((d, i) =>
    i === 0 || d.date.slice(0, 7) !== days[i - 1].date.slice(0, 7) ? [`<text x="${x(i)}" y="${y0 + PANEL + 14}" text-anchor="middle">${d.date.slice(0, 7)}</text>`] : [],
  );
  const restarts = days.flatMap((d, i) => (d.restarts.length > 0 ? [`<line x1="${x(i)}" x2="${x(i)}" y1="${y0}" y2="${y0 + PANEL}" class="restart"/>`] : []));
  return [
    `<text x="${LEFT}" y="${y0 - 8}" class="title">${escapeXml(series.title)} (${escapeXml(series.unit)})</text>`,
    ...ticks,
    ...restarts,
    `<polyline points="${points}" fill="none" stroke="${series.colour}" stroke-width="1.5"/>`,
    ...months,
  ].join("\n");
}

/** Writes the chart (its folder made if missing) and returns its absolute path. */
export function writeChart(file: string, days: DayFigures[]): string {
  const series: Series[] = [
    { title: "Teebox's memory at rest", unit: "RSS, MB", values: days.map((d) => d.rssMb), colour: "#2b6cb0" },
    { title: "Teebox's CPU between events", unit: "% of one core", values: days.map((d) => d.cpuAtRestPercent), colour: "#c05621" },
    { title: "Database size", unit: "MB, file and WAL", values: days.map((d) => d.databaseMb + d.walMb), colour: "#2f855a" },
    { title: "Requests to the club", unit: "per simulated day, as the club counted them", values: days.map((d) => d.traffic.total), colour: "#6b46c1" },
  ];
  const height = TOP + series.length * (PANEL + 44) + 10;
  const failures = days.reduce((s, d) => s + d.failures.length, 0);
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    "<style>.title{font-size:13px;font-weight:bold}.grid{stroke:#ddd}.restart{stroke:#e53e3e;stroke-dasharray:2 3}</style>",
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="${LEFT}" y="24" font-size="15" font-weight="bold">Teebox soak: ${days.length} simulated days from ${days[0]?.date ?? "–"}, ${failures} invariant failure(s); dashed red lines: restarts (kill -9, SIGTERM)</text>`,
    ...series.map((s, i) => panel(s, i, days)),
    "</svg>",
  ].join("\n");
  const path = resolve(file);
  // Written beside and renamed, so a browser reloading the chart mid-run never reads half of it.
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.part`, svg);
  renameSync(`${path}.part`, path);
  return path;
}
