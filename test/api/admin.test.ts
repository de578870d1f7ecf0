/** The admin calls with their validation messages and side effects. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cpus, totalmem } from "node:os";
import { desc, eq } from "drizzle-orm";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";
import { auditLog, bookingRequests, users } from "../../src/db/schema.ts";
import { releaseInstant } from "../../src/domain/release-time.ts";
import { DEFAULT_SETTINGS, DEFAULT_STORED_SETTINGS } from "../../src/domain/settings.ts";

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.signIn("admin", ADMIN_PASSWORD);
});
afterEach(() => t.close());

const send = (method: string, path: string, body?: unknown) => t.call(method, path, { cookie, body });
async function expectFailure(res: Response, status: number, message: string) {
  expect(res.status).toBe(status);
  expect((await res.json()).message).toBe(message);
}
const statusUpdates = () => t.published.filter((p) => p.message.type === "status" && p.topic === "members").length;
async function lastAudit() {
  const rows = await t.deps.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return rows[0];
}

describe("users", () => {
  test("create, list sorted by username, update and delete", async () => {
    const created = await send("POST", "/v1/admin/users", { username: "zed", password: "zed", role: "user", status: "active", name: "Zed Cruz" });
    expect(created.status).toBe(201);
    const zed = await created.json();
    expect(zed).toMatchObject({ username: "zed", name: "Zed Cruz", role: "user", status: "active", mustSetPassword: true });
    expect(JSON.stringify(zed)).not.toMatch(/hash|sealed/i);
    await send("POST", "/v1/admin/users", { username: "Bea", password: "chosen-pass" });
    const list: { username: string; mustSetPassword: boolean }[] = await (await send("GET", "/v1/admin/users")).json();
    expect(list.map((u) => u.username)).toEqual(["admin", "Bea", "zed"]);
    // A password the admin typed is known to the admin: Bea chooses her own too.
    expect(list.find((u) => u.username === "Bea")!.mustSetPassword).toBe(true);
    // The new member signs in with the username as password until they set their own.
    await t.signIn("zed", "zed");
    expect((await lastAudit()).detail).toContain("by admin");

    const updated = await send("PUT", `/v1/admin/users/${zed.id}`, { username: "zed", password: "", role: "admin", name: "Zed C." });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ role: "admin", name: "Zed C." });
    await t.signIn("zed", "zed"); // blank password kept it

    expect((await send("DELETE", `/v1/admin/users/${zed.id}`)).status).toBe(204);
    expect((await lastAudit()).action).toBe("admin.user.delete");
    expect((await send("GET", "/v1/admin/users")).status).toBe(200);
  });

  test("validation messages", async () => {
    await expectFailure(await send("POST", "/v1/admin/users", { username: "  ", password: "x" }), 400, "Username is required.");
    await expectFailure(await send("POST", "/v1/admin/users", { username: "newbie" }), 400, "Password is required.");
    await expectFailure(await send("POST", "/v1/admin/users", { username: "ADMIN", password: "x" }), 400, "Username already exists.");
    await expectFailure(await send("POST", "/v1/admin/users", { username: "kim", password: "x", southwoods_email: "not-an-email" }), 400, "Please enter a valid email address.");
    const id = await t.createUser({ username: "maria" });
    await expectFailure(await send("PUT", `/v1/admin/users/${id}`, { username: "maria2" }), 400, "Username cannot be changed.");
    const adminId = (await (await send("GET", "/v1/admin/users")).json())[0].id;
    await expectFailure(await send("PUT", `/v1/admin/users/${adminId}`, { role: "admin" }), 400, "The role of the built-in admin user cannot be changed.");
    await expectFailure(await send("PUT", "/v1/admin/users/9999", { name: "x" }), 404, "User not found.");
  });

  test("a new password signs the user out everywhere; disabling ends their sessions", async () => {
    const id = await t.createUser({ username: "maria", password: "maria-pass" });
    const memberCookie = await t.signIn("maria", "maria-pass");
    expect((await send("PUT", `/v1/admin/users/${id}`, { status: "disabled" })).status).toBe(200);
    const status = await (await t.call("GET", "/v1/auth/status", { cookie: memberCookie })).json();
    expect(status.isAuthenticated).toBe(false);
    // Enabled again, the old session stays ended (the row is gone, not just hidden).
    await send("PUT", `/v1/admin/users/${id}`, { status: "active" });
    expect((await (await t.call("GET", "/v1/auth/status", { cookie: memberCookie })).json()).isAuthenticated).toBe(false);

    const again = await t.signIn("maria", "maria-pass");
    await send("PUT", `/v1/admin/users/${id}`, { password: "new-pass-1" });
    expect((await (await t.call("GET", "/v1/auth/status", { cookie: again })).json()).isAuthenticated).toBe(false);
    await t.signIn("maria", "new-pass-1");
    const row = (await t.deps.database.db.select().from(users).where(eq(users.id, id)))[0];
    // A password an admin typed for somebody else must be replaced by its member.
    expect(row.mustSetPassword).toBe(true);
  });

  test("an admin cannot disable themself", async () => {
    await t.createUser({ username: "alan", password: "alan-pass", role: "admin" });
    const alan = await t.signIn("alan", "alan-pass");
    const list: { id: number; username: string }[] = await (await send("GET", "/v1/admin/users")).json();
    const id = list.find((u) => u.username === "alan")!.id;
    await expectFailure(await t.call("PUT", `/v1/admin/users/${id}`, { cookie: alan, body: { status: "disabled" } }), 400, "You cannot disable your own account.");
  });
});

describe("full config and its parts", () => {
  test("full-config has the product's keys and snake_case shapes", async () => {
    const res = await send("GET", "/v1/admin/full-config");
    const config = await res.json();
    expect(Object.keys(config).sort()).toEqual(["bookingRules", "bookingWindows", "courses", "frontpageMessages", "holidays"]);
    expect(config.courses[0]).toEqual({ id: expect.any(String), name: expect.any(String), days_active: expect.any(Array), aliases: expect.any(Array) });
    expect(config.bookingWindows[0]).toEqual({ id: expect.any(Number), rule_key: expect.any(String), start_time: expect.any(String), end_time: expect.any(String) });
  });

  test("courses: required fields, active days, unique id that cannot change", async () => {
    await expectFailure(await send("POST", "/v1/admin/courses", { id: "", name: "X", days_active: [1] }), 400, "ID and Name are required");
    await expectFailure(await send("POST", "/v1/admin/courses", { id: "palms", name: "", days_active: [1] }), 400, "ID and Name are required");
    await expectFailure(await send("POST", "/v1/admin/courses", { id: "palms", name: "Palms", days_active: [] }), 400, "Select at least one active day");
    await expectFailure(await send("POST", "/v1/admin/courses", { id: "MASTERS", name: "Again", days_active: [1] }), 400, "Course ID already exists.");
    const before = statusUpdates();
    const created = await send("POST", "/v1/admin/courses", { id: "palms", name: "Palms", days_active: [7, 1, 1] });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ id: "palms", name: "Palms", days_active: [1, 7], aliases: [] });
    expect(statusUpdates()).toBe(before + 1);
    await expectFailure(await send("PUT", "/v1/admin/courses/palms", { id: "other", name: "Palms", days_active: [1] }), 400, "Course ID cannot be changed.");
    expect((await (await send("PUT", "/v1/admin/courses/palms", { name: "Palm Links", days_active: [2] })).json()).name).toBe("Palm Links");
    // Aliases: the other names the club's pages use; left out, an edit keeps them.
    await expectFailure(
      await send("PUT", "/v1/admin/courses/palms", { name: "Palms", days_active: [2], aliases: "Palms Nine" }),
      400,
      "Aliases must be a list of up to 10 different names, each up to 100 characters",
    );
    await expectFailure(
      await send("PUT", "/v1/admin/courses/palms", { name: "Palms", days_active: [2], aliases: Array.from({ length: 11 }, (_, i) => `P${i}`) }),
      400,
      "Aliases must be a list of up to 10 different names, each up to 100 characters",
    );
    const aliased = await send("PUT", "/v1/admin/courses/palms", { name: "Palms", days_active: [2], aliases: [" THE PALMS ", "Palms Nine", "the palms"] });
    expect((await aliased.json()).aliases).toEqual(["THE PALMS", "Palms Nine"]);
    expect((await (await send("PUT", "/v1/admin/courses/palms", { name: "Palms", days_active: [3] })).json()).aliases).toEqual(["THE PALMS", "Palms Nine"]);
    expect((await (await send("GET", "/v1/admin/full-config")).json()).courses.find((c: { id: string }) => c.id === "palms").aliases).toEqual(["THE PALMS", "Palms Nine"]);
    expect((await send("DELETE", "/v1/admin/courses/palms")).status).toBe(204);
    expect((await send("DELETE", "/v1/admin/courses/palms")).status).toBe(404);
    expect((await lastAudit()).action).toBe("admin.course.delete");
  });

  test("booking windows: rule key upper-cased and required, HH:MM times", async () => {
    await expectFailure(await send("POST", "/v1/admin/booking-windows", { rule_key: " ", start_time: "05:00", end_time: "06:00" }), 400, "Rule key is required");
    await expectFailure(await send("POST", "/v1/admin/booking-windows", { rule_key: "DEFAULT", start_time: "5:00", end_time: "06:00" }), 400, "Start time must be HH:MM");
    await expectFailure(await send("POST", "/v1/admin/booking-windows", { rule_key: "DEFAULT", start_time: "05:00", end_time: "25:00" }), 400, "End time must be HH:MM");
    const res = await send("POST", "/v1/admin/booking-windows", { rule_key: "saturday_masters", start_time: "05:04", end_time: "16:48" });
    const window = await res.json();
    expect(window).toMatchObject({ rule_key: "SATURDAY_MASTERS", start_time: "05:04", end_time: "16:48" });
    expect((await (await send("PUT", `/v1/admin/booking-windows/${window.id}`, { rule_key: "default", start_time: "06:00", end_time: "07:00" })).json()).rule_key).toBe("DEFAULT");
    expect((await send("DELETE", `/v1/admin/booking-windows/${window.id}`)).status).toBe(204);
  });

  test("holidays: date required, name only on edit, delete by date", async () => {
    await expectFailure(await send("POST", "/v1/admin/holidays", { date: "", name: "x" }), 400, "Date is required.");
    expect((await send("POST", "/v1/admin/holidays", { date: "2026-12-25" })).status).toBe(201);
    await expectFailure(await send("POST", "/v1/admin/holidays", { date: "2026-12-25", name: "Again" }), 400, "This date is already a holiday.");
    expect(await (await send("PUT", "/v1/admin/holidays/2026-12-25", { name: " Christmas " })).json()).toEqual({ date: "2026-12-25", name: "Christmas" });
    const config = await (await send("GET", "/v1/admin/full-config")).json();
    expect(config.holidays).toEqual([{ date: "2026-12-25", name: "Christmas" }]);
    expect((await send("DELETE", "/v1/admin/holidays/2026-12-25")).status).toBe(204);
    expect((await send("DELETE", "/v1/admin/holidays/2026-12-25")).status).toBe(404);
  });

  test("booking rules: integers parsed, empty limits null, days kept sorted", async () => {
    const res = await send("POST", "/v1/admin/booking-rules", {
      priority: "5",
      days_of_week: [7, 6, 6],
      applies_on_holidays: true,
      start_time: "05:00",
      end_time: "12:00",
      min_players: "2",
      max_players: "",
      max_guests: null,
    });
    expect(res.status).toBe(201);
    const rule = await res.json();
    expect(rule).toEqual({
      id: expect.any(Number),
      priority: 5,
      days_of_week: [6, 7],
      applies_on_holidays: true,
      start_time: "05:00",
      end_time: "12:00",
      min_players: 2,
      max_players: null,
      max_guests: null,
    });
    await expectFailure(await send("PUT", `/v1/admin/booking-rules/${rule.id}`, { ...rule, start_time: "noon" }), 400, "Start time must be HH:MM");
    await expectFailure(await send("PUT", `/v1/admin/booking-rules/${rule.id}`, { ...rule, min_players: 4, max_players: 2 }), 400, "Min players cannot be more than max players.");
    await expectFailure(
      await send("PUT", `/v1/admin/booking-rules/${rule.id}`, { ...rule, max_guests: "two" }),
      400,
      "Max Guests must be a whole number from 0 to 3, or empty for no limit.",
    );
    expect((await (await send("PUT", `/v1/admin/booking-rules/${rule.id}`, { ...rule, max_guests: 1 })).json()).max_guests).toBe(1);
    expect((await send("DELETE", `/v1/admin/booking-rules/${rule.id}`)).status).toBe(204);
  });

  test("front-page messages: title and content required, sorted active first then newest", async () => {
    await expectFailure(await send("POST", "/v1/admin/frontpage-messages", { title: "", content: "x" }), 400, "Title is required");
    await expectFailure(await send("POST", "/v1/admin/frontpage-messages", { title: "x", content: " " }), 400, "Content is required");
    const first = await (await send("POST", "/v1/admin/frontpage-messages", { title: "Old", content: "a", is_active: true })).json();
    t.clock.advance(1000);
    await send("POST", "/v1/admin/frontpage-messages", { title: "Hidden", content: "b", is_active: false });
    t.clock.advance(1000);
    await send("POST", "/v1/admin/frontpage-messages", { title: "New", content: "c", is_active: true, eventDate: "2026-12-01" });
    const config = await (await send("GET", "/v1/admin/full-config")).json();
    expect(config.frontpageMessages.map((m: { title: string }) => m.title)).toEqual(["New", "Old", "Hidden"]);
    const edited = await (await send("PUT", `/v1/admin/frontpage-messages/${first.id}`, { title: "Old", content: "a2", is_active: false })).json();
    expect(edited).toMatchObject({ content: "a2", is_active: false });
    expect((await send("DELETE", `/v1/admin/frontpage-messages/${first.id}`)).status).toBe(204);
  });
});

describe("app settings", () => {
  const valid = { ...DEFAULT_SETTINGS };

  test("release time messages, nothing written on failure", async () => {
    await expectFailure(await send("PUT", "/v1/admin/app-settings", { ...valid, release_time: "7:00" }), 400, "release_time must be in HH:MM format");
    await expectFailure(await send("PUT", "/v1/admin/app-settings", { ...valid, release_time: "24:30" }), 400, "release_time must be a valid time between 00:00 and 23:59");
    const res = await send("PUT", "/v1/admin/app-settings", { ...valid, courses_to_skip_on_full: "masters" });
    expect(res.status).toBe(400);
    const stored = await (await send("GET", "/v1/admin/app-settings")).json();
    expect(stored.settings).toEqual(DEFAULT_STORED_SETTINGS);
    expect(stored.uiText["admin.settings.saved"]).toBe("Settings saved");
  });

  test("saves, applies the log level at once, and tells members", async () => {
    const before = statusUpdates();
    const res = await send("PUT", "/v1/admin/app-settings", { ...valid, log_level: "error", courses_to_skip_on_full: ["legends"] });
    expect(res.status).toBe(200);
    expect(statusUpdates()).toBe(before + 1);
    const lines = t.logLines.length;
    t.deps.logger.warn("not shown at error level");
    expect(t.logLines.length).toBe(lines);
    expect((await (await send("GET", "/v1/admin/app-settings")).json()).settings.courses_to_skip_on_full).toEqual(["legends"]);
    expect((await lastAudit()).action).toBe("admin.settings.update");
  });

  test("a new release time moves pending requests and tells their members", async () => {
    const memberId = await t.createUser({ username: "maria" });
    const otherId = await t.createUser({ username: "jose" });
    const now = t.clock.now();
    const insert = (userId: number, playDate: string, status: "pending" | "confirmed") =>
      t.deps.database.db
        .insert(bookingRequests)
        .values({
          userId,
          courseId: "masters",
          playDate,
          selection: [{ time: "07:00", slotId: null }],
          players: [],
          status,
          releaseAt: releaseInstant(playDate, DEFAULT_SETTINGS),
          submittedAt: now,
          updatedAt: now,
        })
        .returning({ id: bookingRequests.id });
    const [pending] = await insert(memberId, "2026-12-10", "pending");
    await insert(otherId, "2026-12-10", "confirmed");
    let rearmed = 0;
    const engine = t.deps.releaseEngine;
    const wake = engine.wake.bind(engine);
    engine.wake = () => {
      rearmed++;
      wake();
    };

    const res = await send("PUT", "/v1/admin/app-settings", { ...valid, release_time: "06:30" });
    expect((await res.json()).movedRequests).toBe(1);
    const row = (await t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.id, pending.id)))[0];
    expect(row.releaseAt).toBe(releaseInstant("2026-12-10", { release_days_before: 7, release_time: "06:30" }));
    expect(rearmed).toBe(1);
    const toMember = t.published.filter((p) => p.topic === `user:${memberId}`).map((p) => p.message.type);
    expect(toMember).toEqual(["toast", "status"]);
    expect(t.published.some((p) => p.topic === `user:${otherId}`)).toBe(false);
  });
});

describe("UI text", () => {
  test("PUT replaces the map and broadcasts uiTextUpdated", async () => {
    const res = await send("PUT", "/v1/admin/ui-text", { "admin.title": "Club Office", "tabs.home": "Start" });
    expect(res.status).toBe(200);
    expect(t.published.at(-1)).toEqual({ topic: "members", message: { type: "uiTextUpdated" } });
    expect(await (await t.call("GET", "/v1/ui-text")).json()).toEqual({ "admin.title": "Club Office", "tabs.home": "Start" });
  });

  test("rejects keys and texts outside the limits", async () => {
    const message = "UI text keys must be 1 to 200 characters and texts at most 2000 characters.";
    await expectFailure(await send("PUT", "/v1/admin/ui-text", { "": "x" }), 400, message);
    await expectFailure(await send("PUT", "/v1/admin/ui-text", { "a.b": "x".repeat(2001) }), 400, message);
    await expectFailure(await send("PUT", "/v1/admin/ui-text", { "a.b": 5 }), 400, message);
    await expectFailure(await send("PUT", "/v1/admin/ui-text", ["a"]), 400, message);
  });
});

describe("system stats", () => {
  test("real figures of the machine and the process, and the registered jobs", async () => {
    const scraper = t.deps.jobs.register("scraper");
    scraper.started(t.clock.now());
    scraper.failed(new Error("club unreachable"), t.clock.now());
    t.deps.jobs.register("release engine").started(t.clock.now());
    const stats = await (await send("GET", "/v1/admin/system-stats")).json();
    expect(stats.cpu.cores).toBe(cpus().length);
    expect(stats.cpu.currentLoad).toBeGreaterThanOrEqual(0);
    expect(stats.cpu.currentLoad).toBeLessThanOrEqual(100);
    expect(stats.memory.total).toBe(totalmem());
    expect(stats.memory.used).toBeGreaterThan(0);
    expect(stats.disk).toBeUndefined(); // an in-memory database has no data folder
    expect(stats.database.bytes).toBeGreaterThan(0);
    expect(stats.database.walBytes).toBeNull();
    expect(stats.processes[0]).toMatchObject({ pm_id: process.pid, name: "teebox", status: "online" });
    expect(stats.processes[0].memory).toBeGreaterThan(1024 * 1024);
    expect(stats.processes.slice(1)).toEqual([
      { pm_id: null, name: "scraper", status: "errored", cpu: null, memory: null, lastError: "club unreachable", lastPassAt: null, nextPassAt: null, passesPerMinute: 0 },
      { pm_id: null, name: "release engine", status: "online", cpu: null, memory: null, lastError: null, lastPassAt: null, nextPassAt: null, passesPerMinute: 0 },
    ]);
  });
});
