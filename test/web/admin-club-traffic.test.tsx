import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { render, within } from "@testing-library/react";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { SystemMonitor } from "../../web/features/admin/system-monitor.tsx";
import { useSessionStore } from "../../web/lib/session-store.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";
import { makeUser } from "./support/users.ts";

const AT = manilaInstant("2026-11-23", "07:00");
const BASE = {
  cpu: { currentLoad: 1, cores: 2 },
  memory: { used: 1024, total: 4096, percent: 25 },
  processes: [],
};
const CLUB = {
  requestsLastMinute: 37,
  perMinute: [{ atMs: AT, requests: 37 }],
  totalSinceStart: 1200,
  sinceMs: AT - 3_600_000,
  busiestMember: { userId: 2, name: "Maria Santos", requests: 19, windowMinutes: 15 },
  budget: { clubPerMinute: 60, clubBurst: 1000, memberPerMinute: 12, memberBurst: 60, waiting: 2 },
  slowDown: null,
};
const SLOWED = { isActive: true, startedAt: AT, pausedUntil: AT + 60_000, signals: 4, reason: "challenge", status: 403, retryAfterMs: null, endedAt: null };

const page = () => within(document.body);
const serve = (stats: unknown) =>
  mockFetch((call) => {
    if (call.url.startsWith("/v1/admin/system-stats")) return jsonResponse(stats);
    if (call.url.startsWith("/v1/system/club")) return jsonResponse({ mode: "live", url: "https://club.example", reachable: true, lastError: null });
    if (call.url.startsWith("/v1/admin/mail-outbox")) return jsonResponse({ smtp: null, counts: { queued: 0, sent: 0, failed: 0 }, messages: [] });
    return undefined;
  });

beforeEach(() => useSessionStore.setState({ status: "authenticated", user: makeUser({ role: "admin", id: 1, username: "admin" }) }));
afterEach(() => restoreFetch());

describe("the monitor's requests to the club", () => {
  test("requests in the last minute, the busiest member and the budget", async () => {
    serve({ ...BASE, club: CLUB });
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    const card = await page().findByTestId("monitor-club-requests");
    expect(within(card).getByText("Requests to the club")).toBeTruthy();
    expect(within(card).getByText("37 in the last minute (1200 since 06:00:00)")).toBeTruthy();
    expect(within(card).getByText("Busiest member, last 15 minutes: Maria Santos (19)")).toBeTruthy();
    expect(within(card).getByText("Budget: 60 a minute for the club (1000 at once), 12 a minute per member (60 at once); 2 waiting")).toBeTruthy();
    expect(page().queryByTestId("monitor-slow-down")).toBeNull();
  });

  test("a red line while the club asks Teebox to slow down, a plain one after", async () => {
    serve({ ...BASE, club: { ...CLUB, busiestMember: null, slowDown: SLOWED } });
    const { unmount } = render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    const line = await page().findByTestId("monitor-slow-down");
    expect(line.textContent).toBe("The club asked Teebox to slow down at 07:00:00 (a bot wall's challenge page, HTTP 403): every request to the club waits until 07:01:00.");
    expect(line.className).toContain("admin-status--bad");
    expect(line.getAttribute("role")).toBe("alert");
    expect(page().getByText("No member's requests in the last 15 minutes.")).toBeTruthy();
    unmount();
    restoreFetch();

    serve({ ...BASE, club: { ...CLUB, slowDown: { ...SLOWED, reason: "429", status: 429, retryAfterMs: 30_000, isActive: false, endedAt: AT + 90_000 } } });
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    const over = await page().findByTestId("monitor-slow-down");
    expect(over.textContent).toBe("The club asked Teebox to slow down at 07:00:00 (too many requests, HTTP 429); requests went again at 07:01:30.");
    expect(over.className).not.toContain("admin-status--bad");
  });

  test("a server without these figures shows neither", async () => {
    serve(BASE);
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    expect(await page().findByText("1.0% of 2 cores")).toBeTruthy();
    expect(page().queryByTestId("monitor-club-requests")).toBeNull();
    expect(page().queryByTestId("monitor-slow-down")).toBeNull();
  });
});
