/**
 * The React app as files in memory: index.html plus hashed, code-split chunks. `bun src/main.ts`
 * bundles web/ at start-up (tens of milliseconds); the compiled binary is handed the files it was
 * built with (scripts/build.ts) and never needs the sources. Each file is kept gzipped too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { computeRoutePreloads, withPreloadLinks, type RoutePreloads } from "./web-preloads.ts";

/** A file's bytes, or the binary's embedded file itself (read when served, not at every start). */
export type WebBody = Uint8Array<ArrayBuffer> | Blob;

export interface WebAsset {
  body: WebBody;
  gzip: WebBody | null;
  contentType: string;
  /** Hashed chunks never change, so browsers may keep them for a year. */
  isImmutable: boolean;
}

export type WebAssets = Map<string, WebAsset>;

const WEB_DIR = join(import.meta.dir, "..", "web");
const WEB_ENTRY = join(WEB_DIR, "index.html");
const SERVICE_WORKER_ENTRY = join(WEB_DIR, "sw.ts");
/** Files served under fixed names from web/public (the manifest, the icons). */
const PUBLIC_DIR = join(WEB_DIR, "public");
/** The route → preload list the build writes for the server (not served, not in the shell). */
const ROUTE_PRELOADS_FILE = "/route-preloads.json";
/** Links the bundler cannot rewrite (fixed, absolute names): added to index.html after the build. */
const HEAD_LINKS = [
  '<link rel="manifest" href="/manifest.webmanifest" />',
  '<link rel="icon" type="image/png" sizes="32x32" href="/icons/favicon-32.png" />',
  '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />',
  '<meta name="apple-mobile-web-app-capable" content="yes" />',
  '<meta name="apple-mobile-web-app-status-bar-style" content="black-translucent" />',
].join("");
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json))/;
/** Only the bundler's hashed chunks never change; these keep their names from build to build. */
const isFixedName = (path: string) => path === "/index.html" || path === "/sw.js" || !/-[a-z0-9]{8}\.[a-z]+$/.test(path);

/** A file the binary embeds, with its gzipped copy when the build made one. */
export interface EmbeddedWebFile {
  path: string;
  file: string;
  gzipFile?: string;
}

let embedded: EmbeddedWebFile[] | null = null;

/** Called by the binary's entry with the files `bun build --compile` embedded (null: bundle the sources again). */
export function useEmbeddedWebAssets(files: EmbeddedWebFile[] | null): void {
  embedded = files;
}

function contentTypeOf(path: string): string {
  if (path.endsWith(".html")) return "text/html; charset=utf-8";
  if (path.endsWith(".js")) return "text/javascript; charset=utf-8";
  if (path.endsWith(".css")) return "text/css; charset=utf-8";
  if (path.endsWith(".svg")) return "image/svg+xml";
  if (path.endsWith(".png")) return "image/png";
  if (path.endsWith(".json")) return "application/json";
  if (path.endsWith(".webmanifest")) return "application/manifest+json";
  return Bun.file(path).type || "application/octet-stream";
}

/** Whether a file is worth sending gzipped: text of more than half a kilobyte. */
export function shouldGzip(path: string, body: Uint8Array): boolean {
  return COMPRESSIBLE.test(contentTypeOf(path)) && body.length > 512;
}

/**
 * A file as served; its gzipped copy is made here unless the build made it (`gzip` given) or
 * decided against it (an embedded file without one).
 */
function toAsset(path: string, body: WebBody, gzip?: WebBody): WebAsset {
  return {
    body,
    gzip: gzip ?? (body instanceof Uint8Array && shouldGzip(path, body) ? new Uint8Array(Bun.gzipSync(body)) : null),
    contentType: contentTypeOf(path),
    isImmutable: !isFixedName(path),
  };
}

/**
 * Bundles web/ the way the binary does: split per page, minified, production React; then the
 * public files under their own names, and the service worker with the list of shell files it keeps.
 */
