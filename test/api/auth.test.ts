import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";
import { SESSION_TTL_MS } from "../../src/services/sessions.ts";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

describe("sign-in", () => {
  test("admin signs in, sees their session user without secrets, and signs out", async () => {
    const res = await t.call("POST", "/v1/auth/login", { body: { username: "Admin", password: ADMIN_PASSWORD } });
    expect(res.status).toBe(200);
    const cookieHeader = res.headers.get("set-cookie") ?? "";
    expect(cookieHeader).toContain("HttpOnly");
    expect(cookieHeader).toContain("SameSite=Lax");
    const cookie = cookieHeader.split(";")[0];

    const status = await (await t.call("GET", "/v1/auth/status", { cookie })).json();
    expect(status.isAuthenticated).toBe(true);
    expect(status.user.username).toBe("admin");
    expect(status.user.role).toBe("superadmin");
    expect(JSON.stringify(status)).not.toMatch(/password_?hash|sealed|argon/i);

    const out = await t.call("POST", "/v1/auth/logout", { cookie });
    expect(out.status).toBe(204);
    const after = await (await t.call("GET", "/v1/auth/status", { cookie })).json();
    expect(after).toEqual({ isAuthenticated: false, user: null });
  });

  test("wrong password and unknown user get the same 401", async () => {
    const wrong = await t.call("POST", "/v1/auth/login", { body: { username: "admin", password: "nope" } });
    const unknown = await t.call("POST", "/v1/auth/login", { body: { username: "ghost", password: "nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  test("missing fields answer 400 with a message", async () => {
    const res = await t.call("POST", "/v1/auth/login", { body: { username: "", password: "" } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toBe("Username is required.");
    expect(body.errorKey).toBe("login.username_required");
  });

  test("a disabled user cannot sign in and loses open sessions", async () => {
    await t.createUser({ username: "maria", password: "maria-pass" });
    const cookie = await t.signIn("maria", "maria-pass");
    const { users } = await import("../../src/db/schema.ts");
    const { eq } = await import("drizzle-orm");
    await t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.username, "maria"));
    const status = await (await t.call("GET", "/v1/auth/status", { cookie })).json();
    expect(status.isAuthenticated).toBe(false);
    const again = await t.call("POST", "/v1/auth/login", { body: { username: "maria", password: "maria-pass" } });
    expect(again.status).toBe(401);
  });

  test("failed sign-ins are rate limited per account, even with the right password afterwards", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.call("POST", "/v1/auth/login", { body: { username: "admin", password: `bad${i}` } })).status).toBe(401);
    }
    const blocked = await t.call("POST", "/v1/auth/login", { body: { username: "admin", password: ADMIN_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).errorKey).toBe("login.rate_limited");
    // An unknown account is limited the same way, so 429 does not reveal that an account exists.
    for (let i = 0; i < 5; i++) await t.call("POST", "/v1/auth/login", { body: { username: "ghost", password: "x" } });
    expect((await t.call("POST", "/v1/auth/login", { body: { username: "ghost", password: "x" } })).status).toBe(429);
    await t.clock.advance(15 * 60 * 1000);
    expect((await t.call("POST", "/v1/auth/login", { body: { username: "admin", password: ADMIN_PASSWORD } })).status).toBe(200);
  });

  test("an expired session is not accepted", async () => {
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    await t.clock.advance(15 * 24 * 60 * 60 * 1000);
    const status = await (await t.call("GET", "/v1/auth/status", { cookie })).json();
    expect(status.isAuthenticated).toBe(false);
  });
});

describe("the API base", () => {
  test("state-changing calls need JSON and our Origin", async () => {
    const noJson = await t.call("POST", "/v1/auth/login", { rawBody: "username=admin", contentType: "application/x-www-form-urlencoded" });
    expect(noJson.status).toBe(415);
    expect((await noJson.json()).errorKey).toBe("request.json_required");
    const foreign = await t.call("POST", "/v1/auth/login", { body: { username: "admin", password: ADMIN_PASSWORD }, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const none = await t.call("POST", "/v1/auth/login", { body: { username: "admin", password: ADMIN_PASSWORD }, origin: null });
    expect(none.status).toBe(403);
  });

  test("bad JSON answers 400, oversized bodies 413, unknown paths a JSON 404", async () => {
    const bad = await t.call("POST", "/v1/auth/login", { rawBody: "{not json" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errorKey).toBe("validation.bad_json");
    // An error names its request, so a member's report can be found in the log.
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-\w+$/);
    const big = await t.call("POST", "/v1/auth/login", { rawBody: JSON.stringify({ username: "x".repeat(70_000), password: "y" }) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: "The request is too large.", errorKey: "request.too_large" });
    const missing = await t.call("GET", "/v1/no-such-thing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "No such API route.", errorKey: "request.no_route" });
  });

  test("every answer carries the security headers", async () => {
    const res = await t.call("GET", "/v1/auth/status");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    // JSON is never a document: its policy allows nothing at all.
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  test("form options and UI text are public and seeded with the product's defaults first", async () => {
    const options = await (await t.call("GET", "/v1/form-options")).json();
    const first = (category: string) => options.find((o: { category: string }) => o.category === category)?.value;
    expect(first("cartPreference")).toBe("Rental Cart - Solo");
    expect(first("feePreferenceGuest")).toBe("Charge my guest");
    expect(first("feePreferenceMember")).toBe("Charge to their account");
    expect(options.filter((o: { category: string }) => o.category === "playerType").map((o: { value: string }) => o.value)).toContain("Senior Care");
    const text = await (await t.call("GET", "/v1/ui-text")).json();
    expect(typeof text).toBe("object");
    expect(Object.keys(text).length).toBeGreaterThan(5);
  });

  test("client log entries are validated and written at their level", async () => {
    const ok = await t.call("POST", "/v1/client/log", { body: { level: "warn", message: "socket dropped", context: { attempt: 2 } } });
    expect(ok.status).toBe(204);
    expect(t.logLines.some((l) => l.includes('"level":"warn"') && l.includes("client: socket dropped"))).toBe(true);
    const bad = await t.call("POST", "/v1/client/log", { body: { level: "shout", message: "x" } });
    expect(bad.status).toBe(400);
  });
});

describe("client log masking", () => {
  test("a secret-looking field is masked even deep in a long context", async () => {
    const context = { form: { nested: { password: "hunter2-secret" } }, filler: "x".repeat(2500) };
    const res = await t.call("POST", "/v1/client/log", { body: { level: "error", message: "form failed", context } });
    expect(res.status).toBe(204);
    const line = t.logLines.find((l) => l.includes("client: form failed")) ?? "";
    expect(line).not.toContain("hunter2-secret");
  });
});

test("a sign-in on a clock more than 400 days from the machine's own time still gets its session, kept for its lifetime", async () => {
  // Teebox's clock, not the machine's, times the session: a simulated year is such a clock.
  const later = await createTestApp({ now: Date.now() + 420 * 24 * 60 * 60 * 1000 });
  try {
    const res = await later.call("POST", "/v1/auth/login", { body: { username: "Admin", password: ADMIN_PASSWORD } });
    expect(res.status).toBe(200);
    const cookieHeader = res.headers.get("set-cookie") ?? "";
    expect(cookieHeader).toContain(`Max-Age=${SESSION_TTL_MS / 1000}`);
    const status = await (await later.call("GET", "/v1/auth/status", { cookie: cookieHeader.split(";")[0] })).json();
    expect(status.isAuthenticated).toBe(true);
  } finally {
    await later.close();
  }
});
