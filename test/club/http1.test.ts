/**
 * HTTP/1.1 by hand for the first wave (decision 192): the bytes of a post, and the club's answer
 * read from bytes however they are cut, as fetch would read them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { AnswerReader, encodeRequest } from "../../src/club/http1.ts";
import type { WireRequest } from "../../src/club/http.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytesOf = (s: string) => new TextEncoder().encode(s);

const post: WireRequest = {
  url: "http://club.example:8080/members/book?x=1",
  method: "POST",
  headers: { accept: "text/html", cookie: "sid=abc", "content-type": "application/x-www-form-urlencoded" },
  body: "slotId=MAS-1&name=Jos%C3%A9",
  timeoutMs: 5000,
};

describe("encodeRequest", () => {
  test("writes the request line with its query, the host with its port, the headers and the body with its length", () => {
    const encoded = encodeRequest(post);
    expect(encoded).toMatchObject({ hostname: "club.example", port: 8080, isTls: false });
    const [head, body] = text(encoded.bytes).split("\r\n\r\n");
    const lines = head.split("\r\n");
    expect(lines[0]).toBe("POST /members/book?x=1 HTTP/1.1");
    expect(lines).toContain("Host: club.example:8080");
    expect(lines).toContain("cookie: sid=abc");
    expect(lines).toContain("content-type: application/x-www-form-urlencoded");
    expect(lines).toContain(`Content-Length: ${bytesOf(post.body!).byteLength}`);
    expect(body).toBe(post.body!);
  });

  test("https on its default port, no body without a length, and no header can start another", () => {
    const encoded = encodeRequest({ url: "https://club.example/", method: "GET", headers: { cookie: "a=1\r\nX-Injected: 1" }, body: undefined, timeoutMs: 1000 });
    expect(encoded).toMatchObject({ port: 443, isTls: true });
    const head = text(encoded.bytes);
    expect(head.endsWith("\r\n\r\n")).toBe(true);
    expect(head).not.toContain("Content-Length");
    expect(head.split("\r\n").filter((line) => line.startsWith("X-Injected"))).toHaveLength(0);
  });
});

/** Feeds an answer to a reader in pieces of `size` bytes; returns the reader once complete (or after the last piece). */
function feed(answer: string, size: number): { reader: AnswerReader; completeAfter: number | null } {
  const reader = new AnswerReader(100);
  const bytes = bytesOf(answer);
  for (let at = 0; at < bytes.byteLength; at += size) {
    if (reader.push(bytes.subarray(at, at + size))) return { reader, completeAfter: Math.min(at + size, bytes.byteLength) };
  }
  return { reader, completeAfter: null };
}

describe("AnswerReader", () => {
  const sized =
    "HTTP/1.1 302 Found\r\nLocation: /members/bookings\r\nDate: Mon, 30 Nov 2026 00:00:00 GMT\r\nSet-Cookie: a=1; Path=/\r\nset-cookie: b=2; HttpOnly\r\nContent-Length: 11\r\n\r\nhello world";

  test.each([1, 3, 7, 1000])("an answer sized by Content-Length, in pieces of %p bytes", (size) => {
    const { reader, completeAfter } = feed(sized, size);
    expect(completeAfter).toBe(bytesOf(sized).byteLength);
    expect(reader.answer(150)).toEqual({
      status: 302,
      location: "/members/bookings",
      date: "Mon, 30 Nov 2026 00:00:00 GMT",
      retryAfter: null,
      setCookies: ["a=1; Path=/", "b=2; HttpOnly"],
      body: "hello world",
      sentMs: 100,
      receivedMs: 150,
    });
    expect(reader.isReusable).toBe(true);
  });

  const chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/html; charset=utf-8\r\n\r\n6\r\n<p>Jos\r\n9;ext=1\r\né booked\r\n5\r\n</p>\n\r\n0\r\n\r\n";

  test.each([1, 2, 5, 1000])("a chunked answer, in pieces of %p bytes, read as UTF-8", (size) => {
    const { reader, completeAfter } = feed(chunked, size);
    expect(completeAfter).toBe(bytesOf(chunked).byteLength);
    expect(reader.answer(1).body).toBe("<p>José booked</p>\n");
  });

  test("a chunked answer with trailers ends after them", () => {
    const withTrailers = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Trailer: 1\r\n\r\n";
    expect(feed(withTrailers, 1).completeAfter).toBe(bytesOf(withTrailers).byteLength);
  });

  test("an answer without a length ends with the connection, which cannot carry another", () => {
    const reader = new AnswerReader(1);
    expect(reader.push(bytesOf("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it"))).toBe(false);
    expect(reader.closed()).toBe(true);
    expect(reader.answer(2).body).toBe("all of it");
    expect(reader.isReusable).toBe(false);
  });

  test("a connection that closes before the answer is whole leaves it cut short", () => {
    const reader = new AnswerReader(1);
    reader.push(bytesOf("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nnot all"));
    expect(reader.closed()).toBe(false);
    expect(() => reader.answer(2)).toThrow();
  });

  test("an interim 100 Continue is skipped; Connection: close is not reused", () => {
    const { reader, completeAfter } = feed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbusy", 4);
    expect(completeAfter).not.toBeNull();
    expect(reader.answer(1)).toMatchObject({ status: 503, body: "busy" });
    expect(reader.isReusable).toBe(false);
  });

  test("bytes that are not HTTP are an error, not a crash", () => {
    expect(() => new AnswerReader(1).push(bytesOf("SSH-2.0-OpenSSH\r\n\r\n"))).toThrow(/HTTP/);
  });
});

describe("against a real server", () => {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const body = await request.text();
      return new Response(`${request.method} ${new URL(request.url).pathname} ${body} ${request.headers.get("cookie")}`, { headers: { "set-cookie": "seen=1" } });
    },
  });
  afterAll(() => server.stop(true));

  test("a post written as bytes on a socket is read back as fetch would, twice on one connection", async () => {
    const wire: WireRequest = {
      url: `http://127.0.0.1:${server.port}/members/book`,
      method: "POST",
      headers: { cookie: "sid=1", "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
      timeoutMs: 1000,
    };
    const encoded = encodeRequest(wire);
    let reader = new AnswerReader(0);
    let resolve: (body: string) => void = () => {};
    const socket = await Bun.connect({
      hostname: encoded.hostname,
      port: encoded.port,
      socket: {
        data(_s, chunk) {
          if (reader.push(chunk)) resolve(reader.answer(1).body);
        },
      },
    });
    for (let round = 0; round < 2; round++) {
      reader = new AnswerReader(0);
      const answered = new Promise<string>((r) => (resolve = r));
      socket.write(encoded.bytes);
      expect(await answered).toBe("POST /members/book a=1 sid=1");
      expect(reader.isReusable).toBe(true);
    }
    socket.end();
  });
});
