import { expect, test } from "bun:test";
import { foldSeries, type SeriesPoint } from "../../src/domain/telemetry-series.ts";

const point = (at: number, cpu: number, club: number | null): SeriesPoint => ({
  at,
  cpuPercent: cpu,
  rssBytes: at * 10,
  lagP99Ms: cpu / 2,
  clubRequests: club,
  databaseBytes: 100 + at,
});

test("a day of minutes folds into at most the points asked for, keeping each group's busiest figures and summing club requests", () => {
  const day = Array.from({ length: 1440 }, (_, i) => point(i, i % 5 === 0 ? 50 : 1, 2));
  const folded = foldSeries(day, 288);
  expect(folded.length).toBe(288);
  expect(folded[0]).toEqual({ at: 4, cpuPercent: 50, rssBytes: 40, lagP99Ms: 25, clubRequests: 10, databaseBytes: 104 });
  expect(folded.at(-1)!.at).toBe(1439);
});

test("fewer samples than points are kept as they are; minutes without a club count stay uncounted", () => {
  expect(foldSeries([point(1, 3, null), point(2, 4, null)], 288)).toEqual([point(1, 3, null), point(2, 4, null)]);
  expect(
    foldSeries(
      Array.from({ length: 4 }, (_, i) => point(i, 1, i < 2 ? null : 3)),
      2,
    ).map((p) => p.clubRequests),
  ).toEqual([null, 6]);
});
