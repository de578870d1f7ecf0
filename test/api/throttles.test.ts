/**
 * Throttles that hold: behind a proxy, under concurrency, on a shared office network, and against
 * a member testing club passwords or flooding the browser log.
 */
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog } from "../../src/db/schema.ts";
import type { AppBindings } from "../../src/deps.ts";
import { createTrustPolicy } from "../../src/lib/trust.ts";
import {
  CLIENT_LOG_SESSION_ENTRY_LIMIT,
  CLIENT_LOG_ANONYMOUS_LIMIT,
  CLIENT_LOG_MAX_BYTES,
  CLIENT_LOG_SESSION_LIMIT,
  CLIENT_LOG_TOTAL_LIMIT,
  LOGIN_ACCOUNT_LIMIT,
  LOGIN_PAIR_LIMIT,
  VERIFY_EMAIL_LIMIT,
  VERIFY_MEMBER_LIMIT,
  VERIFY_MIN_INTERVAL_MS,
} from "../../src/lib/limits.ts";
import { CLIENT_LOG_BATCH_MAX } from "../../src/domain/client-log.ts";
import { ADMIN_PASSWORD, createTestApp, ORIGIN, type TestApp, type TestAppOptions } from "../helpers/api.ts";

let t: TestApp;
afterEach(() => t.close());

const PUBLIC = "https://teebox.example";

/** A request as Bun.serve hands it over: from a socket address, with whatever headers the peer sent. */
function send(path: string, o: { peer: string; body?: unknown; headers?: Record<string, string>; cookie?: string; origin?: string }) {
  const origin = o.origin ?? t.deps.publicOrigin ?? ORIGIN;
  const headers: Record<string, string> = { "content-type": "application/json", origin, host: new URL(origin).host, ...(o.headers ?? {}) };
  if (o.cookie) headers.cookie = o.cookie;
  const env: AppBindings = { clientIp: () => o.peer };
  return Promise.resolve(t.app.request(`${origin}${path}`, { method: "POST", headers, body: JSON.stringify(o.body ?? {}) }, env));
}

const wrongLogin = (peer: string, headers: Record<string, string> = {}, username = "admin") =>
  send("/v1/auth/login", { peer, headers, body: { username, password: "wrong-password" } });

async function start(options: TestAppOptions = {}) {
  t = await createTestApp(options);
}

describe("the client address behind a proxy", () => {
  test("the right-most forwarded address that is not a trusted proxy is counted, never the first entry", async () => {
    await start({ extend: () => ({ publicOrigin: PUBLIC }) });
    // The client writes whatever it likes at the left; the proxy (loopback) appends the address it saw.
    for (let i = 0; i < LOGIN_PAIR_LIMIT; i++) {
      const res = await wrongLogin("127.0.0.1", { "x-forwarded-for": `10.9.9.${i}, 203.0.113.9` });
      expect(res.status).toBe(401);
    }
    const rotated = await wrongLogin("127.0.0.1", { "x-forwarded-for": "10.9.9.250, 203.0.113.9" });
    expect(rotated.status).toBe(429);
    expect(rotated.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(t.logLines.filter((l) => l.includes("sign-in refused")).every((l) => l.includes('"address":"203.0.113.9"'))).toBe(true);
    // Another member address behind the same proxy is another pair.
    expect((await wrongLogin("127.0.0.1", { "x-forwarded-for": "203.0.113.10" })).status).toBe(401);
  });

  test("X-Forwarded-For from a peer that is not a trusted proxy is ignored", async () => {
    await start({ extend: () => ({ publicOrigin: PUBLIC }) });
    for (let i = 0; i < LOGIN_PAIR_LIMIT; i++) {
      expect((await wrongLogin("198.51.100.7", { "x-forwarded-for": `192.0.2.${i}` })).status).toBe(401);
    }
    expect((await wrongLogin("198.51.100.7", { "x-forwarded-for": "192.0.2.200" })).status).toBe(429);
    expect(t.logLines.filter((l) => l.includes("sign-in refused")).every((l) => l.includes('"address":"198.51.100.7"'))).toBe(true);
  });

  test("TRUSTED_PROXIES names the proxies; every hop it names is skipped", async () => {
    await start({ extend: () => ({ trust: createTrustPolicy(null, { trustedProxies: ["10.0.0.0/8"] }) }) });
    await wrongLogin("10.0.0.2", { "x-forwarded-for": "1.1.1.1, 203.0.113.50, 10.0.0.7" });
    expect(t.logLines.some((l) => l.includes("sign-in refused") && l.includes('"address":"203.0.113.50"'))).toBe(true);
  });

  test("only a trusted proxy's X-Forwarded-Proto makes the session cookie Secure", async () => {
    await start();
    const login = { username: "admin", password: ADMIN_PASSWORD };
    const direct = await send("/v1/auth/login", { peer: "198.51.100.7", headers: { "x-forwarded-proto": "https" }, body: login });
    expect(direct.status).toBe(200);
    expect(direct.headers.get("set-cookie")).not.toContain("Secure");
    t.deps.trust = createTrustPolicy(null, { trustedProxies: ["10.0.0.1"] });
    const proxied = await send("/v1/auth/login", { peer: "10.0.0.1", headers: { "x-forwarded-proto": "https" }, body: login });
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get("set-cookie")).toContain("Secure");
  });
});

