/**
 * The two doors to the club check: POST /v1/admin/club-check (admins only) and the
 * `teebox check-club` command, against the demo club in both portals and a club that is down.
 */
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import { runCli } from "../../src/cli.ts";
import type { Clock } from "../../src/lib/clock.ts";
import { ADMIN_PASSWORD, createTestApp, TEST_NOW, type TestApp } from "../helpers/api.ts";

let shared: Clock | null = null;
const clubClock: Clock = { now: () => (shared ? shared.now() : TEST_NOW), sleepUntil: (at, signal) => (shared ? shared.sleepUntil(at, signal) : Promise.resolve()) };
const sim: ClubSim = createClubSim({ clock: clubClock, seed: 11 });
let url = "";
let stopSim: () => Promise<void> = async () => {};
let t: TestApp;

beforeAll(async () => {
  const running = await sim.start();
  url = running.url;
  stopSim = running.stop;
  t = await createTestApp({ clubUrl: url, demo: true });
  shared = t.clock;
});
afterAll(async () => {
  await t.close();
  await stopSim();
});

describe("POST /v1/admin/club-check", () => {
  test.each(["standard", "legacy"] as const)("runs the check with the admin's own club login on the %s portal", async (layout) => {
    sim.setFaults({ layout });
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const res = await t.call("POST", "/v1/admin/club-check", { cookie });
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(report.pages.filter((p: { ok: boolean }) => !p.ok)).toEqual([]);
    expect(report).toMatchObject({ ok: true, clubUrl: url, clockOffsetMs: expect.any(Number) });
    expect(report.pages.map((p: { page: string }) => p.page)).toContain("tee sheet masters 2026-11-22 (today)");
    expect(report.pages.some((p: { page: string }) => p.page.endsWith("(furthest open)"))).toBe(true);
    expect(JSON.stringify(report)).not.toContain('-club"'); // no demo club password
    sim.setFaults({ layout: "standard" });
  });

  test("is for admins only, checks its body, and says when a login is missing", async () => {
    expect((await t.call("POST", "/v1/admin/club-check", {})).status).toBe(401);
    await t.createUser({ username: "member1", password: "member-pass-1" });
    const member = await t.signIn("member1", "member-pass-1");
    expect((await t.call("POST", "/v1/admin/club-check", { cookie: member })).status).toBe(403);

    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const half = await t.call("POST", "/v1/admin/club-check", { cookie, body: { email: "x@y.z" } });
    expect(half.status).toBe(400);
    expect(await half.json()).toMatchObject({ message: "Give both the club email and the password, or neither." });
    const wrong = await t.call("POST", "/v1/admin/club-check", { cookie, body: { email: "maria@southwoods.demo", password: "wrong-one" } });
    expect(wrong.status).toBe(200);
    expect(await wrong.json()).toMatchObject({ ok: false, pages: expect.arrayContaining([expect.objectContaining({ page: "sign-in", ok: false })]) });

    await t.createUser({ username: "admin2", password: "admin2-pass-1", role: "admin", complete: false });
    const admin2 = await t.signIn("admin2", "admin2-pass-1");
    const none = await t.call("POST", "/v1/admin/club-check", { cookie: admin2 });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ message: "Add your club login in your profile first, or give one for the check.", errorKey: "admin.club_check.error_no_login" });
  });
});

describe("teebox check-club", () => {
  async function runCommand(env: Record<string, string>, answers: string[] = []) {
    const lines: string[] = [];
    const log = spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    const error = spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    const asked: string[] = [];
    try {
      const ask = async (question: string) => {
        asked.push(question);
        return answers.shift() ?? "";
      };
      // The club's clock, so "today" is the simulated club's today whatever the date the suite runs on.
      const code = await runCli(["check-club"], async () => {}, { env, ask, clock: clubClock });
      return { code, output: lines.join("\n"), asked };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  }

  test.each(["standard", "legacy"] as const)("reads the demo club's %s portal with a login from the environment and keeps the pages", async (layout) => {
    sim.setFaults({ layout });
    const dataDir = mkdtempSync(join(tmpdir(), "teebox-check-"));
    try {
      const { code, output, asked } = await runCommand({ CLUB_URL: url, DATA_DIR: dataDir, CLUB_EMAIL: "maria@southwoods.demo", CLUB_PASSWORD: "maria-club" });
      expect(asked).toEqual([]);
      expect(output).toContain("every page read");
      // The club's today is a Sunday, when the demo Masters is closed and the Legends open.
      expect(output).toContain("ok   tee sheet masters 2026-11-22 (today): no tee times (closed or empty)");
      expect(output).toMatch(/ok {3}tee sheet legends 2026-11-22 \(today\): \d+ slots/);
      expect(code).toBe(0);
      const folder = readdirSync(dataDir).find((name) => name.startsWith("club-check-"))!;
      const files = readdirSync(join(dataDir, folder));
      expect(files.length).toBeGreaterThanOrEqual(6);
      const saved = files.map((file) => readFileSync(join(dataDir, folder, file), "utf8")).join("\n");
      expect(saved).not.toContain("maria-club");
      expect(saved).not.toContain("maria@southwoods.demo");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      sim.setFaults({ layout: "standard" });
    }
  });

  test("asks for the login when the environment has none", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "teebox-check-"));
    try {
      const { code, asked } = await runCommand({ CLUB_URL: url, DATA_DIR: dataDir }, ["maria@southwoods.demo", "maria-club"]);
      expect(asked).toEqual(["Club login (email or username): ", "Club password: "]);
      expect(code).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("a club that is down fails with the reason; no CLUB_URL is a usage error", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "teebox-check-"));
    const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
    const port = closed.port;
    await closed.stop(true);
    try {
      const down = await runCommand({ CLUB_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, CLUB_EMAIL: "a@b.c", CLUB_PASSWORD: "x" });
      expect(down.code).toBe(1);
      expect(down.output).toContain("FAIL login: The club site could not be reached.");
      const noUrl = await runCommand({ DATA_DIR: dataDir, CLUB_EMAIL: "a@b.c", CLUB_PASSWORD: "x" });
      expect(noUrl.code).toBe(2);
      expect(noUrl.output).toContain("check-club needs CLUB_URL");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
