/**
 * A member only ever reads and changes their own data: roles are enforced on the server for every
 * route and socket action. Members A (maria) and B (jose) each have saved
 * players, a pending request and a confirmed booking, made through the real paths against the
 * demo club. A then tries every route and action on B's ids; B's rows (and B's booking at the
 * club) must be exactly as they were, and a member gets 403 on every admin route.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { bookingRequests, bookings, requestAttempts, savedPlayers, sessions, users } from "../../src/db/schema.ts";
import { userTopic, type SocketData } from "../../src/realtime/hub.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { ADMIN_PASSWORD, userIdOf } from "../helpers/api.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";

/** TEST_NOW is Sunday 2026-11-22 09:00 Manila: 2026-11-27 is open for booking, 2026-11-30 not yet. */
const OPEN_DATE = "2026-11-27";
const LATER_DATE = "2026-11-30";

const spouseOf = (lastName: string, memberId: string, firstName: string) => ({
  firstName,
  lastName,
  type: "Spouse",
  memberId,
  cartPreference: "Walking",
  feePreference: "Charge to their account",
});

let f: ReleaseFixture;
let aId: number;
let bId: number;
let aCookie: string;
let bCookie: string;
let aSocket: SocketData;
/** B's ids as B sees them. */
let bRequestId: number;
let bBookingRef: string;
let aRequestId: number;
let aBookingRef: string;

async function act(socket: SocketData, action: string, payload: unknown): Promise<ServerMessage[]> {
  const replies: ServerMessage[] = [];
  await f.t.deps.hub.dispatch(socket, JSON.stringify({ action, payload }), (m) => replies.push(m));
  await f.engine.idle();
  return replies;
}

async function socketOf(cookie: string): Promise<SocketData> {
  const { user } = await (await f.t.call("GET", "/v1/auth/status", { cookie })).json();
  return { user, sessionId: "socket" };
}

/** Everything stored for B: account, sessions, saved players, requests with their attempts, bookings. */
async function rowsOf(userId: number) {
  const db = f.t.deps.database.db;
  const requests = await db.select().from(bookingRequests).where(eq(bookingRequests.userId, userId));
  return {
    user: await db.select().from(users).where(eq(users.id, userId)),
    sessions: await db.select().from(sessions).where(eq(sessions.userId, userId)),
    players: await db.select().from(savedPlayers).where(eq(savedPlayers.userId, userId)),
    requests,
    attempts:
      requests.length === 0
        ? []
        : await db
            .select()
            .from(requestAttempts)
            .where(
              inArray(
                requestAttempts.requestId,
                requests.map((r) => r.id),
              ),
            ),
    bookings: await db.select().from(bookings).where(eq(bookings.userId, userId)),
  };
}

beforeAll(async () => {
  f = await startReleaseFixture();
  aId = await userIdOf(f.t, "maria");
  bId = await userIdOf(f.t, "jose");
  aCookie = await f.t.signIn("maria", "demo1234");
  bCookie = await f.t.signIn("jose", "demo1234");
  aSocket = await socketOf(aCookie);
  const bSocket = await socketOf(bCookie);

  // Each member's data, made the way the web app makes it.
  expect(await act(aSocket, "UPDATE_PLAYERS", [spouseOf("Santos", "SW-1001-S", "Paolo")])).toEqual([{ type: "ack", action: "UPDATE_PLAYERS" }]);
  expect(await act(bSocket, "UPDATE_PLAYERS", [spouseOf("Reyes", "SW-1002-S", "Carmen")])).toEqual([{ type: "ack", action: "UPDATE_PLAYERS" }]);
  for (const [socket, time] of [
    [aSocket, "06:00"],
    [bSocket, "06:08"],
  ] as const) {
    expect((await act(socket, "SUBMIT_BOOKING_REQUEST", submission(OPEN_DATE, [time])))[0]).toMatchObject({ type: "submissionResult", status: "submitted" });
    expect((await act(socket, "SUBMIT_BOOKING_REQUEST", submission(LATER_DATE, [time])))[0]).toMatchObject({ type: "submissionResult", status: "pending" });
  }
  await f.engine.idle();
  const [aRequest] = await (await f.t.call("GET", "/v1/my/requests", { cookie: aCookie })).json();
  const [bRequest] = await (await f.t.call("GET", "/v1/my/requests", { cookie: bCookie })).json();
  const [aBooking] = await (await f.t.call("GET", "/v1/my/bookings", { cookie: aCookie })).json();
  const [bBooking] = await (await f.t.call("GET", "/v1/my/bookings", { cookie: bCookie })).json();
  aRequestId = aRequest.id;
  bRequestId = bRequest.id;
  aBookingRef = aBooking.bookingId;
  bBookingRef = bBooking.bookingId;
  expect(f.sim.bookingsOf("jose@southwoods.demo").map((b) => b.ref)).toEqual([bBookingRef]);
}, 30_000);
afterAll(() => f.close());

