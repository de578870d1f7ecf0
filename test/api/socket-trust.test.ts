/**
 * The socket over a real Bun server: every action acts as the user is stored now, frames and
 * sockets are bounded at the socket layer, and a disabled user's sockets close at once.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, users } from "../../src/db/schema.ts";
import { SOCKET_ACTIONS_PER_SECOND, SOCKET_MAX_PER_USER } from "../../src/lib/limits.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { startHttpServer, type HttpServer } from "../../src/server.ts";
import type { WebAssets } from "../../src/web-assets.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";
import { ADMIN_PASSWORD } from "../helpers/api.ts";

const PLAY = "2026-11-30";

let f: ReleaseFixture | null = null;
let server: HttpServer | null = null;
const open: WebSocket[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) ws.close();
  await server?.closeConnections();
  await f?.close();
  server = null;
  f = null;
});

async function start() {
  f = await startReleaseFixture({ startEngine: false });
  const page = new TextEncoder().encode("<!doctype html><title>Teebox</title>");
  const web: WebAssets = new Map([["/index.html", { body: page, gzip: null, contentType: "text/html", isImmutable: false }]]);
  server = startHttpServer({ app: f.t.app, deps: f.t.deps, web, port: 0, host: "127.0.0.1" });
  return { f, server };
}

interface Socket {
  ws: WebSocket;
  messages: ServerMessage[];
  closed: Promise<CloseEvent>;
  next(predicate: (m: ServerMessage) => boolean): Promise<ServerMessage>;
  send(action: string, payload?: unknown): void;
}

async function connect(cookie: string): Promise<Socket> {
  const ws = new WebSocket(`${server!.url.replace("http:", "ws:")}/v1/ws`, { headers: { origin: server!.url, cookie } } as unknown as string[]);
  open.push(ws);
  const messages: ServerMessage[] = [];
  const waiters: { predicate: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as ServerMessage;
    messages.push(message);
    for (const w of [...waiters])
      if (w.predicate(message)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
  };
  const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener("close", (e) => resolve(e as CloseEvent)));
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("socket error"));
  });
  return {
    ws,
    messages,
    closed,
    next: (predicate) => {
      const found = messages.find(predicate);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    send: (action, payload) => ws.send(JSON.stringify({ action, payload })),
  };
}

describe("every socket action acts as the user is stored now", () => {
  test("a member who saved their profile after opening the app books with the saved name", async () => {
    const { f } = await start();
    // A new member opened the app before the setup wizard saved the profile.
    await f.t.deps.database.db.update(users).set({ name: "" }).where(eq(users.username, "maria"));
    const cookie = await f.t.signIn("maria", "demo1234");
    const socket = await connect(cookie);
    const profile = {
      name: "Maria Reyes",
      memberId: "SW-1001",
      southwoods_email: "maria@southwoods.demo",
      defaultCartType: "Walking",
      defaultFeeGuest: "Charge my guest",
      defaultFeeMember: "Charge to their account",
    };
    const saved = await f.t.call("PUT", "/v1/my/profile", { cookie, body: profile });
    expect(saved.status).toBe(200);
    socket.send("SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"]));
    const answer = await socket.next((m) => m.type === "submissionResult" || m.type === "error");
    expect(answer.type).toBe("submissionResult");
    const [row] = await f.t.deps.database.db.select().from(bookingRequests);
    expect(row!.players[0]).toMatchObject({ firstName: "Maria", lastName: "Reyes" });
  });

  test("a user an admin disables has every socket closed at once", async () => {
    const { f } = await start();
    const cookie = await f.t.signIn("maria", "demo1234");
    const first = await connect(cookie);
    const second = await connect(cookie);
    const admin = await f.t.signIn("admin", ADMIN_PASSWORD);
    const mariaId = (await f.user("maria")).id;
    const res = await f.t.call("PUT", `/v1/admin/users/${mariaId}`, { cookie: admin, body: { status: "disabled" } });
    expect(res.status).toBe(200);
    expect((await first.closed).code).toBe(4001);
    expect((await second.closed).code).toBe(4001);
  });

  test("a user an admin deletes has every socket closed at once", async () => {
    const { f } = await start();
    const cookie = await f.t.signIn("jose", "demo1234");
    const socket = await connect(cookie);
    const admin = await f.t.signIn("admin", ADMIN_PASSWORD);
    const joseId = (await f.user("jose")).id;
    expect((await f.t.call("DELETE", `/v1/admin/users/${joseId}`, { cookie: admin })).status).toBe(204);
    expect((await socket.closed).code).toBe(4001);
  });

  test("a socket whose user was disabled behind the app's back answers 'sign in' and closes", async () => {
    const { f } = await start();
    const cookie = await f.t.signIn("maria", "demo1234");
    const socket = await connect(cookie);
    // Written straight to the database (another process, a restore): no service told the hub.
    await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.username, "maria"));
    socket.send("SUBMIT_BOOKING_REQUEST", submission(PLAY, ["06:00"]));
    expect(await socket.next((m) => m.type === "error")).toMatchObject({ errorKey: "auth.required" });
    expect((await socket.closed).code).toBe(4001);
    expect(await f.t.deps.database.db.select().from(bookingRequests)).toHaveLength(0);
  });
});

describe("the socket's own limits", () => {
  test("a 15 MB frame is refused by the socket layer, never buffered, and the server stays up", async () => {
    const { f, server } = await start();
    const cookie = await f.t.signIn("maria", "demo1234");
    const socket = await connect(cookie);
    socket.ws.send(new Uint8Array(15 * 1024 * 1024).fill(0x20));
    const closed = await socket.closed;
    expect(closed.code).toBe(1009);
    expect(socket.messages).toHaveLength(0);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  test("a user has a bounded number of open sockets", async () => {
    const { f, server } = await start();
    const cookie = await f.t.signIn("maria", "demo1234");
    for (let i = 0; i < SOCKET_MAX_PER_USER; i++) await connect(cookie);
    const refused = await fetch(`${server.url}/v1/ws`, {
      headers: { origin: server.url, cookie, upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" },
    });
    expect(refused.status).toBe(429);
    expect((await refused.json()).errorKey).toBe("socket.too_many");
    // Another member is not affected.
    await connect(await f.t.signIn("admin", ADMIN_PASSWORD));
  });

  test("actions beyond the per-second rate are answered with a clear error", async () => {
    const { f } = await start();
    const socket = await connect(await f.t.signIn("maria", "demo1234"));
    const count = SOCKET_ACTIONS_PER_SECOND * 3;
    for (let i = 0; i < count; i++) socket.ws.send(JSON.stringify({ action: "NO_SUCH_ACTION" }));
    await socket.next(() => socket.messages.length === count);
    const limited = socket.messages.filter((m) => m.type === "error" && m.errorKey === "socket.rate_limited");
    expect(limited.length).toBeGreaterThanOrEqual(count - 2 * SOCKET_ACTIONS_PER_SECOND);
    expect((limited[0] as { message: string }).message).toMatch(/Too many messages/);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
  });

  test("every answer to an action, a rate-limited one too, names the action's request id", async () => {
    const { f } = await start();
    const socket = await connect(await f.t.signIn("maria", "demo1234"));
    const count = SOCKET_ACTIONS_PER_SECOND * 3;
    // A cancel of a request nobody has: each is answered (refused or rate-limited) exactly once.
    for (let i = 0; i < count; i++) socket.ws.send(JSON.stringify({ action: "CANCEL_REQUEST", payload: { id: 999_999 }, requestId: `r${i}` }));
    await socket.next(() => socket.messages.length === count);
    const limited = socket.messages.filter((m) => m.type === "error" && m.errorKey === "socket.rate_limited");
    expect(limited.length).toBeGreaterThan(0);
    const answered = socket.messages.map((m) => ("requestId" in m ? m.requestId : undefined)).sort();
    expect(answered).toEqual(Array.from({ length: count }, (_, i) => `r${i}`).sort());
  });
});
