import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClubSim, type ClubSim, type RunningClubSim } from "../../src/club-sim/index.ts";
import type { ClubClient } from "../../src/club/client.ts";
import { ClubError } from "../../src/club/errors.ts";
import { createTestApp, userIdOf, type TestApp } from "../helpers/api.ts";

let sim: ClubSim;
let running: RunningClubSim;
let t: TestApp;
let cookie: string;

const profile = {
  name: "Ana Cruz",
  memberId: "sw-1003",
  southwoods_email: "ana@southwoods.demo",
  golf_password: "ana-club",
  defaultCartType: "Own Cart",
  defaultFeeGuest: "Charge to my account",
  defaultFeeMember: "Charge to their account",
};

const putProfile = (body: unknown, cookieHeader = cookie) => t.call("PUT", "/v1/my/profile", { cookie: cookieHeader, body });

async function userRow() {
  const [row] = await t.deps.database.query<Record<string, unknown>>("SELECT * FROM users WHERE username = 'newbie'");
  return row;
}

beforeAll(async () => {
  sim = createClubSim({ seed: 3 });
  running = await sim.start(0, "127.0.0.1");
});
afterAll(() => running.stop());

beforeEach(async () => {
  t = await createTestApp({ clubUrl: running.url });
  await t.createUser({ username: "newbie", complete: false });
  cookie = await t.signIn("newbie", "newbie");
});
afterEach(async () => {
  sim.setFaults({ down: false });
  await t.close();
});

describe("PUT /v1/my/profile", () => {
  // The username an admin gave is replaced first: until then no other call is answered.
  beforeEach(async () => {
    const res = await t.call("POST", "/v1/my/user/set-password", { cookie, body: { currentPassword: "newbie", newPassword: "newbie-own-pass" } });
    expect(res.status).toBe(204);
  });

  test("needs a signed-in member", async () => {
    expect((await putProfile(profile, "")).status).toBe(401);
  });

  test("saves the profile after the club accepts the login, and answers the session user without secrets", async () => {
    const res = await putProfile(profile);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("ana-club");
    expect(JSON.parse(text).user).toMatchObject({
      username: "newbie",
      name: "Ana Cruz",
      memberId: "SW-1003",
      southwoods_email: "ana@southwoods.demo",
      defaultCartType: "Own Cart",
      defaultFeeGuest: "Charge to my account",
      defaultFeeMember: "Charge to their account",
      hasClubPassword: true,
    });
    const status = await (await t.call("GET", "/v1/auth/status", { cookie })).json();
    expect(status.user.name).toBe("Ana Cruz");
    expect(t.published).toContainEqual({ topic: `user:${await userIdOf(t, "newbie")}`, message: { type: "status", status: "updated", changed: ["my.profile"] } });
  });

  test("stores the club password only sealed: never in clear in the database file", async () => {
    expect((await putProfile(profile)).status).toBe(200);
    const row = await userRow();
    expect(String(row.club_password_sealed)).toMatch(/^v1\./);
    expect(t.deps.secretBox.open(String(row.club_password_sealed))).toBe("ana-club");

    const dir = mkdtempSync(join(tmpdir(), "teebox-profile-"));
    try {
      const file = join(dir, "copy.db");
      await t.deps.database.execute(`VACUUM INTO '${file}'`);
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from("ana@southwoods.demo"))).toBe(true); // the copy holds the data…
      expect(bytes.includes(Buffer.from("ana-club"))).toBe(false); // …but not the password
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a club login the club refuses is not saved, with a clear message", async () => {
    const res = await putProfile({ ...profile, golf_password: "wrong-password" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: "Southwoods did not accept that email and password. Please check your club login.",
      errorKey: "profile.club_login_invalid",
    });
    const row = await userRow();
    expect(row.club_password_sealed).toBeNull();
    expect(row.name).toBe("");
  });

  test("a blank golf_password keeps the stored one; a changed email is checked with it", async () => {
    expect((await putProfile(profile)).status).toBe(200);
    const sealed = (await userRow()).club_password_sealed;

    // Same login, blank password: nothing to verify, so it saves even while the club is down.
    sim.setFaults({ down: true });
    const renamed = await putProfile({ ...profile, name: "Ana M. Cruz", golf_password: "" });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).user.hasClubPassword).toBe(true);
    expect((await userRow()).club_password_sealed).toBe(sealed);
    sim.setFaults({ down: false });

    // Maria's email with Ana's stored password: the club refuses, so nothing changes.
    const moved = await putProfile({ ...profile, southwoods_email: "maria@southwoods.demo", golf_password: undefined });
    expect(moved.status).toBe(400);
    expect((await moved.json()).errorKey).toBe("profile.club_login_invalid");
    expect((await userRow()).club_email).toBe("ana@southwoods.demo");

    // With Maria's password as well it is accepted and re-sealed.
    const both = await putProfile({ ...profile, southwoods_email: "maria@southwoods.demo", golf_password: "maria-club" });
    expect(both.status).toBe(200);
    const row = await userRow();
    expect(row.club_email).toBe("maria@southwoods.demo");
    expect(t.deps.secretBox.open(String(row.club_password_sealed))).toBe("maria-club");
  });

  test("a club that is down answers 502 and saves nothing", async () => {
    sim.setFaults({ down: true });
    const res = await putProfile(profile);
    expect(res.status).toBe(502);
    expect((await res.json()).errorKey).toBe("profile.club_unavailable");
    expect((await userRow()).club_password_sealed).toBeNull();
  });

  test("every validation message of the profile", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "  " }, "Full name is required.", "profile.name_required"],
      [{ memberId: "" }, "Membership number is required.", "profile.member_id_required"],
      [{ southwoods_email: " " }, "Southwoods email is required.", "profile.email_required"],
      [{ southwoods_email: "ana-at-southwoods" }, "Please enter a valid email address.", "profile.email_invalid"],
      [{ defaultCartType: "Golf Buggy" }, "Please choose a default cart type from the list.", "profile.invalid_cart"],
      [{ defaultFeeGuest: "Charge to their account" }, "Please choose a guest fee default from the list.", "profile.invalid_fee_guest"],
      [{ defaultFeeMember: "" }, "Please choose a member fee default from the list.", "profile.invalid_fee_member"],
    ];
    for (const [change, message, errorKey] of cases) {
      const res = await putProfile({ ...profile, ...change });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message, errorKey });
    }
    const missing = await putProfile({ name: "Ana" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ message: "memberId is required.", errorKey: "validation.required" });
  });
});