describe("member A reads only their own data", () => {
  test("players, requests, bookings and the session carry A's rows and none of B's", async () => {
    const players = await (await f.t.call("GET", "/v1/my/players", { cookie: aCookie })).json();
    expect(players).toEqual([spouseOf("Santos", "SW-1001-S", "Paolo")]);
    const requests = await (await f.t.call("GET", "/v1/my/requests", { cookie: aCookie })).json();
    expect(requests.map((r: { id: number }) => r.id)).toEqual([aRequestId]);
    const list = await (await f.t.call("GET", "/v1/my/bookings", { cookie: aCookie })).json();
    expect(list.map((b: { bookingId: string }) => b.bookingId)).toEqual([aBookingRef]);
    const status = await (await f.t.call("GET", "/v1/auth/status", { cookie: aCookie })).json();
    expect(status.user).toMatchObject({ id: aId, username: "maria" });
    // Nothing of B anywhere in what A can read, whatever the query.
    for (const path of [
      "/v1/my/players",
      "/v1/my/requests",
      "/v1/my/bookings",
      "/v1/auth/status",
      `/v1/my/bookings?userId=${bId}`,
      `/v1/my/requests?user_id=${bId}&id=${bRequestId}`,
    ]) {
      const text = await (await f.t.call("GET", path, { cookie: aCookie })).text();
      for (const mark of ["Carmen", "Reyes", "SW-1002", bBookingRef, "jose"]) expect(`${path}: ${text}`).not.toContain(mark);
    }
  });
});

