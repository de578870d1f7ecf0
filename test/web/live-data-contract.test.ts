/**
 * The live data loads check each answer against the server's schema: what the pages read is kept
 * (the engine's fields of a request, the slot ids of its selection), and an answer that does not
 * match is logged and left out, while the other loads still land.
 */
import "../helpers/dom.ts";
import { afterEach, beforeEach, expect, spyOn, test } from "bun:test";
import { setApiDependencies } from "../../web/lib/api.ts";
import { useLiveDataStore } from "../../web/lib/live-data-store.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";

const request = {
  id: 5,
  course: "masters",
  play_date: "2026-12-05",
  times: ["07:04", "07:12"],
  status: "Pending",
  release_at: 1_764_000_000_000,
  players: [{ name: "Juan Dela Cruz", type: "Member", memberId: "SW-1", cart: "Own Cart" }],
  failureReason: null,
  submittedAt: 1_763_000_000_000,
  attempts: [{ time: "07:04", firedAtClub: 1, offsetFromReleaseMs: 12, outcome: "slot_taken", answer: "Taken", durationMs: 300 }],
  selectionOrder: [
    { time: "07:04", slotId: "m-0704" },
    { time: "07:12", slotId: null },
  ],
  memberCartType: "Own Cart",
};

const quietLogger = { log() {}, debug() {}, info() {}, warn() {}, error() {}, isEnabled: () => true, flush: async () => {} };

function serve(answers: Record<string, unknown>) {
  mockFetch((call) => {
    const path = call.url.split("?")[0];
    return path in answers ? jsonResponse(answers[path]) : undefined;
  });
}

const GOOD = {
  "/v1/tee-times": { teeTimes: [{ date: "2026-12-05", course: "masters", tee_times: [{ time: "07:04", status: "AVAILABLE", slotId: "m-0704" }] }], lastScrapeTime: 1000 },
  "/v1/system/dates": [{ dateStr: "2026-12-05", dayName: "Saturday", monthDay: "Dec 5" }],
  "/v1/system/rules": null,
  "/v1/advisories": { scraped: [], internal: [] },
  "/v1/my/bookings": [],
  "/v1/my/requests": [request],
  "/v1/my/players": [],
};

let errors: ReturnType<typeof spyOn<Console, "error">>;

beforeEach(() => {
  errors = spyOn(console, "error").mockImplementation(() => undefined);
  setApiDependencies({ logger: quietLogger });
  useLiveDataStore.getState().clearLiveData();
});
afterEach(() => {
  errors.mockRestore();
  setApiDependencies();
  restoreFetch();
  useLiveDataStore.getState().clearLiveData();
});

test("a request keeps every field the Bookings page and the Book wizard read", async () => {
  serve(GOOD);
  await useLiveDataStore.getState().loadAll();
  expect(useLiveDataStore.getState().requests).toEqual([request]);
  expect(useLiveDataStore.getState().lastScrapeTime).toBe(1000);
  // The rules answer (null) is not a rules bundle: logged, left out, nothing else lost.
  expect(useLiveDataStore.getState().rules).toBeNull();
  expect(errors.mock.calls.map((c) => c[0])).toEqual(["Failed to load booking rules"]);
});

test("a malformed list is left out whole, never half-read into the store", async () => {
  serve({ ...GOOD, "/v1/my/requests": [request, { ...request, id: "6", times: "07:20" }] });
  await useLiveDataStore.getState().loadAll();
  expect(useLiveDataStore.getState().requests).toEqual([]);
  expect(useLiveDataStore.getState().dates).toHaveLength(1);
  expect(useLiveDataStore.getState().hasLoaded).toBe(true);
  expect(errors.mock.calls.map((c) => c[0]).sort()).toEqual(["Failed to load booking rules", "Failed to load requests"]);
});
