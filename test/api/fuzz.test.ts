/**
 * Fuzzing every /v1 route (read from the app's own route table, so a new route is fuzzed without
 * touching this file) and every socket action, as anonymous, member, admin and superadmin, with a
 * seeded generator of malformed, oversized, wrongly typed and boundary inputs. Every input is
 * invalid by construction (each object carries a field of a type no check accepts), so:
 * - no answer is a 5xx (nor a socket `common.unexpected`), and every error answer is
 *   `{ message, errorKey }` JSON;
 * - the app keeps answering;
 * - nothing stored changes: every table is read before and after and compared, and SQLite's own
 *   change counter is read after each request to name the input that changed something. No
 *   table or column is left out: the fake clock stands still, so sessions' last_seen_at is never
 *   touched, and refused requests write no audit rows.
 * Then schema-valid submissions, player lists and profiles with odd values go through the domain
 * checks (each built so that some check must refuse it), and the running server gets oversized,
 * streamed and forged requests and bad socket frames.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bookingRequests, bookings, holidays, bookingRules, advisories, savedPlayers, teeTimeSlots, scrapeRuns, auditLog } from "../../src/db/schema.ts";
import { CLIENT_ACTIONS, type ClientAction, type ServerMessage } from "../../src/realtime/messages.ts";
import type { SocketData } from "../../src/realtime/hub.ts";
import { createScraper } from "../../src/jobs/scraper.ts";
import { createJobRegistry } from "../../src/jobs/registry.ts";
import { registerScraperActions } from "../../src/features/availability/scraper.actions.ts";
import { MAX_BODY_BYTES } from "../../src/app.ts";
import { getSessionFromCookieHeader, resolveSession } from "../../src/services/sessions.ts";
import { startHttpServer, type HttpServer } from "../../src/server.ts";
import type { WebAssets } from "../../src/web-assets.ts";
import { ADMIN_PASSWORD, createTestApp, ORIGIN, userIdOf, type TestApp } from "../helpers/api.ts";
import { wordingProblem } from "../helpers/error-wording.ts";
import { changesSoFar } from "../helpers/test-database.ts";

const SEED = 0x7eeb0c;
const HTTP_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** mulberry32: small, fast and the same on every machine. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: readonly T[]): T => list[int(list.length)] };
}
type Random = ReturnType<typeof createRandom>;

// ── the inputs ───────────────────────────────────────────────────────────

const nestedObject = (depth: number): unknown => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};
const nestedArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

const ODD_STRINGS = [
  "",
  " ",
  "x".repeat(300),
  "x".repeat(20_000),
  "ñandú 日本語 🏌️‍♂️",
  "\u0000",
  "\u202etxt.exe",
  "' OR '1'='1' --",
  "1; DROP TABLE users; --",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "NaN",
  "-Infinity",
  "1e400",
  "0x1F",
  "-0",
  "2026-02-30",
  "25:61",
  "__proto__",
  "null",
  "%00",
  "{{7*7}}",
];
const ODD_NUMBERS = [-1, 0, 1.5, -0.0001, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, Number.MIN_VALUE, 2 ** 31, 2 ** 64];
const ODD_STRUCTURES: unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [null],
  [[["x"]]],
  { __proto__: { isAdmin: true } },
  JSON.parse('{"__proto__":{"role":"superadmin"}}'),
  { constructor: { prototype: { role: "superadmin" } } },
  nestedObject(60),
];
const ANY_VALUES: unknown[] = [...ODD_STRINGS, ...ODD_NUMBERS, ...ODD_STRUCTURES];

/** Values no field check accepts where text, a number, a date, a time or a list is expected. */
const UNACCEPTABLE: unknown[] = [{}, { $ne: null }, { $gt: "" }, [{}], nestedObject(300), { toString: "x", valueOf: 1 }];
const LONG_TEXTS: unknown[] = ["y".repeat(201), "z".repeat(5000), ` ${"n".repeat(150)} `];
/** Ids that are of the wrong shape or belong to nobody. */
const BAD_IDS: unknown[] = [...UNACCEPTABLE, -1, 0, 1.5, 2 ** 53, "NaN", "x", "-5", "1e400", null, "", [], [{}]];

interface Hint {
  fields: string[];
  /** A field that holds a value from `bad` in every generated object, so the object is invalid. */
  anchor: string;
  bad?: unknown[];
}

const SUBMISSION_FIELDS = ["course", "targetDate", "selectionOrder", "memberCartType", "playerDetails", "editTarget"];
const PROFILE_FIELDS = ["name", "memberId", "southwoods_email", "golf_password", "defaultCartType", "defaultFeeGuest", "defaultFeeMember"];
const USER_FIELDS = ["username", "password", "role", "status", "name", "memberId", "southwoods_email"];
const SETTINGS_FIELDS = [
  "release_days_before",
  "release_time",
  "ui_date_range_days",
  "scraper_date_range_days",
  "booking_roll_hour",
  "courses_to_skip_on_full",
  "smart_refresh_threshold_seconds",
  "log_level",
  "scraper_username",
];
const RULE_FIELDS = ["priority", "days_of_week", "applies_on_holidays", "start_time", "end_time", "min_players", "max_players", "max_guests"];

