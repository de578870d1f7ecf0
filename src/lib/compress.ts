/**
 * JSON answers of a kilobyte or more go gzipped to a browser that accepts it: a phone on a slow
 * network waits for bytes, not for the few microseconds gzip takes (the UI texts shrink about 5x,
 * the tee sheet 10x and more).
 */
import type { MiddlewareHandler } from "hono";

export const COMPRESS_MIN_BYTES = 1024;

/** Whether the client takes gzipped answers. */
export const acceptsGzip = (acceptEncoding: string | undefined) => /\bgzip\b/i.test(acceptEncoding ?? "");

export const compressJson: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (c.req.method === "HEAD" || !res.body || res.headers.has("content-encoding")) return;
  if (!/^application\/json\b/i.test(res.headers.get("content-type") ?? "")) return;
  if (!acceptsGzip(c.req.header("accept-encoding"))) return;
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.append("vary", "accept-encoding");
  if (body.length < COMPRESS_MIN_BYTES) {
    c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
    return;
  }
  headers.set("content-encoding", "gzip");
  headers.delete("content-length");
  c.res = new Response(Bun.gzipSync(body), { status: res.status, statusText: res.statusText, headers });
};
