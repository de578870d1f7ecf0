import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { SessionUser } from "../../src/domain/session-user.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { createTestApp, type TestApp } from "../helpers/api.ts";

let t: TestApp;
let cookie: string;
let user: SessionUser;
let sessionId: string;

const member = { firstName: "Paolo", lastName: "Santos", type: "Member", memberId: "sw-1001-s", cartPreference: "Own Cart", feePreference: "Charge to their account" };
const guest = { firstName: "Lito", lastName: "Lapid", type: "Guest", memberId: "", cartPreference: "Rental Cart - Shared", feePreference: "Charge my guest" };

async function sessionOf(cookieHeader: string): Promise<SessionUser> {
  const status = await (await t.call("GET", "/v1/auth/status", { cookie: cookieHeader })).json();
  return status.user;
}

/** Sends UPDATE_PLAYERS as the signed-in member's socket would, and returns what the socket was answered. */
async function updatePlayers(payload: unknown, requestId = "r1"): Promise<ServerMessage[]> {
  const replies: ServerMessage[] = [];
  await t.deps.hub.dispatch({ user, sessionId }, JSON.stringify({ action: "UPDATE_PLAYERS", payload, requestId }), (m) => replies.push(m));
  return replies;
}

async function savedList(cookieHeader = cookie) {
  const res = await t.call("GET", "/v1/my/players", { cookie: cookieHeader });
  expect(res.status).toBe(200);
  return res.json();
}

beforeEach(async () => {
  t = await createTestApp();
  await t.createUser({ username: "maria", password: "maria-pass" });
  cookie = await t.signIn("maria", "maria-pass");
  user = await sessionOf(cookie);
  const [row] = await t.deps.database.query<{ id: string }>(`SELECT id FROM sessions WHERE user_id = ${user.id}`);
  sessionId = row.id;
});
afterEach(() => t.close());

describe("GET /v1/my/players", () => {
  test("needs a signed-in member", async () => {
    const res = await t.call("GET", "/v1/my/players");
    expect(res.status).toBe(401);
  });

  test("starts empty", async () => {
    expect(await savedList()).toEqual([]);
  });
});

describe("UPDATE_PLAYERS", () => {
  test("replaces the whole list, normalised, acknowledges it and tells the member's tabs to reload", async () => {
    const replies = await updatePlayers([member, { ...guest, memberId: "1234" }], "save-1");
    expect(replies).toEqual([{ type: "ack", action: "UPDATE_PLAYERS", requestId: "save-1" }]);
    expect(await savedList()).toEqual([
      { ...member, memberId: "SW-1001-S" },
      { ...guest, memberId: "0000" },
    ]);
    expect(t.published).toContainEqual({ topic: `user:${user.id}`, message: { type: "status", status: "updated", changed: ["my.players"] } });

    // The next save replaces the list (here: one removed, the order kept as sent).
    await updatePlayers([{ ...guest, firstName: "  Lito ", lastName: "Lapid " }]);
    expect(await savedList()).toEqual([{ ...guest, memberId: "0000" }]);
    await updatePlayers([]);
    expect(await savedList()).toEqual([]);
  });

  test("Senior Care players get the member id 0000 too", async () => {
    await updatePlayers([{ ...guest, type: "Senior Care", memberId: "" }]);
    expect((await savedList())[0].memberId).toBe("0000");
  });

  test("an exact duplicate is refused with the product's message and nothing is stored", async () => {
    const replies = await updatePlayers([member, { ...member, firstName: "PAOLO", memberId: " SW-1001-S " }], "dup");
    expect(replies).toEqual([{ type: "error", message: "This exact player already exists in your list.", errorKey: "players.duplicate", requestId: "dup" }]);
    expect(await savedList()).toEqual([]);
    expect(t.published.some((p) => p.message.type === "status")).toBe(false);
  });

  test("a member id is required except for Guest and Senior Care", async () => {
    const replies = await updatePlayers([{ ...member, memberId: "  " }]);
    expect(replies[0]).toMatchObject({ type: "error", message: "Membership number is required.", errorKey: "players.member_id_required" });
  });

  test("types, carts and fees must come from the form options", async () => {
    expect((await updatePlayers([{ ...member, type: "Caddie" }]))[0]).toMatchObject({ type: "error", errorKey: "players.invalid_type" });
    expect((await updatePlayers([{ ...member, cartPreference: "Golf Buggy" }]))[0]).toMatchObject({ type: "error", errorKey: "players.invalid_cart" });
    // A guest is charged with the guest fee choices, not the member ones.
    expect((await updatePlayers([{ ...guest, feePreference: "Charge to their account" }]))[0]).toMatchObject({ type: "error", errorKey: "players.invalid_fee" });
    expect(await savedList()).toEqual([]);
  });

  test("a malformed payload is answered with an error", async () => {
    expect((await updatePlayers({ players: "none" }))[0]).toMatchObject({ type: "error", message: "The request must be a list.", errorKey: "validation.expected_list" });
    expect((await updatePlayers([{ firstName: "x" }]))[0]).toMatchObject({ type: "error", message: "0.lastName is required.", errorKey: "validation.required" });
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ ...member, memberId: `M-${i}` }));
    expect((await updatePlayers(tooMany))[0]).toMatchObject({ type: "error", message: "A saved players list holds at most 100 players.", errorKey: "players.too_many" });
  });

  test("each member has their own list", async () => {
    await updatePlayers([member]);
    await t.createUser({ username: "jose", password: "jose-pass" });
    const other = await t.signIn("jose", "jose-pass");
    expect(await savedList(other)).toEqual([]);
    expect(await savedList()).toHaveLength(1);
  });
});