/** What the body of each route is made of; a route missing here is fuzzed with generic fields. */
const HINTS: Record<string, Hint> = {
  "POST /v1/auth/login": { fields: ["username", "password"], anchor: "username" },
  "POST /v1/client/log": { fields: ["level", "message", "context"], anchor: "level" },
  "POST /v1/my/verify-credentials": { fields: ["email", "password"], anchor: "email" },
  "POST /v1/bookings/:bookingId/edit": { fields: SUBMISSION_FIELDS, anchor: "course" },
  "PUT /v1/my/profile": { fields: PROFILE_FIELDS, anchor: "name" },
  "POST /v1/my/user/change-password": { fields: ["currentPassword", "newPassword", "confirmPassword"], anchor: "currentPassword" },
  "POST /v1/my/user/set-password": { fields: ["currentPassword", "newPassword"], anchor: "currentPassword" },
  "POST /v1/admin/users": { fields: USER_FIELDS, anchor: "username" },
  "PUT /v1/admin/users/:id": { fields: USER_FIELDS, anchor: "role" },
  "PUT /v1/admin/app-settings": { fields: SETTINGS_FIELDS, anchor: "release_time" },
  "PUT /v1/admin/ui-text": { fields: ["admin.title", "login.title", "nav.book"], anchor: "admin.title" },
  "POST /v1/admin/holidays": { fields: ["date", "name"], anchor: "date" },
  // An object or null name is "no name" (valid); only an over-long one is refused.
  "PUT /v1/admin/holidays/:date": { fields: ["name"], anchor: "name", bad: LONG_TEXTS },
  "POST /v1/admin/booking-rules": { fields: RULE_FIELDS, anchor: "start_time" },
  "PUT /v1/admin/booking-rules/:id": { fields: RULE_FIELDS, anchor: "start_time" },
  "POST /v1/admin/courses": { fields: ["id", "name", "days_active"], anchor: "id" },
  "PUT /v1/admin/courses/:id": { fields: ["id", "name", "days_active"], anchor: "name" },
  "POST /v1/admin/booking-windows": { fields: ["rule_key", "start_time", "end_time"], anchor: "rule_key" },
  "PUT /v1/admin/booking-windows/:id": { fields: ["rule_key", "start_time", "end_time"], anchor: "rule_key" },
  "POST /v1/admin/frontpage-messages": { fields: ["title", "content", "is_active", "eventDate"], anchor: "title" },
  "PUT /v1/admin/frontpage-messages/:id": { fields: ["title", "content", "is_active", "eventDate"], anchor: "title" },
};
const GENERIC_HINT: Hint = { fields: ["id", "name", "value", "data"], anchor: "id" };

const ACTION_HINTS: Record<ClientAction, Hint> = {
  RUN_SCRAPER: { fields: ["force"], anchor: "force" },
  SUBMIT_BOOKING_REQUEST: { fields: SUBMISSION_FIELDS, anchor: "course" },
  CANCEL_REQUEST: { fields: ["id"], anchor: "id", bad: BAD_IDS },
  CANCEL_CONFIRMED_BOOKING: { fields: ["bookingId"], anchor: "bookingId", bad: [...UNACCEPTABLE, "", " ", "x".repeat(101), "SWB-NOBODY", "' OR 1=1 --", null, 42] },
  UPDATE_PLAYERS: { fields: ["firstName", "lastName", "type", "memberId", "cartPreference", "feePreference"], anchor: "lastName" },
};

const EXTRA_KEYS = ["extra", "__proto__", "constructor", "prototype", "", "💥", "k".repeat(500), "role", "userId", "user_id", "isAdmin"];

/** An object with the anchor made unacceptable, some real fields with odd values, and extra keys. */
function invalidObject(rng: Random, hint: Hint): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of hint.fields) if (field !== hint.anchor && rng.next() < 0.5) out[field] = rng.pick(ANY_VALUES);
  for (let i = rng.int(3); i > 0; i--) {
    const key = rng.pick(EXTRA_KEYS);
    if (key !== "__proto__") out[key] = rng.pick(ANY_VALUES);
  }
  out[hint.anchor] = rng.pick(hint.bad ?? UNACCEPTABLE);
  return out;
}

const MALFORMED_JSON = ["{", '{"a":', "[1,2", "nul", "{'single': 'quotes'}", '{"a":1,}', '{"a" 1}', "undefined", "NaN", "\u0000", "<xml/>", "a=1&b=2"];
/** JSON that is not an object. An empty list is left out: it is a valid (empty) players list. */
const NON_OBJECTS: unknown[] = [[1], ["a", {}], "text", 0, -1, 2 ** 53, 1.5, null, true, false, [[[null]]]];

interface BodyCase {
  label: string;
  rawBody: string;
  contentType?: string | null;
  origin?: string | null;
}

/** Everything sent to one route that takes a body. */
function bodyCases(rng: Random, hint: Hint): BodyCase[] {
  const cases: BodyCase[] = [];
  for (const raw of MALFORMED_JSON) cases.push({ label: `malformed ${JSON.stringify(raw.slice(0, 20))}`, rawBody: raw });
  for (const value of NON_OBJECTS) cases.push({ label: `non-object ${JSON.stringify(value)}`, rawBody: JSON.stringify(value) });
  cases.push({ label: "nested array 20000 deep", rawBody: nestedArray(20_000) });
  // Valid JSON with quirks (a byte-order mark, a lone surrogate, numbers beyond a double), each with the anchor.
  const anchored = (rest: string) => `{"${hint.anchor}":${JSON.stringify(rng.pick(hint.bad ?? UNACCEPTABLE))}${rest}}`;
  cases.push({ label: "byte-order mark", rawBody: `\uFEFF${anchored("")}` });
  cases.push({ label: "lone surrogate", rawBody: anchored(',"a":"\\ud800","b":"\\udfff\\ud800"') });
  cases.push({ label: "numbers beyond a double", rawBody: anchored(',"id":1e400,"priority":-0,"x":1e-400,"n":123456789012345678901234567890') });
  if (!hint.bad) cases.push({ label: "anchor nested 5000 deep", rawBody: `{"${hint.anchor}":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}` });
  for (let i = 0; i < 30; i++) {
    const body = invalidObject(rng, hint);
    cases.push({ label: `object ${JSON.stringify(body).slice(0, 120)}`, rawBody: JSON.stringify(body) });
  }
  const padded = (size: number) => {
    const base = JSON.stringify({ ...invalidObject(rng, hint), pad: "" });
    return base.replace('"pad":""', `"pad":"${"p".repeat(size - base.length)}"`);
  };
  cases.push({ label: "exactly the body limit", rawBody: padded(MAX_BODY_BYTES) });
  cases.push({ label: "one byte over the body limit", rawBody: padded(MAX_BODY_BYTES + 1) });
  cases.push({ label: "1 MB body", rawBody: padded(1024 * 1024) });
  cases.push({ label: "over the limit, not JSON", rawBody: "#".repeat(MAX_BODY_BYTES + 10) });
  const sample = JSON.stringify(invalidObject(rng, hint));
  for (const contentType of [
    null,
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "APPLICATION/JSON; charset=utf-16",
    "application/jsonp",
    "*/*",
  ]) {
    cases.push({ label: `content-type ${contentType}`, rawBody: sample, contentType });
  }
  for (const origin of [null, "https://evil.example", "null", "http://localhost.evil.example", "http://localhost:80"]) {
    cases.push({ label: `origin ${origin}`, rawBody: sample, origin });
  }
  return cases;
}