describe("member A cannot change B's data", () => {
  test("every route and action on B's ids is refused, and B's rows and club booking are unchanged", async () => {
    const before = await rowsOf(bId);
    const publishedBefore = f.t.published.length;
    const requestCount = (await f.t.deps.database.db.select().from(bookingRequests)).length;

    expect(await act(aSocket, "CANCEL_REQUEST", { id: bRequestId })).toEqual([
      { type: "error", message: "That request was not found.", errorKey: "bookings.error.request_not_found" },
    ]);
    expect(await act(aSocket, "CANCEL_REQUEST", { id: String(bRequestId) })).toEqual([
      { type: "error", message: "That request was not found.", errorKey: "bookings.error.request_not_found" },
    ]);
    expect(await act(aSocket, "CANCEL_CONFIRMED_BOOKING", { bookingId: bBookingRef })).toEqual([
      { type: "error", message: "That booking was not found.", errorKey: "bookings.error.booking_not_found" },
    ]);
    expect(await act(aSocket, "CANCEL_CONFIRMED_BOOKING", { bookingId: ` ${bBookingRef} ` })).toEqual([
      { type: "error", message: "That booking was not found.", errorKey: "bookings.error.booking_not_found" },
    ]);
    expect(await act(aSocket, "SUBMIT_BOOKING_REQUEST", { ...submission(LATER_DATE, ["07:04"]), editTarget: bRequestId })).toEqual([
      { type: "error", message: "That request was not found.", errorKey: "bookings.error.request_not_found" },
    ]);
    // B's booking edited to A's players or moved to another time: not found, nothing booked at the club.
    for (const times of [["06:08"], ["07:16"]]) {
      const edit = await f.t.call("POST", `/v1/bookings/${encodeURIComponent(bBookingRef)}/edit`, { cookie: aCookie, body: submission(OPEN_DATE, times) });
      expect(edit.status).toBe(404);
      expect(await edit.json()).toEqual({ message: "That booking was not found.", errorKey: "bookings.error.booking_not_found" });
    }
    // Fields naming B in A's own calls are ignored: only A's rows change.
    expect(await act(aSocket, "UPDATE_PLAYERS", [{ ...spouseOf("Santos", "SW-1001-D1", "Bea"), userId: bId, user_id: bId }])).toEqual([{ type: "ack", action: "UPDATE_PLAYERS" }]);
    const profile = {
      name: "Maria Santos",
      memberId: "SW-1001",
      southwoods_email: "maria@southwoods.demo",
      defaultCartType: "Walking",
      defaultFeeGuest: "Charge my guest",
      defaultFeeMember: "Charge to their account",
    };
    const saved = await f.t.call("PUT", "/v1/my/profile", { cookie: aCookie, body: { ...profile, id: bId, userId: bId, username: "jose" } });
    expect(saved.status).toBe(200);
    expect((await saved.json()).user).toMatchObject({ id: aId, username: "maria" });
    const changed = await f.t.call("POST", "/v1/my/user/change-password", {
      cookie: aCookie,
      body: { currentPassword: "demo1234", newPassword: "maria-new-1", confirmPassword: "maria-new-1", userId: bId },
    });
    expect(changed.status).toBe(204);
    await f.engine.idle();

    expect(await rowsOf(bId)).toEqual(before);
    expect((await f.t.deps.database.db.select().from(bookingRequests)).length).toBe(requestCount);
    expect(f.sim.bookingsOf("jose@southwoods.demo").map((b) => b.ref)).toEqual([bBookingRef]);
    expect(f.sim.bookingsOf("maria@southwoods.demo").map((b) => b.ref)).toEqual([aBookingRef]);
    // Nothing A did was told to B's screens.
    expect(f.t.published.slice(publishedBefore).filter((p) => p.topic === userTopic(bId))).toEqual([]);
    // A's own list did change; B still signs in with B's password and reads B's list.
    expect(await (await f.t.call("GET", "/v1/my/players", { cookie: aCookie })).json()).toEqual([spouseOf("Santos", "SW-1001-D1", "Bea")]);
    expect(await (await f.t.call("GET", "/v1/my/players", { cookie: await f.t.signIn("jose", "demo1234") })).json()).toEqual([spouseOf("Reyes", "SW-1002-S", "Carmen")]);
  });

  test("A's own ids still work, so the refusals above were about ownership", async () => {
    expect(await act(aSocket, "CANCEL_REQUEST", { id: aRequestId })).toEqual([{ type: "ack", action: "CANCEL_REQUEST" }]);
    const [row] = await f.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.id, aRequestId));
    expect(row.status).toBe("cancelled");
    const [bRow] = await f.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.id, bRequestId));
    expect(bRow.status).toBe("pending");
  });
});

describe("a member and the admin routes", () => {
  test("every /v1/admin route and method answers 403 to a member, with B's ids too, and changes nothing", async () => {
    const adminRoutes = new Map<string, { method: string; path: string }>();
    for (const route of f.t.app.routes) {
      if (["GET", "POST", "PUT", "PATCH", "DELETE"].includes(route.method) && route.path.startsWith("/v1/admin/")) adminRoutes.set(`${route.method} ${route.path}`, route);
    }
    expect(adminRoutes.size).toBeGreaterThanOrEqual(20);
    const before = await rowsOf(bId);
    const cookie = await f.t.signIn("ana", "demo1234");
    const refused: string[] = [];
    for (const { method, path } of adminRoutes.values()) {
      const filled = path.replace(/:(\w+)/g, (_, name: string) => (name === "date" ? "2026-12-25" : name === "id" && path.includes("/users/") ? String(bId) : "1"));
      const body =
        method === "GET" || method === "DELETE"
          ? undefined
          : { username: "jose", role: "superadmin", status: "disabled", password: "taken-over", name: "x", id: "x", days_active: [1] };
      const res = await f.t.call(method, filled, { cookie, body });
      const answer = await res.json();
      refused.push(`${method} ${filled} ${res.status} ${answer.errorKey}`);
    }
    expect(refused.filter((line) => !line.endsWith(" 403 auth.forbidden"))).toEqual([]);
    expect((await f.t.call("GET", "/v1/system/club", { cookie })).status).toBe(403);
    expect(await rowsOf(bId)).toEqual(before);
    // The admin still reads the users as they were.
    const admin = await f.t.signIn("admin", ADMIN_PASSWORD);
    const list = await (await f.t.call("GET", "/v1/admin/users", { cookie: admin })).json();
    expect(list.find((u: { username: string }) => u.username === "jose")).toMatchObject({ role: "user", status: "active" });
  });
});