describe("sign-in limits", () => {
  test("many concurrent wrong passwords for one account: at most the limit is hashed, the rest get 429", async () => {
    await start();
    const verify = spyOn(Bun.password, "verify");
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, () => wrongLogin("192.0.2.1")));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBe(LOGIN_PAIR_LIMIT);
      expect(statuses.filter((s) => s === 429).length).toBe(30 - LOGIN_PAIR_LIMIT);
      expect(verify.mock.calls.length).toBeLessThanOrEqual(LOGIN_PAIR_LIMIT);
    } finally {
      verify.mockRestore();
    }
  });

  test("members behind one office address are not locked out by each other's typos", async () => {
    await start();
    for (let i = 0; i < 12; i++) await t.createUser({ username: `member${i}`, password: `member${i}-password` });
    // Thirty-six failures from one address, spread over twelve accounts.
    for (let i = 0; i < 12; i++) for (let k = 0; k < 3; k++) expect((await wrongLogin("192.0.2.1", {}, `member${i}`)).status).toBe(401);
    const colleague = await send("/v1/auth/login", { peer: "192.0.2.1", body: { username: "admin", password: ADMIN_PASSWORD } });
    expect(colleague.status).toBe(200);
  });

  test("one guesser locks only their own (account, address); a spread attack meets the account limit", async () => {
    await start();
    for (let i = 0; i < LOGIN_PAIR_LIMIT; i++) await wrongLogin("192.0.2.66");
    expect((await wrongLogin("192.0.2.66")).status).toBe(429);
    // The real admin elsewhere still signs in.
    expect((await send("/v1/auth/login", { peer: "192.0.2.1", body: { username: "admin", password: ADMIN_PASSWORD } })).status).toBe(200);
    for (let i = LOGIN_PAIR_LIMIT; i < LOGIN_ACCOUNT_LIMIT; i++) expect((await wrongLogin(`198.51.100.${i}`)).status).toBe(401);
    expect((await wrongLogin("198.51.100.250")).status).toBe(429);
  });
});

describe("club login checks", () => {
  async function member(name: string) {
    await t.createUser({ username: name, password: `${name}-password` });
    return t.signIn(name, `${name}-password`);
  }
  const check = (cookie: string, email: string) => t.call("POST", "/v1/my/verify-credentials", { cookie, body: { email, password: "guess-1234" } });
  const audited = async () => (await t.deps.database.db.select().from(auditLog).where(eq(auditLog.action, "member.verify_credentials"))).length;

  test("never faster than a person types, a few per member, every try audited", async () => {
    await start();
    const cookie = await member("maria");
    const first = await check(cookie, "maria@southwoods.demo");
    expect(first.status).not.toBe(429);
    const hurried = await check(cookie, "maria@southwoods.demo");
    expect(hurried.status).toBe(429);
    expect((await hurried.json()).errorKey).toBe("setup.verify_rate_limited");
    for (let i = 1; i < VERIFY_MEMBER_LIMIT; i++) {
      await t.clock.advance(VERIFY_MIN_INTERVAL_MS);
      expect((await check(cookie, `other${i}@southwoods.demo`)).status).not.toBe(429);
    }
    await t.clock.advance(VERIFY_MIN_INTERVAL_MS);
    expect((await check(cookie, "fresh@southwoods.demo")).status).toBe(429);
    expect(await audited()).toBe(VERIFY_MEMBER_LIMIT + 2);
  });

  test("one club email is limited whoever asks", async () => {
    await start();
    const cookies = await Promise.all(Array.from({ length: VERIFY_EMAIL_LIMIT + 1 }, (_, i) => member(`golfer${i}`)));
    for (let i = 0; i < VERIFY_EMAIL_LIMIT; i++) expect((await check(cookies[i]!, "Victim@Southwoods.demo")).status).not.toBe(429);
    expect((await check(cookies[VERIFY_EMAIL_LIMIT]!, "victim@southwoods.demo")).status).toBe(429);
  });
});