/** Path parameter values: very long, traversal, unicode, SQL-ish, NUL, boundary numbers. */
const ODD_PARAMS = [
  "x".repeat(3000),
  "..",
  "../../admin/users",
  "..%2F..%2Fadmin%2Fusers",
  "%00",
  "a%00b",
  "%",
  "%zz",
  "%C0%AE%C0%AE",
  "ñ日本語🏌️",
  "' OR '1'='1",
  "1;DROP TABLE users",
  "-1",
  "0",
  "9007199254740993",
  "1.5",
  "1e3",
  "NaN",
  "Infinity",
  "0x10",
  " 7",
  "null",
  "__proto__",
  "constructor",
  "2026-02-30",
  "2026-1-1",
];

const QUERIES = ["", "?_=1", `?_=${"q".repeat(8000)}`, "?__proto__[role]=admin", "?a=%00&a=%zz", "?x=' OR 1=1 --", `?${"&".repeat(2000)}`];

// ── the stored data ──────────────────────────────────────────────────────

/** Every row of every table, as sorted JSON lines. */
async function snapshotTables(t: TestApp): Promise<Record<string, string[]>> {
  const tables = await t.deps.database.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = await t.deps.database.query<Record<string, unknown>>(`SELECT * FROM "${name}"`);
    out[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

const changeCount = (t: TestApp) => changesSoFar(t.deps.database);

interface Identity {
  name: "anonymous" | "member" | "admin" | "superadmin";
  cookie?: string;
  socket?: SocketData;
}

let t: TestApp;
let identities: Identity[];
let memberBookingRef: string;
let memberRequestId: number;
let memberUserId: number;
let holidayDate: string;
let messageId: number;
let ruleId: number;
let before: Record<string, string[]>;

/** Real ids of stored rows, so some requests reach the checks behind "does it exist". */
function realParams(routeKey: string): Record<string, string> | null {
  switch (routeKey) {
    case "POST /v1/bookings/:bookingId/edit":
      return { bookingId: memberBookingRef };
    case "PUT /v1/admin/users/:id":
      return { id: String(memberUserId) };
    case "PUT /v1/admin/courses/:id":
      return { id: "masters" };
    case "PUT /v1/admin/holidays/:date":
      return { date: holidayDate };
    case "PUT /v1/admin/booking-rules/:id":
      return { id: String(ruleId) };
    case "PUT /v1/admin/booking-windows/:id":
      return { id: "1" };
    case "PUT /v1/admin/frontpage-messages/:id":
      return { id: String(messageId) };
    default:
      return null;
  }
}

/** Gives the database rows in every table the fuzz could touch. */
async function storeData(app: TestApp): Promise<void> {
  const db = app.deps.database.db;
  const now = app.clock.now();
  memberUserId = await userIdOf(app, "maria");
  const joseId = await userIdOf(app, "jose");
  await db.insert(savedPlayers).values([
    {
      userId: memberUserId,
      position: 0,
      firstName: "Paolo",
      lastName: "Santos",
      type: "Spouse",
      memberId: "SW-1001-S",
      cartPreference: "Walking",
      feePreference: "Charge to their account",
    },
    {
      userId: joseId,
      position: 0,
      firstName: "Carmen",
      lastName: "Reyes",
      type: "Spouse",
      memberId: "SW-1002-S",
      cartPreference: "Walking",
      feePreference: "Charge to their account",
    },
  ]);
  const player = { type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to their account" };
  const [request] = await db
    .insert(bookingRequests)
    .values({
      userId: memberUserId,
      courseId: "masters",
      playDate: "2026-11-30",
      selection: [{ time: "06:00", slotId: null }],
      players: [player],
      status: "pending",
      releaseAt: now + 86_400_000,
      submittedAt: now,
      updatedAt: now,
    })
    .returning({ id: bookingRequests.id });
  memberRequestId = request.id;
  memberBookingRef = "SWB-FUZZ-1";
  await db
    .insert(bookings)
    .values({ userId: memberUserId, bookingRef: memberBookingRef, courseId: "masters", playDate: "2026-11-25", time: "06:08", players: [player], createdAt: now });
  holidayDate = "2026-12-25";
  await db.insert(holidays).values({ date: holidayDate, name: "Christmas" });
  const [rule] = await db
    .insert(bookingRules)
    .values({ priority: 5, daysOfWeek: [6, 7], startTime: "05:00", endTime: "12:00", maxGuests: 2 })
    .returning({ id: bookingRules.id });
  ruleId = rule.id;
  const [message] = await db
    .insert(advisories)
    .values({ source: "internal", title: "Welcome", content: "Hello • world", createdAt: now, updatedAt: now })
    .returning({ id: advisories.id });
  messageId = message.id;
  await db.insert(advisories).values({ source: "scraped", title: "Aeration", content: "Greens slow", eventDate: "2026-12-01", createdAt: now, updatedAt: now });
  await db.insert(teeTimeSlots).values({ date: "2026-11-25", courseId: "masters", time: "06:00", status: "AVAILABLE", slotId: "MAS-1", scrapedAt: now });
  await db.insert(scrapeRuns).values({ trigger: "startup", startedAt: now - 1000, finishedAt: now, status: "ok", pages: 1 });
  await db.insert(auditLog).values({ at: now, actorUserId: memberUserId, action: "club.verify", target: "maria@southwoods.demo", outcome: "ok" });
}

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  // RUN_SCRAPER exists in the running product; here it is registered with a scraper that never
  // gets a valid request (and whose club would not answer).
  registerScraperActions(t.deps.hub, createScraper({ ...t.deps, jobs: createJobRegistry(() => t.clock.now()) }, { pause: async () => undefined }));
  await storeData(t);
  await t.createUser({ username: "alan", password: "alan-pass", role: "admin" });
  const member = await t.signIn("maria", "demo1234");
  const admin = await t.signIn("alan", "alan-pass");
  const superadmin = await t.signIn("admin", ADMIN_PASSWORD);
  const socketOf = async (cookie: string): Promise<SocketData> => {
    const session = await getSessionFromCookieHeader(t.deps, cookie);
    if (!session) throw new Error("no session for the cookie");
    return session;
  };
  identities = [
    { name: "anonymous" },
    { name: "member", cookie: member, socket: await socketOf(member) },
    { name: "admin", cookie: admin, socket: await socketOf(admin) },
    { name: "superadmin", cookie: superadmin, socket: await socketOf(superadmin) },
  ];
  before = await snapshotTables(t);
});
afterAll(() => t.close());

// ── the checks ───────────────────────────────────────────────────────────

interface Problem {
  where: string;
  what: string;
}

async function checkAnswer(res: Response, where: string, problems: Problem[]): Promise<void> {
  if (res.status >= 500) {
    problems.push({ where, what: `status ${res.status}: ${(await res.text()).slice(0, 300)}` });
    return;
  }
  if (res.status < 400) {
    await res.arrayBuffer();
    return;
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push({ where, what: `status ${res.status} without JSON: ${text.slice(0, 200)}` });
    return;
  }
  const error = body as { message?: unknown; errorKey?: unknown };
  if (typeof error.message !== "string" || typeof error.errorKey !== "string" || error.message === "" || error.errorKey === "") {
    problems.push({ where, what: `status ${res.status} answered ${text.slice(0, 200)}` });
    return;
  }
  // A refusal is told in UI text with its key, never in a validator's or a library's words.
  const wording = res.status < 500 ? wordingProblem(error) : null;
  if (wording) problems.push({ where, what: `status ${res.status} ${wording}` });
}

/** Routes whose effect does not depend on the body: with a session, only refused variants are sent. */
const SESSION_ENDING = new Set(["POST /v1/auth/logout"]);

function listRoutes(app: TestApp["app"]): { method: string; path: string; key: string }[] {
  const seen = new Map<string, { method: string; path: string; key: string }>();
  for (const route of app.routes) {
    if (!HTTP_METHODS.has(route.method) || !route.path.startsWith("/v1/")) continue;
    const key = `${route.method} ${route.path}`;
    seen.set(key, { method: route.method, path: route.path, key });
  }
  return [...seen.values()];
}

function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/:(\w+)/g, (_, name: string) => value(name));
}

