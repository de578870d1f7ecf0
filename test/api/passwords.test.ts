/**
 * One password rule (8 to 128 characters) on every form that sets one, and a member whose password
 * someone else typed chooses their own before anything else is answered.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../src/domain/passwords.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { resolveSession } from "../../src/services/sessions.ts";
import { getSessionFromCookieHeader } from "../../src/services/sessions.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp({ demo: true });
  admin = await t.signIn("admin", ADMIN_PASSWORD);
});
afterEach(() => t.close());

const short = "s".repeat(MIN_PASSWORD_LENGTH - 1);
const long = "l".repeat(MAX_PASSWORD_LENGTH + 1);
const fine = "f".repeat(MIN_PASSWORD_LENGTH);

async function expectKey(res: Response, errorKey: string, status = 400) {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body.errorKey).toBe(errorKey);
  expect(typeof body.message).toBe("string");
  return body;
}

describe("the password rule", () => {
  test("change password: 8 to 128 characters, not the username", async () => {
    await t.createUser({ username: "mariel", password: "maria-pass-1" });
    const cookie = await t.signIn("mariel", "maria-pass-1");
    const change = (newPassword: string) =>
      t.call("POST", "/v1/my/user/change-password", { cookie, body: { currentPassword: "maria-pass-1", newPassword, confirmPassword: newPassword } });
    expect((await expectKey(await change(short), "password.too_short")).message).toBe("Use at least 8 characters.");
    expect((await expectKey(await change(long), "password.too_long")).message).toBe("Use at most 128 characters.");
    await expectKey(await change("Mariel"), "password.too_short");
    await t.createUser({ username: "longusername", password: "longusername-1" });
    const other = await t.signIn("longusername", "longusername-1");
    await expectKey(
      await t.call("POST", "/v1/my/user/change-password", {
        cookie: other,
        body: { currentPassword: "longusername-1", newPassword: "LongUserName", confirmPassword: "LongUserName" },
      }),
      "password.same_as_username",
    );
    // 128 characters of any kind (an emoji is one) are fine.
    const emoji = "⛳".repeat(MAX_PASSWORD_LENGTH);
    expect((await change(emoji)).status).toBe(204);
    expect(await t.signIn("mariel", emoji)).toBeTruthy();
  });

  test("the setup wizard's first password", async () => {
    await t.createUser({ username: "newbie", complete: false });
    const cookie = await t.signIn("newbie", "newbie");
    const set = (newPassword: string) => t.call("POST", "/v1/my/user/set-password", { cookie, body: { currentPassword: "newbie", newPassword } });
    await expectKey(await set(short), "password.too_short");
    await expectKey(await set(long), "password.too_long");
    expect((await set(fine)).status).toBe(204);
  });

  test("the admin's user form: the username as first password, or 8 to 128 characters", async () => {
    const create = (username: string, password: string) => t.call("POST", "/v1/admin/users", { cookie: admin, body: { username, password, role: "user", status: "active" } });
    await expectKey(await create("kim", "short"), "password.too_short");
    await expectKey(await create("kim", long), "password.too_long");
    expect((await create("kim", "kim")).status).toBe(201);
    const lee = await (await create("lee", fine)).json();
    await expectKey(await t.call("PUT", `/v1/admin/users/${lee.id}`, { cookie: admin, body: { password: "1234567" } }), "password.too_short");
  });

  test("the demo's demo1234 still signs in and works", async () => {
    const cookie = await t.signIn("maria", "demo1234");
    expect((await t.call("GET", "/v1/my/players", { cookie })).status).toBe(200);
  });
});

describe("a password someone else typed is replaced before anything else", () => {
  test("even with the whole profile filled in by the admin", async () => {
    const created = await t.call("POST", "/v1/admin/users", {
      cookie: admin,
      body: { username: "anita", password: "given-by-admin", role: "user", status: "active", name: "Ana Cruz", memberId: "SW-1003", southwoods_email: "ana@southwoods.demo" },
    });
    expect(created.status).toBe(201);
    const cookie = await t.signIn("anita", "given-by-admin");
    const status = await (await t.call("GET", "/v1/auth/status", { cookie })).json();
    expect(status.user).toMatchObject({ name: "Ana Cruz", mustSetPassword: true });
    for (const [method, path] of [
      ["GET", "/v1/my/players"],
      ["GET", "/v1/my/bookings"],
      ["GET", "/v1/tee-times"],
      ["PUT", "/v1/my/profile"],
    ] as const) {
      await expectKey(await t.call(method, path, { cookie, body: method === "PUT" ? {} : undefined }), "password.must_change", 403);
    }
    // The socket refuses every action too.
    const session = await getSessionFromCookieHeader(t.deps, cookie);
    const replies: ServerMessage[] = [];
    const data = { ...session!, current: () => resolveSession(t.deps, session!.sessionId) };
    await t.deps.hub.dispatch(data, JSON.stringify({ action: "UPDATE_PLAYERS", payload: [] }), (m) => replies.push(m));
    expect(replies).toEqual([{ type: "error", message: "Please choose your own password before you continue.", errorKey: "password.must_change" }]);

    // The wizard's first step, with the password the admin gave.
    expect((await t.call("POST", "/v1/my/user/set-password", { cookie, body: { currentPassword: "given-by-admin", newPassword: "anas-own-pass" } })).status).toBe(204);
    expect((await t.call("GET", "/v1/my/players", { cookie })).status).toBe(200);
    expect((await (await t.call("GET", "/v1/auth/status", { cookie })).json()).user.mustSetPassword).toBe(false);
  });

  test("a password equal to the username is found at sign-in", async () => {
    await t.createUser({ username: "pepe" });
    const cookie = await t.signIn("pepe", "pepe");
    expect((await (await t.call("GET", "/v1/auth/status", { cookie })).json()).user.mustSetPassword).toBe(true);
    await expectKey(await t.call("GET", "/v1/my/players", { cookie }), "password.must_change", 403);
  });
});
