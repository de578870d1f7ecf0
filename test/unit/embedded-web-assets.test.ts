import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadWebAssets, useEmbeddedWebAssets } from "../../src/web-assets.ts";

let dir = "";
afterEach(() => {
  useEmbeddedWebAssets(null);
  rmSync(dir, { recursive: true, force: true });
});

/** The binary's embedded files are served from where they are: bytes, gzipped copies and each page's preloads as built. */
test("the binary's embedded web files are served as embedded, with their gzipped copies and each page's preload links", async () => {
  dir = mkdtempSync(join(tmpdir(), "teebox-embedded-"));
  const chunk = `console.log(${JSON.stringify("x".repeat(2000))});`;
  const write = (name: string, body: string | Uint8Array) => {
    writeFileSync(join(dir, name), body);
    return join(dir, name);
  };
  useEmbeddedWebAssets([
    { path: "/index.html", file: write("index.html", "<!doctype html><html><head></head><body></body></html>") },
    { path: "/chunk-ab12cd34.js", file: write("chunk.js", chunk), gzipFile: write("chunk.js.gz", Bun.gzipSync(new TextEncoder().encode(chunk))) },
    { path: "/route-preloads.json", file: write("preloads.json", JSON.stringify({ "/book": ["/chunk-ab12cd34.js"] })) },
  ]);
  const assets = await loadWebAssets();

  const file = assets.get("/chunk-ab12cd34.js")!;
  expect(file.isImmutable).toBe(true);
  expect(file.contentType).toContain("javascript");
  expect(await new Response(file.body).text()).toBe(chunk);
  expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await new Response(file.gzip!).arrayBuffer())))).toBe(chunk);
  // Each page's index names the files it needs; the preload list itself is not served.
  expect(await new Response(assets.get("/book")!.body).text()).toContain("/chunk-ab12cd34.js");
  expect(assets.has("/route-preloads.json")).toBe(false);
  expect(await new Response(assets.get("/index.html")!.body).text()).toContain("<!doctype html>");
});