function reportOf(problems: Problem[]): string[] {
  return problems.slice(0, 40).map((p) => `${p.where} → ${p.what}`);
}

describe("fuzzing every /v1 route", () => {
  test("the route table is read from the app and covers every feature", () => {
    const keys = listRoutes(t.app).map((r) => r.key);
    expect(keys.length).toBeGreaterThanOrEqual(40);
    for (const key of [
      "POST /v1/auth/login",
      "GET /v1/my/requests",
      "POST /v1/bookings/:bookingId/edit",
      "PUT /v1/my/profile",
      "DELETE /v1/admin/users/:id",
      "PUT /v1/admin/ui-text",
      "GET /v1/tee-times",
    ]) {
      expect(keys).toContain(key);
    }
  });

  test("malformed, oversized, wrongly typed and boundary inputs: no 5xx, every error is { message, errorKey }, nothing stored changes", async () => {
    const rng = createRandom(SEED);
    const problems: Problem[] = [];
    let sent = 0;
    const routes = listRoutes(t.app);

    const send = async (where: string, method: string, path: string, identity: Identity, options: Omit<BodyCase, "label"> | null) => {
      const changesBefore = await changeCount(t);
      const res = await t.call(method, path, { cookie: identity.cookie, ...(options ?? {}) });
      sent++;
      await checkAnswer(res, `${identity.name} ${where}`, problems);
      if ((await changeCount(t)) !== changesBefore) problems.push({ where: `${identity.name} ${where}`, what: `changed stored data (status ${res.status})` });
    };

    for (const route of routes) {
      const hint = HINTS[route.key] ?? GENERIC_HINT;
      const hasBody = route.method === "POST" || route.method === "PUT" || route.method === "PATCH";
      const hasParams = route.path.includes(":");
      const cases = hasBody ? bodyCases(rng, hint) : [];
      for (const identity of identities) {
        const isSessionEnding = SESSION_ENDING.has(route.key) && identity.cookie !== undefined;
        // Bodies, on the route's real path (a stored row's id where there is one) or an odd one.
        if (hasBody) {
          const real = realParams(route.key);
          for (const c of cases) {
            const isRefusedByMiddleware = c.origin !== undefined || (c.contentType !== undefined && !/^application\/json/i.test(c.contentType ?? ""));
            if (isSessionEnding && !isRefusedByMiddleware) continue;
            const path = fillPath(route.path, (name) => (real?.[name] ? encodeURIComponent(real[name]) : encodeURIComponent(rng.pick(ODD_PARAMS))));
            await send(`${route.key} [${c.label}]`, route.method, path, identity, { rawBody: c.rawBody, contentType: c.contentType, origin: c.origin });
          }
        }
        // Odd path parameters, raw and encoded, with a minimal invalid body.
        if (hasParams) {
          for (const value of ODD_PARAMS) {
            for (const encode of [true, false]) {
              const path = fillPath(route.path, () => (encode ? encodeURIComponent(value) : value));
              const body = hasBody ? { rawBody: JSON.stringify(invalidObject(rng, hint)) } : null;
              await send(`${route.method} ${path.slice(0, 120)}`, route.method, path, identity, body);
            }
          }
        }
        // Queries (the cache-busting query and worse) on reads.
        if (route.method === "GET") {
          for (const query of QUERIES) {
            const path = fillPath(route.path, () => encodeURIComponent(rng.pick(ODD_PARAMS)));
            await send(`${route.key}${query.slice(0, 40)}`, route.method, `${path}${query}`, identity, null);
          }
        }
      }
    }

    // Forged and broken session cookies are treated as no session.
    for (const cookie of [
      "teebox_session=",
      "teebox_session=garbage",
      `teebox_session=${"a".repeat(5000)}`,
      "teebox_session=eyJhbGciOiJub25lIn0.eyJzaWQiOiIxIn0.",
      "teebox_session=%00; teebox_session=x",
      "teebox_session=%",
      "teebox_session=%E0%A4%A",
    ]) {
      for (const path of ["/v1/my/players", "/v1/admin/users", "/v1/auth/status"]) {
        const res = await t.call("GET", path, { cookie });
        sent++;
        await checkAnswer(res, `cookie ${cookie.slice(0, 40)} GET ${path}`, problems);
        if (path !== "/v1/auth/status") expect(res.status).toBe(401);
      }
    }
    // Unknown paths and methods under /v1.
    for (const [method, path] of [
      ["GET", "/v1"],
      ["GET", "/v1/"],
      ["PATCH", "/v1/my/profile"],
      ["DELETE", "/v1/my/players"],
      ["GET", "/v1/admin"],
      ["GET", "/v1/%2e%2e/healthz"],
      ["OPTIONS", "/v1/auth/login"],
      ["GET", `/v1/${"deep/".repeat(500)}`],
    ]) {
      for (const identity of identities) await send(`${method} ${path.slice(0, 60)}`, method, path, identity, method === "GET" || method === "OPTIONS" ? null : { rawBody: "{}" });
    }

    expect(reportOf(problems)).toEqual([]);
    expect(sent).toBeGreaterThan(3000);
    expect(await snapshotTables(t)).toEqual(before);
  }, 60_000);

  test("the app keeps answering, and every session still works", async () => {
    const health = await t.app.request(`${ORIGIN}/healthz`);
    expect(health.status).toBe(200);
    for (const identity of identities.slice(1)) {
      const res = await t.call("GET", "/v1/auth/status", { cookie: identity.cookie });
      expect(res.status).toBe(200);
      expect((await res.json()).isAuthenticated).toBe(true);
    }
    const member = identities[1];
    expect(await (await t.call("GET", "/v1/my/players", { cookie: member.cookie })).json()).toHaveLength(1);
  });
});

