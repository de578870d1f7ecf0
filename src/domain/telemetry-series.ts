/**
 * A day of per-minute samples folded into a few hundred points for small charts: each point keeps
 * what a maintainer looks for in its minutes (the busiest CPU and lag, the largest memory and
 * database, the club requests summed). Pure, so the server folds and the web draws the same way.
 */
export interface SeriesPoint {
  at: number;
  cpuPercent: number;
  rssBytes: number;
  lagP99Ms: number;
  clubRequests: number | null;
  databaseBytes: number;
}

export function foldSeries(samples: readonly SeriesPoint[], points: number): SeriesPoint[] {
  if (samples.length <= points) return samples.map((s) => ({ ...s }));
  const size = Math.ceil(samples.length / points);
  const out: SeriesPoint[] = [];
  for (let i = 0; i < samples.length; i += size) {
    const group = samples.slice(i, i + size);
    const counted = group.filter((s) => s.clubRequests !== null);
    out.push({
      at: group.at(-1)!.at,
      cpuPercent: Math.max(...group.map((s) => s.cpuPercent)),
      rssBytes: Math.max(...group.map((s) => s.rssBytes)),
      lagP99Ms: Math.max(...group.map((s) => s.lagP99Ms)),
      clubRequests: counted.length === 0 ? null : counted.reduce((sum, s) => sum + (s.clubRequests ?? 0), 0),
      databaseBytes: Math.max(...group.map((s) => s.databaseBytes)),
    });
  }
  return out;
}
