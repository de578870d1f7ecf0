/**
 * The authorization matrix over every admin route and method: anonymous 401, member
 * 403, admin and superadmin allowed, plus the superadmin-only and never-delete cases.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

let t: TestApp;
let memberId: number;
beforeEach(async () => {
  t = await createTestApp();
  memberId = await t.createUser({ username: "maria", password: "maria-pass" });
  await t.createUser({ username: "alan", password: "alan-pass", role: "admin" });
  await t.createUser({ username: "sue", password: "sue-pass", role: "superadmin" });
});
afterEach(() => t.close());

type Route = { method: string; path: () => string; body?: unknown };

const ROUTES: Route[] = [
  { method: "GET", path: () => "/v1/admin/users" },
  { method: "POST", path: () => "/v1/admin/users", body: { username: "newbie", password: "newbie", role: "user", status: "active" } },
  { method: "PUT", path: () => `/v1/admin/users/${memberId}`, body: { name: "Maria Santos", role: "user", status: "active" } },
  { method: "DELETE", path: () => `/v1/admin/users/${memberId}` },
  { method: "GET", path: () => "/v1/admin/system-stats" },
  { method: "GET", path: () => "/v1/admin/full-config" },
  { method: "GET", path: () => "/v1/admin/app-settings" },
  { method: "PUT", path: () => "/v1/admin/app-settings", body: {} },
  { method: "PUT", path: () => "/v1/admin/ui-text", body: { "admin.title": "Admin" } },
  { method: "POST", path: () => "/v1/admin/holidays", body: { date: "2026-12-25", name: "Christmas" } },
  { method: "PUT", path: () => "/v1/admin/holidays/2026-12-25", body: { name: "Xmas" } },
  { method: "DELETE", path: () => "/v1/admin/holidays/2026-12-25" },
  { method: "POST", path: () => "/v1/admin/booking-rules", body: { days_of_week: [6], start_time: "05:00", end_time: "17:00" } },
  { method: "PUT", path: () => "/v1/admin/booking-rules/1", body: { days_of_week: [6], start_time: "05:00", end_time: "17:00" } },
  { method: "DELETE", path: () => "/v1/admin/booking-rules/1" },
  { method: "POST", path: () => "/v1/admin/courses", body: { id: "palms", name: "Palms", days_active: [1] } },
  { method: "PUT", path: () => "/v1/admin/courses/palms", body: { name: "Palms", days_active: [1, 2] } },
  { method: "DELETE", path: () => "/v1/admin/courses/palms" },
  { method: "POST", path: () => "/v1/admin/booking-windows", body: { rule_key: "default", start_time: "05:04", end_time: "16:48" } },
  { method: "PUT", path: () => "/v1/admin/booking-windows/1", body: { rule_key: "DEFAULT", start_time: "05:04", end_time: "16:48" } },
  { method: "DELETE", path: () => "/v1/admin/booking-windows/1" },
  { method: "POST", path: () => "/v1/admin/frontpage-messages", body: { title: "Hello", content: "World", is_active: true } },
  { method: "PUT", path: () => "/v1/admin/frontpage-messages/1", body: { title: "Hello", content: "World", is_active: false } },
  { method: "DELETE", path: () => "/v1/admin/frontpage-messages/1" },
];

async function statusesFor(cookie: string | undefined): Promise<string[]> {
  const out: string[] = [];
  for (const route of ROUTES) {
    const res = await t.call(route.method, route.path(), { body: route.body, cookie });
    out.push(`${route.method} ${route.path()} ${res.status}`);
  }
  return out;
}

describe("every admin route and method", () => {
  test("answers 401 without a session", async () => {
    for (const line of await statusesFor(undefined)) expect(line).toEndWith(" 401");
  });

  test("answers 403 to a member, and changes nothing", async () => {
    const cookie = await t.signIn("maria", "maria-pass");
    for (const line of await statusesFor(cookie)) expect(line).toEndWith(" 403");
    const admin = await t.signIn("admin", ADMIN_PASSWORD);
    const users = await (await t.call("GET", "/v1/admin/users", { cookie: admin })).json();
    expect(users.map((u: { username: string }) => u.username)).toEqual(["admin", "alan", "maria", "sue"]);
  });

  for (const [username, password] of [
    ["alan", "alan-pass"],
    ["sue", "sue-pass"],
  ] as const) {
    test(`lets ${username === "alan" ? "an admin" : "a superadmin"} through on every route`, async () => {
      const cookie = await t.signIn(username, password);
      for (const line of await statusesFor(cookie)) {
        expect(line).not.toEndWith(" 401");
        expect(line).not.toEndWith(" 403");
      }
    });
  }

  test("GET /v1/system/club is for admins only", async () => {
    expect((await t.call("GET", "/v1/system/club")).status).toBe(401);
    expect((await t.call("GET", "/v1/system/club", { cookie: await t.signIn("maria", "maria-pass") })).status).toBe(403);
  });
});

describe("user permissions", () => {
  async function idOf(username: string): Promise<number> {
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const users: { id: number; username: string }[] = await (await t.call("GET", "/v1/admin/users", { cookie })).json();
    return users.find((u) => u.username === username)!.id;
  }

  test("an admin cannot edit, delete or create a superadmin", async () => {
    const sue = await idOf("sue");
    const cookie = await t.signIn("alan", "alan-pass");
    const edit = await t.call("PUT", `/v1/admin/users/${sue}`, { cookie, body: { name: "Sue" } });
    expect(edit.status).toBe(403);
    expect(await edit.json()).toEqual({ message: "Only a superadmin can edit a superadmin.", errorKey: "admin.users.error_superadmin_only" });
    expect((await t.call("DELETE", `/v1/admin/users/${sue}`, { cookie })).status).toBe(403);
    const create = await t.call("POST", "/v1/admin/users", { cookie, body: { username: "boss", password: "boss", role: "superadmin" } });
    expect(create.status).toBe(403);
    const promote = await t.call("PUT", `/v1/admin/users/${memberId}`, { cookie, body: { role: "superadmin" } });
    expect(promote.status).toBe(403);
  });

  test("a superadmin edits a superadmin but cannot delete one", async () => {
    const sue = await idOf("sue");
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const edit = await t.call("PUT", `/v1/admin/users/${sue}`, { cookie, body: { name: "Sue Reyes" } });
    expect(edit.status).toBe(200);
    expect((await edit.json()).name).toBe("Sue Reyes");
    const del = await t.call("DELETE", `/v1/admin/users/${sue}`, { cookie });
    expect(del.status).toBe(403);
    expect((await del.json()).message).toBe("A superadmin cannot be deleted.");
  });

  test("nobody deletes themself", async () => {
    for (const [username, password] of [
      ["alan", "alan-pass"],
      ["sue", "sue-pass"],
    ] as const) {
      const id = await idOf(username);
      const cookie = await t.signIn(username, password);
      const res = await t.call("DELETE", `/v1/admin/users/${id}`, { cookie });
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe("You cannot delete your own account.");
    }
  });

  test("an admin deletes a member and another admin", async () => {
    const cookie = await t.signIn("alan", "alan-pass");
    expect((await t.call("DELETE", `/v1/admin/users/${memberId}`, { cookie })).status).toBe(204);
    await t.createUser({ username: "ben", password: "ben-pass", role: "admin" });
    expect((await t.call("DELETE", `/v1/admin/users/${await idOf("ben")}`, { cookie })).status).toBe(204);
  });
});