// ── socket actions ───────────────────────────────────────────────────────

/** Envelopes the hub must refuse before any action runs. */
const BAD_ENVELOPES = [
  "",
  " ",
  "{",
  "null",
  "[]",
  "42",
  '"RUN_SCRAPER"',
  "{}",
  '{"action":"DROP_TABLES"}',
  '{"action":null}',
  '{"action":"run_scraper"}',
  '{"action":"__proto__"}',
  '{"action":"constructor"}',
  '{"action":"toString"}',
  '{"action":["RUN_SCRAPER"]}',
  '{"action":"CANCEL_REQUEST","payload":{"id":1},"requestId":{}}',
  `{"action":"CANCEL_REQUEST","payload":{"id":1},"requestId":"${"r".repeat(65)}"}`,
  '{"action":"CANCEL_REQUEST","payload":{"id":1},"requestId":7}',
  `{"action":"UPDATE_PLAYERS","payload":[],"pad":"${"p".repeat(70_000)}"}`,
  "\uFEFF{}",
  nestedArray(30_000).slice(0, 60_000),
  `{"action":"UPDATE_PLAYERS","payload":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`,
];

/** Payloads each action must refuse (undefined, null and {} are RUN_SCRAPER's valid ones; [] UPDATE_PLAYERS'). */
function actionPayloads(rng: Random, action: ClientAction): unknown[] {
  const hint = ACTION_HINTS[action];
  const out: unknown[] = [...NON_OBJECTS.filter((v) => !(action === "RUN_SCRAPER" && v === null)), "x".repeat(60_000)];
  if (action !== "RUN_SCRAPER") out.push(undefined, {});
  for (let i = 0; i < 14; i++) {
    const object = invalidObject(rng, hint);
    if (action === "UPDATE_PLAYERS") {
      // A list with a broken player somewhere, or too many players.
      const good = { firstName: "Luis", lastName: "Garcia", type: "Member", memberId: "SW-1004", cartPreference: "Walking", feePreference: "Charge to their account" };
      out.push(i === 0 ? Array.from({ length: 101 }, (_, n) => ({ ...good, memberId: `SW-${n}` })) : [good, object].slice(i % 2));
    } else {
      out.push(object);
    }
  }
  if (action === "SUBMIT_BOOKING_REQUEST") {
    const base = { course: "masters", targetDate: "2026-11-30", selectionOrder: [{ time: "06:00", slotId: null }], memberCartType: "Walking", playerDetails: { players: [] } };
    for (const editTarget of BAD_IDS) out.push({ ...base, editTarget, course: rng.pick(UNACCEPTABLE) });
    out.push({ ...base, targetDate: rng.pick(UNACCEPTABLE) }, { ...base, selectionOrder: Array.from({ length: 41 }, () => ({ time: "06:00" })) });
    out.push({ ...base, playerDetails: { players: Array.from({ length: 9 }, () => ({ type: "Guest" })) } }, { ...base, memberCartType: "c".repeat(101) });
  }
  return out;
}

