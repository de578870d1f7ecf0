/**
 * Club passwords never leave the server in clear: with the demo club
 * running and members whose club passwords are known, every route and socket action that handles
 * user data or the club login is exercised, then every answer, every published message, every
 * log line, every column of every table and the raw bytes of the database are searched for them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { DEMO_CLUB_ACCOUNTS } from "../../src/club-sim/demo-data.ts";
import { users } from "../../src/db/schema.ts";
import { registerScraperActions } from "../../src/features/availability/scraper.actions.ts";
import { createAuditedClubClient } from "../../src/club/audited-client.ts";
import { createJobRegistry } from "../../src/jobs/registry.ts";
import { createScraper, type Scraper } from "../../src/jobs/scraper.ts";
import type { SocketData } from "../../src/realtime/hub.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { ADMIN_PASSWORD, userIdOf } from "../helpers/api.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";
import { VERIFY_MIN_INTERVAL_MS } from "../../src/lib/limits.ts";

/** TEST_NOW is Sunday 2026-11-22 09:00 Manila: 2026-11-27 is open for booking, 2026-11-30 not yet. */
const OPEN_DATE = "2026-11-27";
const LATER_DATE = "2026-11-30";

/** Club passwords of the demo accounts, and club passwords members typed wrongly. */
const CLUB_PASSWORDS = [...DEMO_CLUB_ACCOUNTS.map((a) => a.password), "Wrong-Club-Pass-41", "Typo-Club-Pass-77"];
/** Teebox sign-in passwords (stored hashed only) that are not usernames. */
const TEEBOX_PASSWORDS = ["demo1234", ADMIN_PASSWORD, "Brand-New-Teebox-9"];

let f: ReleaseFixture;
let scraper: Scraper;
/** Every answer body and header, socket reply and published message of the run. */
const seen: { where: string; text: string }[] = [];
const cookies: Record<string, string> = {};
let mariaId: number;

async function call(who: string, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await f.t.call(method, path, { cookie: cookies[who], body });
  const text = await res.clone().text();
  seen.push({ where: `${who} ${method} ${path} → ${res.status}`, text: `${JSON.stringify([...res.headers.entries()])}\n${text}` });
  return res;
}

async function socketOf(who: string): Promise<SocketData> {
  const { user } = await (await f.t.call("GET", "/v1/auth/status", { cookie: cookies[who] })).json();
  return { user, sessionId: `socket-${who}` };
}

async function act(who: string, action: string, payload?: unknown): Promise<ServerMessage[]> {
  const replies: ServerMessage[] = [];
  await f.t.deps.hub.dispatch(await socketOf(who), JSON.stringify({ action, payload }), (m) => replies.push(m));
  await f.engine.idle();
  seen.push({ where: `${who} ${action}`, text: JSON.stringify(replies) });
  return replies;
}

function findSecrets(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((secret) => text.includes(secret));
}

beforeAll(async () => {
  f = await startReleaseFixture();
  // The product's club client writes every club action to the audit log: use it, so the audit
  // rows are searched too.
  f.t.deps.club = createAuditedClubClient({ baseUrl: f.t.deps.clubInfo.url, clock: f.clock, db: f.t.deps.database.db, logger: f.t.deps.logger, timeoutMs: 5000 });
  scraper = createScraper({ ...f.t.deps, jobs: createJobRegistry(() => f.t.clock.now()) }, { pause: async () => undefined });
  registerScraperActions(f.t.deps.hub, scraper);
  f.t.deps.bookingsSync.start();
  f.t.published.length = 0;
  mariaId = await userIdOf(f.t, "maria");

  for (const who of ["maria", "jose", "ana"]) {
    const res = await call("anonymous", "POST", "/v1/auth/login", { username: who, password: "demo1234" });
    expect(res.status).toBe(200);
    cookies[who] = (res.headers.get("set-cookie") ?? "").split(";")[0];
  }
  cookies.admin = await f.t.signIn("admin", ADMIN_PASSWORD);
  await call("anonymous", "POST", "/v1/auth/login", { username: "maria", password: "Wrong-Club-Pass-41" });
}, 30_000);
afterAll(async () => {
  await scraper.stop();
  await f.close();
});

