/**
 * The React app as files in memory: index.html plus hashed, code-split chunks. `bun src/main.ts`
 * bundles web/ at start-up (tens of milliseconds); the compiled binary is handed the files it was
 * built with (scripts/build.ts) and never needs the sources. Each file is kept gzipped too.
 */
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface WebAsset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer> | null;
  contentType: string;
  /** Hashed chunks never change, so browsers may keep them for a year. */
  isImmutable: boolean;
}

export type WebAssets = Map<string, WebAsset>;

const WEB_ENTRY = join(import.meta.dir, "..", "web", "index.html");
const COMPRESSIBLE = /^(text\/|application\/(javascript|json))/;

let embedded: { path: string; file: string }[] | null = null;

/** Called by the binary's entry with the files `bun build --compile` embedded. */
export function useEmbeddedWebAssets(files: { path: string; file: string }[]): void {
  embedded = files;
}

function contentTypeOf(path: string): string {
  if (path.endsWith(".html")) return "text/html; charset=utf-8";
  if (path.endsWith(".js")) return "text/javascript; charset=utf-8";
  if (path.endsWith(".css")) return "text/css; charset=utf-8";
  if (path.endsWith(".svg")) return "image/svg+xml";
  if (path.endsWith(".png")) return "image/png";
  if (path.endsWith(".json")) return "application/json";
  return Bun.file(path).type || "application/octet-stream";
}

function toAsset(path: string, body: Uint8Array<ArrayBuffer>): WebAsset {
  const contentType = contentTypeOf(path);
  return {
    body,
    gzip: COMPRESSIBLE.test(contentType) && body.length > 512 ? new Uint8Array(gzipSync(body)) : null,
    contentType,
    isImmutable: path !== "/index.html",
  };
}

/** Bundles web/ the way the binary does: split per page, minified, production React. */
export async function bundleWeb(): Promise<{ path: string; body: Uint8Array<ArrayBuffer> }[]> {
  const result = await Bun.build({
    entrypoints: [WEB_ENTRY],
    splitting: true,
    minify: true,
    target: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new Error(`the web app did not build: ${result.logs.map(String).join("; ")}`);
  return Promise.all(
    result.outputs.map(async (o) => ({ path: o.path.replace(/^\.\//, "/"), body: new Uint8Array(await o.arrayBuffer()) })),
  );
}

export async function loadWebAssets(): Promise<WebAssets> {
  const files = embedded
    ? await Promise.all(embedded.map(async (e) => ({ path: e.path, body: new Uint8Array(await Bun.file(e.file).arrayBuffer()) })))
    : await bundleWeb();
  return new Map(files.map((f) => [f.path, toAsset(f.path, f.body)]));
}
