/**
 * Every 4xx answer is one a member or an admin can act on: its errorKey is a UI-text key and its
 * message that key's text (placeholders filled), never a validator's words ("Invalid input:
 * expected boolean, received string"). Each route of the app's own route table gets a wrong type
 * in each field of its body, odd path parameters and query fields; each socket action gets wrong
 * payloads; every answer is checked.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bookings, bookingRequests } from "../../src/db/schema.ts";
import { CLIENT_ACTIONS, type ServerMessage } from "../../src/realtime/messages.ts";
import { getSessionFromCookieHeader } from "../../src/services/sessions.ts";
import { ADMIN_PASSWORD, createTestApp, userIdOf, type TestApp } from "../helpers/api.ts";
import { wordingProblem } from "../helpers/error-wording.ts";

/** Values of the wrong type for whatever a field holds (text, number, true/false, list, object). */
const WRONG_TYPES: unknown[] = ["no", 12345, true, [1], { x: 1 }, null];

const SUBMISSION = ["course", "targetDate", "selectionOrder", "memberCartType", "playerDetails", "editTarget"];
/** The fields of each route's body; a route not named gets generic ones. */
const BODY_FIELDS: Record<string, string[]> = {
  "POST /v1/auth/login": ["username", "password"],
  "POST /v1/client/log": ["level", "message", "context"],
  "POST /v1/my/verify-credentials": ["email", "password"],
  "POST /v1/my/watches": [...SUBMISSION.slice(0, 2), "memberCartType", "playerDetails", "fromTime", "toTime", "anyCourse", "mode", "upgradeBookingId"],
  "POST /v1/bookings/:bookingId/edit": SUBMISSION,
  "PUT /v1/my/profile": ["name", "memberId", "southwoods_email", "golf_password", "defaultCartType", "defaultFeeGuest", "defaultFeeMember"],
  "POST /v1/my/user/change-password": ["currentPassword", "newPassword", "confirmPassword"],
  "POST /v1/my/user/set-password": ["currentPassword", "newPassword"],
  "POST /v1/my/notifications/read": ["all", "ids"],
  "PUT /v1/my/notification-settings": ["email", "email.watch_found", "email.request_booked"],
  "POST /v1/admin/users": ["username", "password", "role", "status", "name", "memberId", "southwoods_email"],
  "PUT /v1/admin/users/:id": ["role", "status", "name", "password"],
  "PUT /v1/admin/app-settings": ["release_time", "release_days_before", "log_level", "courses_to_skip_on_full"],
  "PUT /v1/admin/ui-text": ["admin.title"],
  "POST /v1/admin/holidays": ["date", "name"],
  "PUT /v1/admin/holidays/:date": ["name"],
  "POST /v1/admin/booking-rules": ["priority", "days_of_week", "applies_on_holidays", "start_time", "end_time", "min_players", "max_players", "max_guests"],
  "PUT /v1/admin/booking-rules/:id": ["priority", "days_of_week", "start_time"],
  "POST /v1/admin/courses": ["id", "name", "days_active"],
  "PUT /v1/admin/courses/:id": ["name", "days_active", "aliases"],
  "POST /v1/admin/booking-windows": ["rule_key", "start_time", "end_time"],
  "PUT /v1/admin/booking-windows/:id": ["rule_key", "start_time", "end_time"],
  "POST /v1/admin/frontpage-messages": ["title", "content", "is_active", "eventDate"],
  "PUT /v1/admin/frontpage-messages/:id": ["title", "content", "is_active"],
  "POST /v1/admin/club-check": ["email", "password"],
};
const GENERIC_FIELDS = ["id", "name", "value"];

/** A body with `field` (dotted: nested) of a wrong type, the other fields absent. */
function bodyWith(field: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = field.split(".");
  return { [head!]: rest.length > 0 ? bodyWith(rest.join("."), value) : value };
}

const ODD_PARAMS = ["abc", "-1", "1.5", "NaN", "x".repeat(300), "2026-02-30", "%00"];
const ODD_QUERIES = ["?limit=abc", "?limit=-3&before=x", "?before=1.5", "?limit=100000", "?_=x&limit="];

let t: TestApp;
let member: string;
let admin: string;
let bookingRef: string;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  member = await t.signIn("maria", "demo1234");
  admin = await t.signIn("admin", ADMIN_PASSWORD);
  const userId = await userIdOf(t, "maria");
  bookingRef = "SWB-WORDING-1";
  const player = { type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to their account" };
  const now = t.clock.now();
  await t.deps.database.db.insert(bookings).values({ userId, bookingRef, courseId: "masters", playDate: "2026-11-25", time: "06:08", players: [player], createdAt: now });
  await t.deps.database.db.insert(bookingRequests).values({
    userId,
    courseId: "masters",
    playDate: "2026-11-30",
    selection: [{ time: "06:00", slotId: null }],
    players: [player],
    status: "pending",
    releaseAt: now + 86_400_000,
    submittedAt: now,
    updatedAt: now,
  });
});
afterAll(() => t.close());

