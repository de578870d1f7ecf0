/**
 * GET /v1/tee-times straight from the server (decision 195): for a signed-in member it is the app's
 * answer, byte for byte and header for header; in every other case the app answers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { gunzipSync } from "node:zlib";
import { teeTimeSlots, users } from "../../src/db/schema.ts";
import { startHttpServer, type HttpServer } from "../../src/server.ts";
import type { WebAssets } from "../../src/web-assets.ts";
import { createTestApp, TEST_NOW, type TestApp } from "../helpers/api.ts";

let t: TestApp;
let server: HttpServer;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  const slots = Array.from({ length: 40 }, (_, i) => ({
    date: "2026-11-24",
    courseId: "masters",
    time: `${String(6 + Math.floor(i / 7)).padStart(2, "0")}:${String((i % 7) * 8).padStart(2, "0")}`,
    status: "AVAILABLE",
    slotId: `M-${i}`,
    scrapedAt: TEST_NOW - 5000,
  }));
  await t.deps.database.db.insert(teeTimeSlots).values(slots);
  await t.createUser({ username: "maria", password: "maria-password-1" });
  cookie = await t.signIn("maria", "maria-password-1");
  const web: WebAssets = new Map([["/index.html", { body: new TextEncoder().encode("<!doctype html>"), gzip: null, contentType: "text/html", isImmutable: false }]]);
  server = startHttpServer({ app: t.app, deps: t.deps, web, port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await server.closeConnections();
  await t.close();
});

const HEADERS = ["content-type", "content-encoding", "vary", "content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"];
const headersOf = (res: Response) => Object.fromEntries(HEADERS.map((name) => [name, res.headers.get(name)]));
const viaServer = (headers: Record<string, string>, method = "GET") => fetch(`${server.url}/v1/tee-times?_=1`, { method, headers, decompress: false });
const viaApp = (headers: Record<string, string>, method = "GET") => Promise.resolve(t.app.request("http://localhost/v1/tee-times?_=1", { method, headers }));

test("a signed-in member gets the app's answer, plain and gzipped, with the same headers", async () => {
  for (const headers of [
    { cookie, "accept-encoding": "identity" },
    { cookie, "accept-encoding": "gzip, deflate, br" },
  ]) {
    const [fast, app] = await Promise.all([viaServer(headers), viaApp(headers)]);
    expect(fast.status).toBe(200);
    expect(headersOf(fast)).toEqual(headersOf(app));
    const [fastBody, appBody] = [new Uint8Array(await fast.arrayBuffer()), new Uint8Array(await app.arrayBuffer())];
    expect(fastBody).toEqual(appBody);
  }
  const gzipped = await viaServer({ cookie, "accept-encoding": "gzip" });
  expect(JSON.parse(gunzipSync(new Uint8Array(await gzipped.arrayBuffer())).toString("utf8")).teeTimes).toHaveLength(1);
});

test("no session, a password still to choose, another method: the app answers as it always does", async () => {
  const noSession = await viaServer({});
  expect(noSession.status).toBe(401);
  expect((await noSession.json()).errorKey).toBe("auth.required");
  const post = await viaServer({ cookie, "content-type": "application/json", origin: server.url }, "POST");
  expect(post.status).toBe((await viaApp({ cookie, "content-type": "application/json", origin: "http://localhost" }, "POST")).status);
  await t.deps.database.db.update(users).set({ mustSetPassword: true }).where(eq(users.username, "maria"));
  const fresh = await t.signIn("maria", "maria-password-1");
  const mustChange = await viaServer({ cookie: fresh });
  expect(mustChange.status).toBe(403);
  expect((await mustChange.json()).errorKey).toBe("password.must_change");
});

test("a read while a release's first wave is about to leave is held by the app until the wave has left", async () => {
  let release = () => {};
  const wave = new Promise<void>((resolve) => (release = resolve));
  const engine = t.deps.releaseEngine;
  const original = engine.waveAboutToLeave;
  engine.waveAboutToLeave = () => wave;
  try {
    let answered = false;
    const read = viaServer({ cookie }).then((res) => {
      answered = true;
      return res;
    });
    await Bun.sleep(50);
    expect(answered).toBe(false);
    release();
    expect((await read).status).toBe(200);
  } finally {
    engine.waveAboutToLeave = original;
  }
});