describe("fuzzing every socket action", () => {
  test("bad envelopes and bad payloads are answered with an error, never common.unexpected, and change nothing", async () => {
    const rng = createRandom(SEED + 1);
    const problems: Problem[] = [];
    let dispatched = 0;
    const snapshot = await snapshotTables(t);
    const publishedBefore = t.published.length;

    const dispatch = async (identity: Identity, raw: string, where: string) => {
      const replies: ServerMessage[] = [];
      const changesBefore = await changeCount(t);
      await t.deps.hub.dispatch(identity.socket as SocketData, raw, (m) => replies.push(m));
      dispatched++;
      const label = `${identity.name} ${where}`;
      if (replies.length === 0) problems.push({ where: label, what: "no answer" });
      for (const reply of replies) {
        if (reply.type !== "error") problems.push({ where: label, what: `accepted: ${JSON.stringify(reply).slice(0, 200)}` });
        else if (reply.errorKey === "common.unexpected" || !reply.errorKey || !reply.message) problems.push({ where: label, what: JSON.stringify(reply) });
        else if (wordingProblem(reply)) problems.push({ where: label, what: wordingProblem(reply)! });
      }
      if ((await changeCount(t)) !== changesBefore) problems.push({ where: label, what: "changed stored data" });
    };

    for (const identity of identities.filter((i) => i.socket)) {
      for (const raw of BAD_ENVELOPES) await dispatch(identity, raw, `envelope ${JSON.stringify(raw.slice(0, 60))}`);
      for (const action of CLIENT_ACTIONS) {
        for (const payload of actionPayloads(rng, action)) {
          const raw = JSON.stringify(payload === undefined ? { action, requestId: "fuzz" } : { action, payload, requestId: "fuzz" });
          await dispatch(identity, raw, `${action} ${(JSON.stringify(payload) ?? "undefined").slice(0, 120)}`);
        }
      }
    }
    // The member's own rows by the wrong shape of id.
    const member = identities[1];
    for (const id of [String(memberRequestId), `${memberRequestId}.5`, -memberRequestId, [memberRequestId, memberRequestId]]) {
      await dispatch(member, JSON.stringify({ action: "CANCEL_REQUEST", payload: { id: typeof id === "string" ? { id } : id } }), `CANCEL_REQUEST own id as ${JSON.stringify(id)}`);
    }
    await dispatch(member, JSON.stringify({ action: "CANCEL_CONFIRMED_BOOKING", payload: { bookingId: [memberBookingRef] } }), "CANCEL_CONFIRMED_BOOKING own ref in a list");

    expect(reportOf(problems)).toEqual([]);
    expect(dispatched).toBeGreaterThan(300);
    // Nothing was announced to anyone: no action got far enough to change or publish anything.
    expect(t.published.slice(publishedBefore)).toEqual([]);
    expect(await snapshotTables(t)).toEqual(snapshot);
  }, 30_000);
});

// ── schema-valid inputs with odd values ──────────────────────────────────

const COURSE_NAMES = ["masters", "legends", "MASTERS", " Masters ", "", "x", "__proto__", "constructor", "toString", "' OR 1=1 --", "ñ"];
const PLAY_DATES = [
  "2026-11-30",
  "2026-11-27",
  "2026-11-22",
  "2026-11-21",
  "2026-12-31",
  "2027-11-30",
  "2026-02-30",
  "2026-13-01",
  "9999-12-31",
  "0000-01-01",
  "2026-1-1",
  "",
  " ",
  "2026-11-30T06:00",
  "+275760-09-13",
  "Monday Nov 30, 2026",
];
const TEE_TIMES = ["06:00", "06:08", "05:04", "16:48", "16:56", "11:00", "00:00", "23:59", "24:00", "6:00", "06:60", "99:99", "", " 06:00 ", "06:00:00", "-1:00", "０６:００"];
const PLAYER_TYPE_NAMES = ["Member", "Spouse", "Dependent", "Guest", "Senior Care", "guest", "", "Admin", "constructor", "__proto__"];
const OPTION_NAMES = ["Walking", "Rental Cart - Solo", "Charge my guest", "Charge to their account", "Charge to my account", "", " ", "No Such Option", "__proto__"];
const PERSON_TEXTS = [
  "Luis",
  "Garcia",
  "",
  " ",
  "x".repeat(100),
  "ñandú",
  "O'Brien",
  "' OR 1=1 --",
  "Santos",
  "Maria Santos",
  "SW-1001",
  "sw-1001",
  "SW-1004",
  "SW-1002-S",
  "0000",
  "\u0000",
  "Luis.",
];

function oddChoice(rng: Random): Record<string, true> {
  const roll = rng.int(4);
  if (roll === 0) return {};
  if (roll === 1) return { [rng.pick(OPTION_NAMES)]: true, [rng.pick(OPTION_NAMES)]: true };
  return { [rng.pick(OPTION_NAMES)]: true };
}

/** Mostly a plausible value, sometimes an odd one: enough inputs get past the first checks. */
const mostly = <T>(rng: Random, plausible: readonly T[], odd: readonly T[]): T => (rng.next() < 0.75 ? rng.pick(plausible) : rng.pick(odd));