export async function bundleWeb(): Promise<{ path: string; body: Uint8Array<ArrayBuffer> }[]> {
  const result = await Bun.build({
    entrypoints: [WEB_ENTRY],
    splitting: true,
    minify: true,
    target: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
    metafile: true,
  });
  if (!result.success || !result.metafile) throw new Error(`the web app did not build: ${result.logs.map(String).join("; ")}`);
  const app = await Promise.all(
    result.outputs.map(async (o) => {
      const path = o.path.replace(/^\.\//, "/");
      const body = new Uint8Array(await o.arrayBuffer());
      return { path, body: path === "/index.html" ? withHeadLinks(body) : body };
    }),
  );
  const shell = [...app, ...readPublicFiles()];
  const index = app.find((f) => f.path === "/index.html");
  const entryChunk = index ? /<script[^>]*src="\.?(\/chunk-[a-z0-9]+\.js)"/.exec(new TextDecoder().decode(index.body))?.[1] : undefined;
  if (!entryChunk) throw new Error("the web app's index.html names no script");
  const preloads = computeRoutePreloads(result.metafile, entryChunk);
  const preloadsFile = { path: ROUTE_PRELOADS_FILE, body: new TextEncoder().encode(JSON.stringify(preloads)) };
  return [...shell, await buildServiceWorker(shell), preloadsFile];
}

function withHeadLinks(html: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const text = new TextDecoder().decode(html);
  if (!text.includes("</head>")) throw new Error("the web app's index.html has no </head>");
  return new TextEncoder().encode(text.replace("</head>", `${HEAD_LINKS}</head>`));
}

function readPublicFiles(): { path: string; body: Uint8Array<ArrayBuffer> }[] {
  return readdirSync(PUBLIC_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = join(entry.parentPath, entry.name);
      return { path: `/${relative(PUBLIC_DIR, file).split("\\").join("/")}`, body: new Uint8Array(readFileSync(file)) };
    });
}

/** The worker is built last: its version is a hash of every shell file, so any change to the app makes a new worker. */
async function buildServiceWorker(shell: { path: string; body: Uint8Array }[]): Promise<{ path: string; body: Uint8Array<ArrayBuffer> }> {
  const files = shell.map((f) => f.path).sort();
  const version = Bun.hash(
    shell
      .map((f) => `${f.path}:${Bun.hash(f.body)}`)
      .sort()
      .join("|"),
  ).toString(36);
  const result = await Bun.build({
    entrypoints: [SERVICE_WORKER_ENTRY],
    minify: true,
    target: "browser",
    define: { __SHELL_VERSION__: JSON.stringify(version), __SHELL_FILES__: JSON.stringify(files) },
  });
  if (!result.success || !result.outputs[0]) throw new Error(`the service worker did not build: ${result.logs.map(String).join("; ")}`);
  return { path: "/sw.js", body: new Uint8Array(await result.outputs[0].arrayBuffer()) };
}

/**
 * The bundle's files by path, plus one index.html per page of the app under the page's own path
 * (e.g. "/book"), naming the files that page needs as modulepreload links.
 */
export async function loadWebAssets(): Promise<WebAssets> {
  // The binary's embedded files are served from where they are: reading the megabyte of them
  // into memory took about 6 ms of every start (decision 194).
  const files: { path: string; body: WebBody; gzip?: WebBody }[] = embedded
    ? embedded.map((e) => ({ path: e.path, body: Bun.file(e.file), gzip: e.gzipFile ? Bun.file(e.gzipFile) : undefined }))
    : await bundleWeb();
  const text = async (body: WebBody) => (body instanceof Blob ? body.text() : new TextDecoder().decode(body));
  const preloadsFile = files.find((f) => f.path === ROUTE_PRELOADS_FILE);
  const assets: WebAssets = new Map(files.filter((f) => f !== preloadsFile).map((f) => [f.path, toAsset(f.path, f.body, f.gzip)]));
  const index = files.find((f) => f.path === "/index.html");
  if (index && preloadsFile) {
    const html = await text(index.body);
    const preloads = JSON.parse(await text(preloadsFile.body)) as RoutePreloads;
    for (const [route, needed] of Object.entries(preloads)) {
      assets.set(route, toAsset("/index.html", new TextEncoder().encode(withPreloadLinks(html, needed))));
    }
  }
  return assets;
}
