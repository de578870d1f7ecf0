/**
 * DNS rebinding: a page on another site whose name resolves to this server sends our cookies'
 * requests with its own Host and a matching Origin. Only our own host names are answered.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { createTrustPolicy } from "../../src/lib/trust.ts";
import { startHttpServer, type HttpServer } from "../../src/server.ts";
import type { WebAssets } from "../../src/web-assets.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

const login = { username: "admin", password: ADMIN_PASSWORD };

function post(t: TestApp, host: string, path = "/v1/auth/login", body: unknown = login) {
  const origin = `http://${host}`;
  return Promise.resolve(t.app.request(`${origin}${path}`, { method: "POST", headers: { host, origin, "content-type": "application/json" }, body: JSON.stringify(body) }));
}

describe("the API answers only for our host names", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test("a rebinding page (Origin equal to its own Host) gets 421 with a JSON error", async () => {
    const res = await post(t, "attacker.example:3000");
    expect(res.status).toBe(421);
    expect(await res.json()).toEqual({ message: "This server does not answer for that host name.", errorKey: "request.unknown_host" });
    const read = await t.app.request("http://attacker.example/v1/auth/status", { headers: { host: "attacker.example" } });
    expect(read.status).toBe(421);
    const health = await t.app.request("http://attacker.example/healthz", { headers: { host: "attacker.example" } });
    expect(health.status).toBe(421);
  });

  test("localhost, loopback addresses and the machine's own names are ours by default", async () => {
    for (const host of ["localhost", "localhost:3000", "127.0.0.1:3000", "127.1.2.3", "[::1]:3000"]) {
      expect({ host, status: (await post(t, host)).status }).toEqual({ host, status: 200 });
    }
  });

  test("with PUBLIC_ORIGIN its host is ours; ALLOWED_HOSTS adds more", async () => {
    t.deps.trust = createTrustPolicy("https://teebox.example", { allowedHosts: ["golf.example"] });
    try {
      expect((await t.app.request("http://teebox.example/v1/auth/status", { headers: { host: "teebox.example" } })).status).toBe(200);
      expect((await t.app.request("http://golf.example/v1/auth/status", { headers: { host: "golf.example" } })).status).toBe(200);
      expect((await t.app.request("http://attacker.example/v1/auth/status", { headers: { host: "attacker.example" } })).status).toBe(421);
    } finally {
      delete t.deps.trust;
    }
  });
});

describe("pages and the socket answer only for our host names", () => {
  let t: TestApp;
  let server: HttpServer;
  beforeAll(async () => {
    t = await createTestApp();
    const page = new TextEncoder().encode("<!doctype html><title>Teebox</title>");
    const web: WebAssets = new Map([["/index.html", { body: page, gzip: null, contentType: "text/html", isImmutable: false }]]);
    server = startHttpServer({ app: t.app, deps: t.deps, web, port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server.closeConnections();
    await t.close();
  });

  test("a page, an API call and a socket upgrade for a foreign Host get 421 JSON", async () => {
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const foreign = { host: "attacker.example", origin: "http://attacker.example", cookie };
    const upgrade = { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" };
    for (const [path, extra] of [
      ["/", {}],
      ["/bookings", {}],
      ["/v1/auth/status", {}],
      ["/v1/ws", upgrade],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { headers: { ...foreign, ...extra } });
      expect({ path, status: res.status, type: res.headers.get("content-type") }).toEqual({ path, status: 421, type: "application/json" });
      expect((await res.json()).errorKey).toBe("request.unknown_host");
    }
    // The test harnesses, the load test and the demo use these.
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect((await fetch(`${server.url}/`, { headers: { host: `localhost:${new URL(server.url).port}` } })).status).toBe(200);
  });

  test("an HTTP/1.0 request without a Host header gets 400 JSON, never a 500", async () => {
    const port = new URL(server.url).port;
    for (const path of ["/", "/bookings", "/v1/auth/status", "/v1/tee-times", "/v1/ws", "/healthz"]) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
        let text = "";
        socket.on("data", (chunk) => (text += chunk));
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      expect({ path, status: head.split(" ")[1] }).toEqual({ path, status: "400" });
      expect(JSON.parse(body)).toEqual({ message: DEFAULT_UI_TEXT["request.no_host"], errorKey: "request.no_host" });
    }
    expect(t.logLines.filter((line) => line.includes("Invalid URL"))).toEqual([]);
  });
});