/** A booking submission that passes the payload schema, with odd values for the domain to judge. */
function oddSubmission(rng: Random, editTargets: number[]): Record<string, unknown> {
  const players = Array.from({ length: rng.int(rng.next() < 0.7 ? 3 : 9) }, () => {
    const isGuest = rng.next() < 0.5;
    const player: Record<string, unknown> = {
      type: mostly(rng, isGuest ? ["Guest", "Senior Care"] : ["Member", "Spouse"], PLAYER_TYPE_NAMES),
      cartType: rng.next() < 0.75 ? { Walking: true } : oddChoice(rng),
      chargeFeesTo: rng.next() < 0.75 ? { [isGuest ? "Charge my guest" : "Charge to their account"]: true } : oddChoice(rng),
    };
    if (isGuest) Object.assign(player, { firstName: mostly(rng, ["Gina", "Tom"], PERSON_TEXTS), lastName: mostly(rng, ["Guest", "Ong"], PERSON_TEXTS) });
    else Object.assign(player, { searchLastName: mostly(rng, ["Garcia", "Lim"], PERSON_TEXTS), searchIdNumber: mostly(rng, ["SW-1004", "SW-1005"], PERSON_TEXTS) });
    for (const field of ["firstName", "lastName", "searchLastName", "searchIdNumber"]) if (rng.next() < 0.1) player[field] = rng.pick(PERSON_TEXTS);
    return player;
  });
  const times = [...new Set(Array.from({ length: 1 + rng.int(4) }, () => mostly(rng, ["06:00", "06:08", "07:16", "11:00", "14:32"], TEE_TIMES)))];
  const submission: Record<string, unknown> = {
    course: mostly(rng, ["masters", "legends"], COURSE_NAMES),
    targetDate: mostly(rng, ["2026-11-27", "2026-11-28", "2026-11-30", "2026-12-01"], PLAY_DATES),
    selectionOrder: (rng.next() < 0.1 ? [] : times).map((time) => ({ time, ...(rng.next() < 0.3 ? { slotId: rng.pick([null, "", "MAS-1", "x".repeat(100)]) } : {}) })),
    memberCartType: mostly(rng, ["Walking", "Rental Cart - Solo"], OPTION_NAMES),
    playerDetails: { players },
  };
  if (rng.next() < 0.3) submission.editTarget = rng.pick(editTargets);
  return submission;
}

function oddSavedPlayer(rng: Random) {
  return {
    firstName: rng.pick(PERSON_TEXTS),
    lastName: rng.pick(PERSON_TEXTS),
    type: rng.pick(PLAYER_TYPE_NAMES),
    memberId: rng.pick(PERSON_TEXTS),
    cartPreference: rng.pick(OPTION_NAMES),
    feePreference: rng.pick(OPTION_NAMES),
  };
}

describe("schema-valid inputs with odd values", () => {
  test("reach the domain checks and are refused there with their own keys, never a 5xx, changing nothing", async () => {
    const rng = createRandom(SEED + 2);
    // A member without a club login: a submission the domain accepts is still refused
    // ('connect your club account'), so every domain check runs without anything being stored.
    const noLoginId = await t.createUser({ username: "nolo", password: "nolo-pass" });
    const cookie = await t.signIn("nolo", "nolo-pass");
    const socket = await getSessionFromCookieHeader(t.deps, cookie);
    if (!socket) throw new Error("no session");
    const now = t.clock.now();
    const player = { type: "Member", firstName: "No", lastName: "Login", memberId: "SW-7777", cart: "Walking", fee: "" };
    await t.deps.database.db
      .insert(bookings)
      .values({ userId: noLoginId, bookingRef: "SWB-NOLO-1", courseId: "masters", playDate: "2026-11-27", time: "06:00", players: [player], createdAt: now });
    const [own] = await t.deps.database.db
      .insert(bookingRequests)
      .values({
        userId: noLoginId,
        courseId: "masters",
        playDate: "2026-11-30",
        selection: [{ time: "06:00", slotId: null }],
        players: [player],
        status: "pending",
        releaseAt: now + 86_400_000,
        submittedAt: now,
        updatedAt: now,
      })
      .returning({ id: bookingRequests.id });
    const snapshot = await snapshotTables(t);
    const problems: Problem[] = [];
    const keys = new Map<string, number>();
    const count = (key: string) => keys.set(key, (keys.get(key) ?? 0) + 1);
    const unchanged = async (where: string, task: () => Promise<void>) => {
      const changesBefore = await changeCount(t);
      await task();
      if ((await changeCount(t)) !== changesBefore) problems.push({ where, what: "changed stored data" });
    };

    for (let i = 0; i < 300; i++) {
      const payload = oddSubmission(rng, [own.id, memberRequestId, 1, 2 ** 31]);
      const where = `SUBMIT_BOOKING_REQUEST ${JSON.stringify(payload).slice(0, 200)}`;
      await unchanged(where, async () => {
        const replies: ServerMessage[] = [];
        await t.deps.hub.dispatch(socket, JSON.stringify({ action: "SUBMIT_BOOKING_REQUEST", payload }), (m) => replies.push(m));
        const [reply] = replies;
        if (replies.length !== 1 || reply.type !== "error" || !reply.errorKey || reply.errorKey === "common.unexpected") problems.push({ where, what: JSON.stringify(replies) });
        else if (wordingProblem(reply)) problems.push({ where, what: wordingProblem(reply)! });
        else count(reply.errorKey);
      });
    }
    for (let i = 0; i < 100; i++) {
      const payload = oddSubmission(rng, [own.id]);
      const where = `POST edit ${JSON.stringify(payload).slice(0, 200)}`;
      await unchanged(where, async () => {
        const res = await t.call("POST", "/v1/bookings/SWB-NOLO-1/edit", { cookie, body: payload });
        await checkAnswer(res.clone(), where, problems);
        if (res.status < 400) problems.push({ where, what: `accepted with ${res.status}` });
        else count(`edit ${(await res.json()).errorKey}`);
      });
    }
    // A saved players list ending with a player whose cart is not offered, so no list is accepted.
    const notOffered = { firstName: "Zed", lastName: "Zulu", type: "Guest", memberId: "", cartPreference: "No Such Cart", feePreference: "Charge my guest" };
    for (let i = 0; i < 100; i++) {
      const list = [...Array.from({ length: rng.int(5) }, () => oddSavedPlayer(rng)), notOffered];
      const where = `UPDATE_PLAYERS ${JSON.stringify(list).slice(0, 200)}`;
      await unchanged(where, async () => {
        const replies: ServerMessage[] = [];
        await t.deps.hub.dispatch(socket, JSON.stringify({ action: "UPDATE_PLAYERS", payload: list }), (m) => replies.push(m));
        const [reply] = replies;
        if (replies.length !== 1 || reply.type !== "error" || !reply.errorKey || reply.errorKey === "common.unexpected") problems.push({ where, what: JSON.stringify(replies) });
        else if (wordingProblem(reply)) problems.push({ where, what: wordingProblem(reply)! });
        else count(`players ${reply.errorKey}`);
      });
    }
    // Profiles whose member fee is not offered, so none is saved (and the club is never asked).
    for (let i = 0; i < 100; i++) {
      const body = {
        name: rng.pick(PERSON_TEXTS),
        memberId: rng.pick(PERSON_TEXTS),
        southwoods_email: rng.pick(["nolo@southwoods.demo", "", "a@b", "x@y.z", "' OR 1=1 --@x.com", "ñ@ñ.ph", " nolo@southwoods.demo "]),
        ...(rng.next() < 0.5 ? { golf_password: rng.pick(["", " ", "club-pass"]) } : {}),
        defaultCartType: rng.pick(OPTION_NAMES),
        defaultFeeGuest: rng.pick(OPTION_NAMES),
        defaultFeeMember: "No Such Fee",
      };
      const where = `PUT profile ${JSON.stringify(body).slice(0, 200)}`;
      await unchanged(where, async () => {
        const res = await t.call("PUT", "/v1/my/profile", { cookie, body });
        await checkAnswer(res.clone(), where, problems);
        if (res.status < 400) problems.push({ where, what: `accepted with ${res.status}` });
        else count(`profile ${(await res.json()).errorKey}`);
      });
    }

    expect(reportOf(problems)).toEqual([]);
    // The inputs went deep: many different checks answered, some only after every domain check passed.
    expect(keys.size).toBeGreaterThanOrEqual(15);
    expect(keys.get("club.no_login") ?? 0).toBeGreaterThan(10);
    expect(keys.get("edit club.no_login") ?? 0).toBeGreaterThan(3);
    expect(await snapshotTables(t)).toEqual(snapshot);
  }, 30_000);
});