describe("a run through every route and action that handles user data or the club login", () => {
  test("members and admins use the product end to end", async () => {
    // Session and profile: a re-typed club password is checked with the club, a wrong one refused.
    for (const who of ["maria", "jose", "ana", "admin"]) expect((await call(who, "GET", "/v1/auth/status")).status).toBe(200);
    const profile = {
      name: "Maria Santos",
      memberId: "SW-1001",
      southwoods_email: "maria@southwoods.demo",
      defaultCartType: "Walking",
      defaultFeeGuest: "Charge my guest",
      defaultFeeMember: "Charge to their account",
    };
    expect((await call("maria", "PUT", "/v1/my/profile", { ...profile, golf_password: "maria-club" })).status).toBe(200);
    expect((await call("maria", "PUT", "/v1/my/profile", { ...profile, golf_password: "Typo-Club-Pass-77" })).status).toBe(400);
    expect((await call("maria", "PUT", "/v1/my/profile", { ...profile, golf_password: "" })).status).toBe(200);
    expect((await call("jose", "POST", "/v1/my/verify-credentials", { email: "ana@southwoods.demo", password: "ana-club" })).status).toBe(200);
    // A member's next club login check comes after a person's pause.
    await f.clock.advance(VERIFY_MIN_INTERVAL_MS);
    expect((await call("jose", "POST", "/v1/my/verify-credentials", { email: "ana@southwoods.demo", password: "Wrong-Club-Pass-41" })).status).toBe(400);
    await f.clock.advance(VERIFY_MIN_INTERVAL_MS);
    expect((await call("jose", "POST", "/v1/my/verify-credentials", { email: "nobody@southwoods.demo", password: "jose-club" })).status).toBe(400);
    f.sim.setFaults({ down: true });
    expect((await call("ana", "POST", "/v1/my/verify-credentials", { email: "ana@southwoods.demo", password: "ana-club" })).status).toBeGreaterThanOrEqual(502);
    expect(
      (
        await call("ana", "PUT", "/v1/my/profile", {
          name: "Ana Cruz",
          memberId: "SW-1003",
          southwoods_email: "ana@southwoods.demo",
          golf_password: "ana-club",
          defaultCartType: "Walking",
          defaultFeeGuest: "Charge my guest",
          defaultFeeMember: "Charge to their account",
        })
      ).status,
    ).toBeGreaterThanOrEqual(502);
    f.sim.setFaults({ down: false });
    expect(
      (await call("jose", "POST", "/v1/my/user/change-password", { currentPassword: "demo1234", newPassword: "Brand-New-Teebox-9", confirmPassword: "Brand-New-Teebox-9" })).status,
    ).toBe(204);

    // Bookings through the club with the stored club login: booked at once, queued, listed, edited, cancelled.
    expect((await act("maria", "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, ["06:00", "06:08"])))[0]).toMatchObject({ type: "submissionResult", status: "submitted" });
    expect((await act("maria", "SUBMIT_BOOKING_REQUEST", submission(LATER_DATE, ["07:04"])))[0]).toMatchObject({ type: "submissionResult", status: "pending" });
    expect((await act("ana", "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, ["06:16"])))[0]).toMatchObject({ type: "submissionResult" });
    await f.engine.idle();
    const booked = await (await call("maria", "GET", "/v1/my/bookings")).json();
    expect(booked).toHaveLength(1);
    const requests = await (await call("maria", "GET", "/v1/my/requests")).json();
    expect(requests).toHaveLength(1);
    const guest = { type: "Guest", cartType: { Walking: true }, chargeFeesTo: { "Charge my guest": true }, firstName: "Gina", lastName: "Guest" };
    expect((await call("maria", "POST", `/v1/bookings/${booked[0].bookingId}/edit`, submission(OPEN_DATE, [booked[0].time], "masters", [guest]))).status).toBe(200);
    expect(await f.t.deps.bookingsSync.syncMember(mariaId)).toBeBoolean();
    await f.t.deps.bookingsSync.syncAll();
    expect(
      await act("maria", "UPDATE_PLAYERS", [
        { firstName: "Luis", lastName: "Garcia", type: "Member", memberId: "SW-1004", cartPreference: "Walking", feePreference: "Charge to their account" },
      ]),
    ).toEqual([{ type: "ack", action: "UPDATE_PLAYERS" }]);
    for (const path of [
      "/v1/my/players",
      "/v1/my/bookings",
      "/v1/my/requests",
      "/v1/tee-times",
      "/v1/advisories",
      "/v1/system/rules",
      "/v1/system/dates",
      "/v1/form-options",
      "/v1/ui-text",
    ]) {
      expect((await call("maria", "GET", path)).status).toBe(200);
    }
    expect(await act("maria", "CANCEL_REQUEST", { id: requests[0].id })).toEqual([{ type: "ack", action: "CANCEL_REQUEST" }]);
    expect(await act("maria", "CANCEL_CONFIRMED_BOOKING", { bookingId: booked[0].bookingId })).toEqual([{ type: "ack", action: "CANCEL_CONFIRMED_BOOKING" }]);

    // The scraper signs in with a member's club login.
    expect((await act("ana", "RUN_SCRAPER"))[0]).toMatchObject({ type: "scraper", state: "started" });
    const summary = await scraper.run("manual");
    expect(summary.pages).toBeGreaterThan(0);

    // Club trouble is logged (pages it could not read, failed bookings, lost sessions), never with the login that met it.
    f.sim.setFaults({ layout: "changed" });
    expect((await scraper.run("manual")).failures).toBeGreaterThan(0);
    expect((await act("jose", "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, ["06:24"])))[0]).toMatchObject({ type: "submissionResult" });
    f.sim.setFaults({ layout: "standard", dropSessions: true });
    await f.t.deps.bookingsSync.syncAll();
    f.sim.setFaults({ dropSessions: false, errorRate: 1 });
    await scraper.run("manual");
    f.sim.setFaults({ errorRate: 0 });

    // Admins: users list, create, edit, every config read, the club status.
    expect((await call("admin", "GET", "/v1/admin/users")).status).toBe(200);
    expect(
      (
        await call("admin", "POST", "/v1/admin/users", {
          username: "newbie",
          password: "newbie",
          role: "user",
          status: "active",
          name: "New Bie",
          memberId: "SW-2000",
          southwoods_email: "newbie@southwoods.demo",
        })
      ).status,
    ).toBe(201);
    expect((await call("admin", "PUT", `/v1/admin/users/${mariaId}`, { name: "Maria S. Santos" })).status).toBe(200);
    for (const path of ["/v1/admin/users", "/v1/admin/full-config", "/v1/admin/app-settings", "/v1/admin/system-stats", "/v1/system/club"]) {
      expect((await call("admin", "GET", path)).status).toBe(200);
    }
    for (const who of ["maria", "jose", "ana"]) expect((await call(who, "GET", "/v1/auth/status")).status).toBe(200);
    await call("maria", "POST", "/v1/auth/logout");
    await f.engine.idle();
  }, 30_000);
});

describe("no club password in clear", () => {
  test("in any answer, socket reply or published message", () => {
    expect(seen.length).toBeGreaterThan(40);
    const published = f.t.published.map((p) => ({ where: `published to ${p.topic}`, text: JSON.stringify(p.message) }));
    expect(published.length).toBeGreaterThan(0);
    const leaks = [...seen, ...published].flatMap((s) => findSecrets(s.text, [...CLUB_PASSWORDS, ...TEEBOX_PASSWORDS]).map((secret) => `${s.where}: ${secret}`));
    expect(leaks).toEqual([]);
  });

  test("in any log line", () => {
    expect(f.t.logLines.length).toBeGreaterThan(10);
    // The log is not empty of the club work: the sign-ins, bookings and scrape were logged.
    expect(f.t.logLines.some((line) => line.includes("booking request stored"))).toBe(true);
    const leaks = f.t.logLines.flatMap((line) => findSecrets(line, [...CLUB_PASSWORDS, ...TEEBOX_PASSWORDS]).map((secret) => `${secret} in ${line.slice(0, 200)}`));
    expect(leaks).toEqual([]);
  });

  test("in any column of any table; the club password is stored sealed", async () => {
    const tables = await f.t.deps.database.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    expect(tables.map((t) => t.name)).toContain("audit_log");
    const leaks: string[] = [];
    let values = 0;
    for (const { name } of tables) {
      for (const row of await f.t.deps.database.query<Record<string, unknown>>(`SELECT * FROM "${name}"`)) {
        for (const [column, value] of Object.entries(row)) {
          values++;
          const text = value instanceof Uint8Array ? Buffer.from(value).toString("latin1") : String(value);
          for (const secret of findSecrets(text, [...CLUB_PASSWORDS, ...TEEBOX_PASSWORDS])) leaks.push(`${name}.${column}: ${secret}`);
        }
      }
    }
    expect(values).toBeGreaterThan(500);
    expect(leaks).toEqual([]);
    const audit = await f.t.deps.database.query<{ action: string }>("SELECT action FROM audit_log");
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["club.login", "club.verify", "club.book", "club.cancel"]));
    const [maria] = await f.t.deps.database.db.select().from(users).where(eq(users.id, mariaId));
    expect(maria.clubPasswordSealed).toStartWith("v1.");
    expect(f.t.deps.secretBox.open(maria.clubPasswordSealed as string)).toBe("maria-club");
  });

  test("in the raw bytes of the database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "teebox-secrets-"));
    try {
      const file = join(dir, "copy.db");
      await f.t.deps.database.execute(`VACUUM INTO '${file}'`);
      const bytes = readFileSync(file);
      expect(bytes.length).toBeGreaterThan(10_000);
      // The search reads this file: plain text such as a club email is found in it.
      expect(bytes.includes(Buffer.from("maria@southwoods.demo", "utf8"))).toBe(true);
      const leaks = [...CLUB_PASSWORDS, ...TEEBOX_PASSWORDS].filter((secret) => bytes.includes(Buffer.from(secret, "utf8")) || bytes.includes(Buffer.from(secret, "utf16le")));
      expect(leaks).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
