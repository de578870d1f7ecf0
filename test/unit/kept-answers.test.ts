/**
 * The kept answers (src/services/kept-answers.ts): encoded once, gzipped once, and as Blobs made
 * once, which a Response shares instead of copying (decision 212).
 */
import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { cachedJson, forgetKeptAnswers, keptJson } from "../../src/services/kept-answers.ts";

const deps = () => ({ database: { db: {} }, clock: { now: () => Date.UTC(2026, 10, 28, 2) } });

test("a kept answer's Blobs are made once and hold its bytes, plain and gzipped", async () => {
  const d = deps();
  let builds = 0;
  const answer = await cachedJson(d, "tee-times", async () => ({ teeTimes: [{ time: "06:00" }], builds: ++builds }));
  const held = keptJson(d, "tee-times");
  expect(held).toBe(answer);
  expect(held?.bodyBlob()).toBe(answer.bodyBlob());
  expect(held?.gzipBlob()).toBe(answer.gzipBlob());
  expect(new Uint8Array(await answer.bodyBlob().arrayBuffer())).toEqual(answer.body);
  expect(new Uint8Array(gunzipSync(new Uint8Array(await answer.gzipBlob().arrayBuffer())))).toEqual(answer.body);
  expect(JSON.parse(await answer.bodyBlob().text())).toEqual({ teeTimes: [{ time: "06:00" }], builds: 1 });

  // Forgotten: the next answer is built again, with Blobs of its own.
  forgetKeptAnswers(d.database.db);
  const next = await cachedJson(d, "tee-times", async () => ({ builds: ++builds }));
  expect(next.bodyBlob()).not.toBe(answer.bodyBlob());
  expect(JSON.parse(await next.bodyBlob().text())).toEqual({ builds: 2 });
});