// ── the real server ──────────────────────────────────────────────────────

describe("the running server", () => {
  let server: HttpServer;
  beforeAll(() => {
    const page = new TextEncoder().encode("<!doctype html><title>Teebox</title>");
    const web: WebAssets = new Map([["/index.html", { body: page, gzip: null, contentType: "text/html", isImmutable: false }]]);
    server = startHttpServer({ app: t.app, deps: t.deps, web, port: 0, host: "127.0.0.1" });
  });
  afterAll(() => server.closeConnections());

  test("oversized, streamed and odd requests over real HTTP are answered with JSON errors", async () => {
    const member = identities[1];
    const headers = { origin: server.url, "content-type": "application/json", cookie: member.cookie as string };
    const problems: Problem[] = [];
    const big = JSON.stringify({ level: {}, message: "m".repeat(2 * 1024 * 1024) });
    const streamed = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"username":{},"p":"' : "s".repeat(4096)));
          controller.close();
        },
      });
    const requests: [string, string, RequestInit][] = [
      ["2 MB body", "/v1/client/log", { method: "POST", headers, body: big }],
      ["streamed body without a length", "/v1/auth/login", { method: "POST", headers, body: streamed(), duplex: "half" } as RequestInit],
      ["bad percent-encoding in the path", "/v1/admin/courses/%E0%A4%A", { method: "PUT", headers, body: '{"name":{}}' }],
      ["long path", `/v1/my/${"p".repeat(8000)}`, { method: "GET", headers }],
      ["long cookie", "/v1/my/players", { method: "GET", headers: { ...headers, cookie: `teebox_session=${"k".repeat(7000)}` } }],
      ["odd method", "/v1/my/players", { method: "PROPFIND", headers }],
    ];
    for (const [label, path, init] of requests) await checkAnswer(await fetch(`${server.url}${path}`, init), label, problems);
    expect(reportOf(problems)).toEqual([]);
  });

  test("refuses anonymous and cross-site upgrades, answers every bad frame, and stays up", async () => {
    const wsUrl = `${server.url.replace("http:", "ws:")}/v1/ws`;
    const member = identities[1];
    const anonymous = await fetch(`${server.url}/v1/ws`, {
      headers: { origin: server.url, upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" },
    });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).errorKey).toBe("auth.required");
    for (const cookie of ["teebox_session=%", "teebox_session=%E0%A4%A", "teebox_session=garbage", `teebox_session=${"c".repeat(4000)}`]) {
      const forged = await fetch(`${server.url}/v1/ws`, { headers: { origin: server.url, cookie } });
      expect(forged.status).toBe(401);
      expect((await forged.json()).errorKey).toBe("auth.required");
    }
    const crossSite = await fetch(`${server.url}/v1/ws`, { headers: { origin: "https://evil.example", cookie: member.cookie as string } });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).errorKey).toBe("request.bad_origin");

    const snapshot = await snapshotTables(t);
    const ws = new WebSocket(wsUrl, { headers: { origin: server.url, cookie: member.cookie as string } } as unknown as string[]);
    const answers: ServerMessage[] = [];
    const opened = new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("socket error"));
    });
    const frames: (string | Uint8Array<ArrayBuffer>)[] = [...BAD_ENVELOPES.filter((f) => f !== ""), new Uint8Array([0xff, 0xfe, 0x00, 0x7b]), new Uint8Array(70_000).fill(0x7b)];
    let answered: () => void = () => undefined;
    const allAnswered = new Promise<void>((resolve) => (answered = resolve));
    ws.onmessage = (event) => {
      answers.push(JSON.parse(String(event.data)));
      if (answers.length === frames.length) answered();
    };
    await opened;
    for (const frame of frames) ws.send(frame);
    await allAnswered;
    expect(answers.every((a) => a.type === "error" && a.errorKey !== "common.unexpected")).toBe(true);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();

    const status = await fetch(`${server.url}/v1/auth/status`, { headers: { cookie: member.cookie as string } });
    expect((await status.json()).isAuthenticated).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await snapshotTables(t)).toEqual(snapshot);
    expect(await resolveSession(t.deps, (identities[1].socket as SocketData).sessionId)).not.toBeNull();
  });
});