describe("a club that does not answer in time", () => {
  test("answers 504 with a clear message", async () => {
    const slowClub = {
      verifyCredentials: () => Promise.reject(new ClubError("unavailable", "The club site did not answer in time.")),
    } as Partial<ClubClient> as ClubClient;
    const slow = await createTestApp({ clubUrl: running.url, extend: () => ({ club: slowClub }) });
    try {
      await slow.createUser({ username: "late", complete: false });
      const lateCookie = await slow.signIn("late", "late");
      await slow.call("POST", "/v1/my/user/set-password", { cookie: lateCookie, body: { currentPassword: "late", newPassword: "late-own-pass" } });
      const res = await slow.call("PUT", "/v1/my/profile", { cookie: lateCookie, body: profile });
      expect(res.status).toBe(504);
      expect((await res.json()).errorKey).toBe("profile.club_timeout");
    } finally {
      await slow.close();
    }
  });
});

describe("POST /v1/my/user/change-password", () => {
  const change = (body: unknown, cookieHeader = cookie) => t.call("POST", "/v1/my/user/change-password", { cookie: cookieHeader, body });

  test("needs the three fields, matching new passwords and the right current password", async () => {
    const empty = await change({ currentPassword: "newbie", newPassword: "", confirmPassword: "" });
    expect(await empty.json()).toEqual({ message: "Please fill in all three password fields.", errorKey: "password.fields_required" });
    const mismatch = await change({ currentPassword: "newbie", newPassword: "abc12345", confirmPassword: "abc12346" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toEqual({ message: "New passwords do not match.", errorKey: "password.mismatch" });
    const wrong = await change({ currentPassword: "nope", newPassword: "abc12345", confirmPassword: "abc12345" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ message: "Current password is incorrect.", errorKey: "password.error_incorrect" });
    const malformed = await change({ currentPassword: 1 });
    expect(malformed.status).toBe(400);
    expect(await t.signIn("newbie", "newbie")).toBeTruthy();
  });

  test("changes the password and ends the member's other sessions, keeping this one", async () => {
    const otherTab = await t.signIn("newbie", "newbie");
    const res = await change({ currentPassword: "newbie", newPassword: "fresh-pass-1", confirmPassword: "fresh-pass-1" });
    expect(res.status).toBe(204);
    expect((await (await t.call("GET", "/v1/auth/status", { cookie })).json()).isAuthenticated).toBe(true);
    expect((await (await t.call("GET", "/v1/auth/status", { cookie: otherTab })).json()).isAuthenticated).toBe(false);
    const old = await t.call("POST", "/v1/auth/login", { body: { username: "newbie", password: "newbie" } });
    expect(old.status).toBe(401);
    expect(await t.signIn("newbie", "fresh-pass-1")).toBeTruthy();
  });

  test("needs a signed-in member", async () => {
    const res = await change({ currentPassword: "newbie", newPassword: "x", confirmPassword: "x" }, "");
    expect(res.status).toBe(401);
  });
});

describe("POST /v1/my/user/set-password", () => {
  const setPassword = (body: unknown, cookieHeader = cookie) => t.call("POST", "/v1/my/user/set-password", { cookie: cookieHeader, body });

  test("replaces the username-as-password an admin gave, clears must_set_password and ends other sessions", async () => {
    await t.deps.database.execute("UPDATE users SET must_set_password = 1 WHERE username = 'newbie'");
    const otherTab = await t.signIn("newbie", "newbie");
    const res = await setPassword({ currentPassword: "newbie", newPassword: "my-own-pass" });
    expect(res.status).toBe(204);
    expect((await userRow()).must_set_password).toBe(0);
    expect((await (await t.call("GET", "/v1/auth/status", { cookie: otherTab })).json()).isAuthenticated).toBe(false);
    expect((await (await t.call("GET", "/v1/auth/status", { cookie })).json()).isAuthenticated).toBe(true);
    expect(await t.signIn("newbie", "my-own-pass")).toBeTruthy();
  });

  test("once the password is set, the username no longer works: password.error_incorrect (the wizard moves on)", async () => {
    expect((await setPassword({ currentPassword: "newbie", newPassword: "my-own-pass" })).status).toBe(204);
    const again = await setPassword({ currentPassword: "newbie", newPassword: "another-pass" });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: "Current password is incorrect.", errorKey: "password.error_incorrect" });
    expect(await t.signIn("newbie", "my-own-pass")).toBeTruthy();
  });

  test("a new password is required", async () => {
    const res = await setPassword({ currentPassword: "newbie", newPassword: "" });
    expect(res.status).toBe(400);
    expect((await res.json()).errorKey).toBe("password.new_required");
    expect((await setPassword({ newPassword: "x" })).status).toBe(400);
  });
});
