import { afterEach, beforeEach, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { COMPRESS_MIN_BYTES } from "../../src/lib/compress.ts";
import { createTestApp, ORIGIN, type TestApp } from "../helpers/api.ts";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close().catch(() => undefined));

const get = (path: string, acceptEncoding?: string) => Promise.resolve(t.app.request(`${ORIGIN}${path}`, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }));

test("a large JSON answer goes gzipped to a browser that accepts it, with its status and security headers", async () => {
  const plain = await (await get("/v1/ui-text")).text();
  expect(plain.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
  const res = await get("/v1/ui-text", "gzip, deflate, br");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-encoding")).toBe("gzip");
  expect(res.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  const body = new Uint8Array(await res.arrayBuffer());
  expect(body.length).toBeLessThan(plain.length / 2);
  expect(JSON.parse(gunzipSync(body).toString("utf8"))).toEqual(JSON.parse(plain));
});

test("small answers, error answers under a kilobyte and clients without gzip get plain JSON", async () => {
  const small = await get("/v1/auth/status", "gzip");
  expect(small.headers.get("content-encoding")).toBeNull();
  expect(await small.json()).toHaveProperty("isAuthenticated", false);
  const unauthorized = await get("/v1/my/bookings", "gzip");
  expect(unauthorized.status).toBe(401);
  expect(unauthorized.headers.get("content-encoding")).toBeNull();
  expect((await unauthorized.json()).errorKey).toBe("auth.required");
  const noGzip = await get("/v1/ui-text");
  expect(noGzip.headers.get("content-encoding")).toBeNull();
  expect(Object.keys(await noGzip.json()).length).toBeGreaterThan(5);
});