function routesOf(app: TestApp["app"]) {
  const seen = new Map<string, { method: string; path: string }>();
  for (const route of app.routes) {
    if (!["GET", "POST", "PUT", "DELETE"].includes(route.method) || !route.path.startsWith("/v1/")) continue;
    seen.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
  }
  return [...seen.entries()];
}

describe("every 4xx answer is UI text with its errorKey", () => {
  test("the reported examples are told in the member's words", async () => {
    const switches = await t.call("PUT", "/v1/my/notification-settings", { cookie: member, body: { email: { watch_found: "no" } } });
    expect(switches.status).toBe(400);
    expect(await switches.json()).toEqual({ message: "email.watch_found must be true or false.", errorKey: "validation.expected_true_false" });
    const story = await t.call("GET", "/v1/my/requests/abc/story", { cookie: member });
    expect(story.status).toBe(400);
    expect(await story.json()).toEqual({ message: "The id in this address is not valid.", errorKey: "validation.bad_param" });
  });

  test("a wrong type in any field, parameter or query of every route", async () => {
    const problems: string[] = [];
    let answered = 0;
    const check = async (where: string, res: Response) => {
      if (res.status < 400 || res.status >= 500) {
        await res.arrayBuffer();
        if (res.status >= 500) problems.push(`${where} → ${res.status}`);
        return;
      }
      answered++;
      const text = await res.text();
      let body: { message?: unknown; errorKey?: unknown };
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`${where} → ${res.status} without JSON: ${text.slice(0, 100)}`);
        return;
      }
      const problem = wordingProblem(body);
      if (problem) problems.push(`${where} → ${res.status} ${problem}`);
    };
    const realParam = (name: string) => (name === "bookingId" ? bookingRef : name === "date" ? "2026-12-25" : name === "id" ? "1" : "x");
    for (const [key, route] of routesOf(t.app)) {
      if (key === "POST /v1/auth/logout") continue;
      const cookie = route.path.startsWith("/v1/admin/") ? admin : member;
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(realParam(name)));
      if (route.method === "POST" || route.method === "PUT") {
        for (const field of BODY_FIELDS[key] ?? GENERIC_FIELDS) {
          for (const value of WRONG_TYPES) await check(`${key} ${field}=${JSON.stringify(value)}`, await t.call(route.method, path, { cookie, body: bodyWith(field, value) }));
        }
        for (const raw of ["[1]", '"text"', "{", "7"]) await check(`${key} body ${raw}`, await t.call(route.method, path, { cookie, rawBody: raw }));
      }
      if (route.path.includes(":")) {
        for (const value of ODD_PARAMS) {
          const odd = route.path.replace(/:(\w+)/g, () => encodeURIComponent(value));
          await check(
            `${route.method} ${odd.slice(0, 80)}`,
            await t.call(route.method, odd, { cookie, body: route.method === "GET" || route.method === "DELETE" ? undefined : {} }),
          );
        }
      }
      if (route.method === "GET") for (const query of ODD_QUERIES) await check(`${key}${query}`, await t.call("GET", `${path}${query}`, { cookie }));
    }
    expect(problems.slice(0, 40)).toEqual([]);
    expect(answered).toBeGreaterThan(500);
  }, 60_000);

  test("a wrong payload to every socket action", async () => {
    const session = await getSessionFromCookieHeader(t.deps, member);
    if (!session) throw new Error("no session");
    const problems: string[] = [];
    const payloads: unknown[] = [...WRONG_TYPES, { id: "abc" }, { bookingId: 42 }, { course: 1 }, [{ firstName: 1 }], { force: "yes" }];
    for (const action of CLIENT_ACTIONS) {
      if (action === "RUN_SCRAPER") continue; // not registered in API tests (its job is not running)
      for (const payload of payloads) {
        const replies: ServerMessage[] = [];
        await t.deps.hub.dispatch(session, JSON.stringify({ action, payload, requestId: "q1" }), (m) => replies.push(m));
        for (const reply of replies) {
          if (reply.type !== "error") continue;
          const problem = wordingProblem(reply);
          if (problem) problems.push(`${action} ${JSON.stringify(payload)} → ${problem}`);
          if (reply.requestId !== "q1") problems.push(`${action} ${JSON.stringify(payload)} → no request id`);
        }
      }
    }
    for (const raw of ["{", "[]", '{"action":"NOPE","requestId":"q2"}', "x".repeat(70_000)]) {
      const replies: ServerMessage[] = [];
      await t.deps.hub.dispatch(session, raw, (m) => replies.push(m));
      for (const reply of replies)
        if (reply.type === "error") {
          const problem = wordingProblem(reply);
          if (problem) problems.push(`${raw.slice(0, 30)} → ${problem}`);
        }
    }
    expect(problems.slice(0, 40)).toEqual([]);
  });
});
