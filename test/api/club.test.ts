import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createClubSim, type ClubSim, type RunningClubSim } from "../../src/club-sim/index.ts";
import { VERIFY_MIN_INTERVAL_MS } from "../../src/lib/limits.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

let sim: ClubSim;
let running: RunningClubSim;
let t: TestApp;
let member: string;
let admin: string;

beforeAll(async () => {
  sim = createClubSim({ seed: 1 });
  running = await sim.start(0);
  t = await createTestApp({ clubUrl: running.url, demo: true });
  admin = await t.signIn("admin", ADMIN_PASSWORD);
  member = await t.signIn("maria", "demo1234");
});
afterAll(async () => {
  await t.close();
  await running.stop();
});

describe("POST /v1/my/verify-credentials", () => {
  // Each test is a member's next try, the pause between tries later.
  beforeEach(() => t.clock.advance(VERIFY_MIN_INTERVAL_MS));

  test("a valid club login answers 200 and is audited without the password", async () => {
    const res = await t.call("POST", "/v1/my/verify-credentials", { cookie: member, body: { email: "ana@southwoods.demo", password: "ana-club" } });
    expect(res.status).toBe(200);
    await Bun.sleep(0); // the audit write is fire-and-forget after the answer
    const audit = await t.deps.database.query<{ action: string; outcome: string; target: string }>("SELECT * FROM audit_log");
    expect(audit.some((a) => a.action === "club.verify" && a.outcome === "ok" && a.target === "ana@southwoods.demo")).toBe(true);
    expect(JSON.stringify(audit)).not.toContain("ana-club");
  });

  test("a wrong club login answers 400 with an errorKey", async () => {
    const res = await t.call("POST", "/v1/my/verify-credentials", { cookie: member, body: { email: "ana@southwoods.demo", password: "wrong" } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errorKey).toBe("club.bad_credentials");
    expect(body.message).toBe("The club did not accept that email and password.");
  });

  test("bad input answers 400 with the product's messages", async () => {
    const empty = await t.call("POST", "/v1/my/verify-credentials", { cookie: member, body: { email: "", password: "x" } });
    expect((await empty.json()).message).toBe("Southwoods email is required.");
    const bad = await t.call("POST", "/v1/my/verify-credentials", { cookie: member, body: { email: "not-an-email", password: "x" } });
    expect((await bad.json()).message).toBe("Please enter a valid email address.");
  });

  test("needs a signed-in user", async () => {
    const res = await t.call("POST", "/v1/my/verify-credentials", { body: { email: "ana@southwoods.demo", password: "ana-club" } });
    expect(res.status).toBe(401);
  });

  test("a club that is down answers 502 with a clear message", async () => {
    sim.setFaults({ down: true });
    try {
      const res = await t.call("POST", "/v1/my/verify-credentials", { cookie: member, body: { email: "ana@southwoods.demo", password: "ana-club" } });
      expect([502, 504]).toContain(res.status);
      expect((await res.json()).errorKey).toMatch(/^club\.(unavailable|timeout)$/);
    } finally {
      sim.setFaults({ down: false });
    }
  });
});

describe("GET /v1/system/club", () => {
  test("admins see the club in use and whether it answers", async () => {
    const res = await t.call("GET", "/v1/system/club", { cookie: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ mode: "demo", url: running.url, reachable: true, lastError: null });
  });

  test("members get 403 and anonymous 401", async () => {
    expect((await t.call("GET", "/v1/system/club", { cookie: member })).status).toBe(403);
    expect((await t.call("GET", "/v1/system/club")).status).toBe(401);
  });

  test("an unreachable club is reported with its error", async () => {
    sim.setFaults({ down: true });
    try {
      const body = await (await t.call("GET", "/v1/system/club", { cookie: admin })).json();
      expect(body.reachable).toBe(false);
      expect(typeof body.lastError).toBe("string");
    } finally {
      sim.setFaults({ down: false });
    }
  });
});
