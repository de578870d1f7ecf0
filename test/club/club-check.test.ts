/**
 * The operator's club check against the demo club in both portals, against a club that is
 * down (a closed port), and with a wrong login. It reads, never books, and the pages it keeps
 * carry no credentials, tokens or cookies.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import { checkClub, formatClubCheck, redactPage } from "../../src/club/check.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { FakeClock } from "../../src/lib/clock.ts";

const START = manilaInstant("2025-03-03", "08:00"); // Monday; open up to Monday 10 March
const clock = new FakeClock(START);
const sim: ClubSim = createClubSim({ seed: 5, clock, clockOffsetMs: 7_000 });
let url = "";
let stop: () => Promise<void> = async () => {};

const COURSES = [
  { id: "masters", name: "Masters", aliases: [] },
  { id: "legends", name: "Legends", aliases: [] },
];
const LOGIN = { email: "maria@southwoods.demo", password: "maria-club" };
const options = () => ({ baseUrl: url, ...LOGIN, courses: COURSES, today: "2025-03-03", horizonDays: 10, clock, timeoutMs: 2_000 });

beforeAll(async () => {
  const running = await sim.start();
  url = running.url;
  stop = running.stop;
});
afterAll(() => stop());

describe.each(["standard", "legacy"] as const)("against the demo club's %s portal", (layout) => {
  test("reads every page, finds the furthest open sheet, measures the clock and books nothing", async () => {
    sim.setFaults({ layout });
    const attemptsBefore = sim.attempts().length;
    const report = await checkClub(options());
    expect(report.pages.filter((p) => !p.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.pages.map((p) => p.page)).toEqual([
      "login",
      "member home",
      "tee sheet masters 2025-03-03 (today)",
      // Released up to Monday 10 March, but Masters runs then and Legends is closed on Mondays.
      "tee sheet masters 2025-03-10 (furthest open)",
      "tee sheet legends 2025-03-03 (today)",
      "tee sheet legends 2025-03-10 (furthest open)",
      "advisories",
      "my bookings",
    ]);
    const masters = report.pages[2];
    expect(masters.count).toBeGreaterThan(50);
    expect(masters.firstRows).toHaveLength(3);
    expect(masters.firstRows?.[0]).toMatchObject({ time: "05:04", slotId: expect.any(String) });
    expect(report.pages[5].summary).toBe("no tee times (closed or empty)");
    expect(report.pages[1].summary).toContain("Maria Santos");
    // The demo club's clock runs 7 s ahead; the Date header has one-second resolution.
    expect(Math.abs((report.clockOffsetMs ?? 0) - 7_000)).toBeLessThanOrEqual(1_000);
    expect(sim.attempts().length).toBe(attemptsBefore);

    const everything = JSON.stringify(report);
    expect(everything).not.toContain(LOGIN.password);
    expect(everything).not.toContain(LOGIN.email);
    expect(report.pages.every((p) => p.html.length > 0)).toBe(true);
    expect(formatClubCheck(report)).toContain("ok   tee sheet masters 2025-03-03 (today): ");
  });
});

test("a club that is down: the first page says so, and the check ends there", async () => {
  const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
  const port = closed.port;
  await closed.stop(true);
  const report = await checkClub({ ...options(), baseUrl: `http://127.0.0.1:${port}` });
  expect(report.ok).toBe(false);
  expect(report.pages).toHaveLength(1);
  expect(report.pages[0]).toMatchObject({ page: "login", ok: false, error: { kind: "unavailable" } });
  expect(report.pages[0].summary).toContain("could not be reached");
  expect(formatClubCheck(report)).toContain("FAIL login");
});

test("a wrong login is a failed sign-in, with the club's words", async () => {
  sim.setFaults({ layout: "standard" });
  const report = await checkClub({ ...options(), password: "not-the-password" });
  expect(report.ok).toBe(false);
  expect(report.pages.at(-1)).toMatchObject({ page: "sign-in", ok: false, error: { kind: "bad_credentials" } });
  expect(report.pages.at(-1)?.summary).toContain("Invalid email or password.");
  expect(JSON.stringify(report)).not.toContain("not-the-password");
});

test("a page the adapter cannot read is reported with what was missing, and the rest still read", async () => {
  sim.setFaults({ layout: "standard" });
  const report = await checkClub({ ...options(), courses: [...COURSES, { id: "palms", name: "Palms", aliases: [] }] });
  const palms = report.pages.filter((p) => p.page.startsWith("tee sheet palms"));
  expect(palms.length).toBeGreaterThan(0);
  expect(palms.every((p) => !p.ok)).toBe(true);
  expect(palms[0].error?.kind).toBe("not_found");
  expect(report.pages.find((p) => p.page === "my bookings")?.ok).toBe(true);
});

test("redaction removes the login, token fields and cookies however they are written", () => {
  const html = `<meta name="csrf-token" content="abc123token"><input type="hidden" name="__RequestVerificationToken" value="tok-9"><input value="tok-10" name="authenticity_token" type="hidden"><input type="password" name="p" value="pw!"><p>maria%40southwoods.demo maria@southwoods.demo SESSIONVALUE42</p>`;
  const out = redactPage(html, ["maria@southwoods.demo", "SESSIONVALUE42"]);
  for (const secret of ["abc123token", "tok-9", "tok-10", "pw!", "maria%40southwoods.demo", "maria@southwoods.demo", "SESSIONVALUE42"]) expect(out).not.toContain(secret);
});
