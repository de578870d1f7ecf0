/**
 * HTTP/1.1 by hand, for the first wave of a release only (decision 192): a wire request written
 * as the bytes that go on a socket opened ahead of the instant, and the club's answer read back
 * from the bytes that come in. At the instant sending a post is then one write on a connection
 * that is already open, with no request object to build and no handshake to wait for. Everything
 * else Teebox sends goes through fetch.
 *
 * Only what the club's answers need: a status, headers (a Location, the Date, every Set-Cookie),
 * and a body sized by Content-Length, sent in chunks, or ended by the connection closing. The
 * request asks for no compression, so none comes back.
 */
import type { WireAnswer, WireRequest } from "./http.ts";

export interface EncodedRequest {
  hostname: string;
  port: number;
  isTls: boolean;
  /** The request line, headers and body, ready to write. */
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

/** The bytes of a wire request, with where they go. */
export function encodeRequest(wire: WireRequest): EncodedRequest {
  const url = new URL(wire.url);
  const isTls = url.protocol === "https:";
  const port = url.port ? Number(url.port) : isTls ? 443 : 80;
  const body = wire.body === undefined ? null : encoder.encode(wire.body);
  const lines = [`${wire.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, `User-Agent: Bun/${Bun.version}`, "Connection: keep-alive"];
  for (const [name, value] of Object.entries(wire.headers)) {
    if (/^(host|content-length|connection|transfer-encoding)$/i.test(name)) continue;
    // A header value never carries a line break (it would start a header of its own).
    lines.push(`${name}: ${String(value).replace(/[\r\n]+/g, " ")}`);
  }
  if (body) lines.push(`Content-Length: ${body.byteLength}`);
  const head = encoder.encode(`${lines.join("\r\n")}\r\n\r\n`);
  const bytes = new Uint8Array(head.byteLength + (body?.byteLength ?? 0));
  bytes.set(head, 0);
  if (body) bytes.set(body, head.byteLength);
  return { hostname: url.hostname.replace(/^\[|\]$/g, ""), port, isTls, bytes };
}

/** The answer so far, once its head is read. */
interface Head {
  status: number;
  headers: [name: string, value: string][];
  /** Where the body starts in the buffer. */
  bodyStart: number;
  mode: { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" };
  isKeepAlive: boolean;
}

const CRLF_CRLF = [13, 10, 13, 10];

function indexOfSequence(buffer: Uint8Array, sequence: number[], from: number): number {
  outer: for (let i = from; i <= buffer.byteLength - sequence.length; i++) {
    for (let j = 0; j < sequence.length; j++) if (buffer[i + j] !== sequence[j]) continue outer;
    return i;
  }
  return -1;
}

function parseHead(buffer: Uint8Array, end: number): Head {
  const text = new TextDecoder("latin1").decode(buffer.subarray(0, end));
  const [statusLine, ...headerLines] = text.split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`The club's answer did not start as HTTP does: ${statusLine.slice(0, 60)}`);
  const headers = headerLines.map((line): [string, string] => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  const value = (name: string) => headers.find(([key]) => key === name)?.[1] ?? null;
  const isChunked = /\bchunked\b/i.test(value("transfer-encoding") ?? "");
  const length = value("content-length");
  const isHttp10 = statusLine.startsWith("HTTP/1.0");
  const connection = (value("connection") ?? "").toLowerCase();
  const code = Number(status[1]);
  const hasNoBody = code === 204 || code === 304 || (code >= 100 && code < 200);
  const mode: Head["mode"] = hasNoBody
    ? { kind: "length", length: 0 }
    : isChunked
      ? { kind: "chunked" }
      : length !== null
        ? { kind: "length", length: Number(length) }
        : { kind: "close" };
  return { status: code, headers, bodyStart: end + 4, mode, isKeepAlive: mode.kind !== "close" && (isHttp10 ? connection === "keep-alive" : connection !== "close") };
}

/** Reads chunked bytes from `start`: the body, and where it ended, or null while incomplete. */
function readChunked(buffer: Uint8Array, start: number): { body: Uint8Array; end: number } | null {
  const parts: Uint8Array[] = [];
  let at = start;
  for (;;) {
    const lineEnd = indexOfSequence(buffer, [13, 10], at);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(new TextDecoder("latin1").decode(buffer.subarray(at, lineEnd)).split(";")[0].trim(), 16);
    if (!Number.isFinite(size)) throw new Error("The club's answer had a chunk without a size.");
    if (size === 0) {
      // The last chunk ends with an empty line, after trailers if there are any.
      if (lineEnd + 4 > buffer.byteLength) return null;
      const hasTrailers = !(buffer[lineEnd + 2] === 13 && buffer[lineEnd + 3] === 10);
      const trailersEnd = hasTrailers ? indexOfSequence(buffer, CRLF_CRLF, lineEnd + 2) : lineEnd;
      if (trailersEnd < 0) return null;
      const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
      const body = new Uint8Array(total);
      let offset = 0;
      for (const part of parts) {
        body.set(part, offset);
        offset += part.byteLength;
      }
      return { body, end: trailersEnd + 4 };
    }
    const dataStart = lineEnd + 2;
    if (dataStart + size + 2 > buffer.byteLength) return null;
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

/**
 * Reads one answer from the bytes of a connection as they come. `push` says whether the answer is
 * complete; `closed` tells it the connection ended (which completes an answer sized by the close).
 */
export class AnswerReader {
  private buffer = new Uint8Array(0);
  private head: Head | null = null;
  private done: { body: Uint8Array } | null = null;

  constructor(private readonly sentMs: number) {}

  push(chunk: Uint8Array): boolean {
    if (this.done) return true;
    const next = new Uint8Array(this.buffer.byteLength + chunk.byteLength);
    next.set(this.buffer, 0);
    next.set(chunk, this.buffer.byteLength);
    this.buffer = next;
    return this.advance(false);
  }

  /** The connection closed: true when that completes the answer (else the answer was cut short). */
  closed(): boolean {
    return this.done !== null || this.advance(true);
  }

  /** Whether the connection may carry another request once this answer is read. */
  get isReusable(): boolean {
    return this.done !== null && (this.head?.isKeepAlive ?? false);
  }

  answer(receivedMs: number): WireAnswer {
    if (!this.head || !this.done) throw new Error("The club's answer is not complete.");
    const values = (name: string) => this.head!.headers.filter(([key]) => key === name).map(([, value]) => value);
    return {
      status: this.head.status,
      location: values("location")[0] ?? null,
      date: values("date")[0] ?? null,
      retryAfter: values("retry-after")[0] ?? null,
      setCookies: values("set-cookie"),
      body: new TextDecoder().decode(this.done.body),
      sentMs: this.sentMs,
      receivedMs,
    };
  }

  private advance(isClosed: boolean): boolean {
    if (!this.head) {
      const end = indexOfSequence(this.buffer, CRLF_CRLF, 0);
      if (end < 0) return false;
      this.head = parseHead(this.buffer, end);
      // An interim answer (100 Continue) is dropped; the real one follows.
      if (this.head.status >= 100 && this.head.status < 200) {
        this.buffer = this.buffer.subarray(this.head.bodyStart);
        this.head = null;
        return this.advance(isClosed);
      }
    }
    const { mode, bodyStart } = this.head;
    if (mode.kind === "length" && this.buffer.byteLength - bodyStart >= mode.length) this.done = { body: this.buffer.subarray(bodyStart, bodyStart + mode.length) };
    else if (mode.kind === "chunked") {
      const read = readChunked(this.buffer, bodyStart);
      if (read) this.done = { body: read.body };
    } else if (mode.kind === "close" && isClosed) this.done = { body: this.buffer.subarray(bodyStart) };
    return this.done !== null;
  }
}