describe("browser log entries", () => {
  const entry = { level: "info", message: "page shown", context: {} };

  test("anonymous callers are limited hardest, per address", async () => {
    await start();
    for (let i = 0; i < CLIENT_LOG_ANONYMOUS_LIMIT; i++) expect((await send("/v1/client/log", { peer: "192.0.2.5", body: entry })).status).toBe(204);
    const refused = await send("/v1/client/log", { peer: "192.0.2.5", body: entry });
    expect(refused.status).toBe(429);
    expect((await refused.json()).errorKey).toBe("client_log.rate_limited");
    expect((await send("/v1/client/log", { peer: "192.0.2.6", body: entry })).status).toBe(204);
    await t.clock.advance(60_000);
    expect((await send("/v1/client/log", { peer: "192.0.2.5", body: entry })).status).toBe(204);
  });

  test("a signed-in session has its own larger allowance", async () => {
    await start();
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    for (let i = 0; i < CLIENT_LOG_SESSION_LIMIT; i++) expect((await send("/v1/client/log", { peer: "192.0.2.5", cookie, body: entry })).status).toBe(204);
    expect((await send("/v1/client/log", { peer: "192.0.2.5", cookie, body: entry })).status).toBe(429);
  });

  test("a member reloading a page every 1.5 s posts each visit's entries together and stays far under the limit; a flood of entries does not", async () => {
    await start();
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const before = t.logLines.length;
    // 90 s of reloads, every visit logging its API calls (6 or 7 a page, as the app does) in one post.
    let posts = 0;
    for (let visit = 0; visit < 60; visit++) {
      const entries = Array.from({ length: 6 + (visit % 2) }, (_, i) => ({ level: "info", message: "API Call Success", context: { url: `/v1/x${i}`, status: 200 } }));
      expect((await send("/v1/client/log", { peer: "192.0.2.5", cookie, body: { entries } })).status).toBe(204);
      posts++;
      await t.clock.advance(1500);
    }
    // 40 posts a minute: a third of the allowance.
    expect((posts * 60_000) / 90_000).toBeLessThanOrEqual(CLIENT_LOG_SESSION_LIMIT / 3);
    // Each entry is its own line in the log.
    expect(t.logLines.length - before).toBe(390);
    // A flood (full batches as fast as possible) is refused once the session's entries are used up.
    const full = { entries: Array.from({ length: CLIENT_LOG_BATCH_MAX }, () => entry) };
    let accepted = 0;
    for (let i = 0; i < CLIENT_LOG_SESSION_LIMIT; i++) {
      const res = await send("/v1/client/log", { peer: "192.0.2.5", cookie, body: full });
      if (res.status === 204) accepted++;
      else expect(res.status).toBe(429);
    }
    expect(accepted * CLIENT_LOG_BATCH_MAX).toBeLessThanOrEqual(CLIENT_LOG_SESSION_ENTRY_LIMIT);
    expect(accepted).toBeGreaterThan(0);
    // A batch is checked entry by entry.
    expect((await send("/v1/client/log", { peer: "192.0.2.9", body: { entries: [entry, { level: "loud", message: "x" }] } })).status).toBe(400);
    expect((await send("/v1/client/log", { peer: "192.0.2.9", body: { entries: Array.from({ length: CLIENT_LOG_BATCH_MAX + 1 }, () => entry) } })).status).toBe(400);
  });

  test("an entry has a bounded size", async () => {
    await start();
    const big = { level: "error", message: "x", context: { detail: "d".repeat(CLIENT_LOG_MAX_BYTES) } };
    const res = await send("/v1/client/log", { peer: "192.0.2.5", body: big });
    expect(res.status).toBe(413);
    expect((await res.json()).errorKey).toBe("client_log.too_large");
    expect(t.logLines.some((l) => l.includes("client: x"))).toBe(false);
  });

  test("a flood from many addresses writes a bounded number of lines", async () => {
    await start();
    const before = t.logLines.length;
    let accepted = 0;
    for (let i = 0; i < CLIENT_LOG_TOTAL_LIMIT + 100; i++) {
      const res = await send("/v1/client/log", { peer: `10.${(i >> 8) & 255}.${i & 255}.1`, body: entry });
      if (res.status === 204) accepted++;
      else expect(res.status).toBe(429);
    }
    expect(accepted).toBe(CLIENT_LOG_TOTAL_LIMIT);
    expect(t.logLines.length - before).toBeLessThanOrEqual(CLIENT_LOG_TOTAL_LIMIT);
  });
});
