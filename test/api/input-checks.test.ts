/**
 * Every input checked on the server: booking submissions against the form options, the dates and
 * times Teebox offers and the member's other requests; one length per stored text; booleans as
 * forms send them; app settings saved key by key.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { advisories, bookingRequests, users } from "../../src/db/schema.ts";
import { TEXT_LIMITS } from "../../src/domain/text-limits.ts";
import { DEFAULT_SETTINGS, SPEC_SETTING_KEYS } from "../../src/domain/settings.ts";
import { readSettings } from "../../src/services/settings.service.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

/** TEST_NOW is Sunday 2026-11-22 09:00 Manila. */
const TODAY = "2026-11-22";
const PLAY = "2026-11-30";

let f: ReleaseFixture | null = null;
let t: TestApp | null = null;
afterEach(async () => {
  await f?.close();
  await t?.close();
  f = null;
  t = null;
});

const guest = (fields: Record<string, unknown> = {}) => ({
  type: "Guest",
  cartType: { Walking: true },
  chargeFeesTo: { "Charge my guest": true },
  firstName: "Gio",
  lastName: "Guest",
  ...fields,
});

async function errorOf(fx: ReleaseFixture, payload: unknown) {
  const answer = await fx.submit("maria", payload);
  return answer.type === "error" ? { errorKey: answer.errorKey, message: answer.message } : { type: answer.type };
}

describe("booking submissions", () => {
  test("player type, cart and fee must be options of the form-options list", async () => {
    f = await startReleaseFixture({ startEngine: false });
    expect(await errorOf(f, submission(PLAY, ["06:00"], "masters", [guest({ type: "Caddie" })]))).toEqual({
      errorKey: "booking.invalid_option",
      message: "'Caddie' is not one of the choices for player type.",
    });
    expect((await errorOf(f, submission(PLAY, ["06:00"], "masters", [guest({ cartType: { "Golf Kart": true } })]))).errorKey).toBe("booking.invalid_option");
    // A guest's fee comes from the guest list, not the member list.
    expect((await errorOf(f, submission(PLAY, ["06:00"], "masters", [guest({ chargeFeesTo: { "Charge to their account": true } })]))).errorKey).toBe("booking.invalid_option");
    expect((await errorOf(f, { ...submission(PLAY, ["06:00"]), memberCartType: "Hovercraft" })).errorKey).toBe("booking.invalid_option");
    expect(await f.t.deps.database.db.select().from(bookingRequests)).toHaveLength(0);
  });

  test("the play date is within the dates Teebox offers, and today's passed times are refused", async () => {
    f = await startReleaseFixture({ startEngine: false });
    expect((await errorOf(f, submission("2026-11-21", ["06:00"]))).errorKey).toBe("booking.date_past");
    expect((await errorOf(f, submission("2027-01-30", ["06:00"]))).errorKey).toBe("booking.date_not_bookable");
    // The picker offers 14 dates from today (2026-11-22 … 2026-12-05): the day after is not one of them.
    expect((await errorOf(f, submission("2026-12-06", ["06:00"], "legends"))).errorKey).toBe("booking.date_not_bookable");
    const past = await errorOf(f, submission(TODAY, ["08:48"], "legends"));
    expect(past).toEqual({ errorKey: "booking.time_past", message: "The tee time 08:48 has already passed today." });
    // One passed time among later ones is refused too: the member sees which.
    expect((await errorOf(f, submission(TODAY, ["10:00", "08:40"], "legends"))).errorKey).toBe("booking.time_past");
    expect(await f.t.deps.database.db.select().from(bookingRequests)).toHaveLength(0);
    // The last date offered is bookable.
    expect((await errorOf(f, submission("2026-12-05", ["06:00"], "masters"))).type).toBe("submissionResult");
  });

  test("an identical request (same date, course and first time) is refused with a clear message", async () => {
    f = await startReleaseFixture({ startEngine: false });
    expect((await f.submit("maria", submission(PLAY, ["06:00", "06:08"]))).type).toBe("submissionResult");
    expect(await errorOf(f, submission(PLAY, ["06:00"]))).toEqual({
      errorKey: "booking.duplicate_request",
      message: "You already have a request for 2026-11-30 at 06:00 on this course.",
    });
    // Another first time is another request.
    expect((await f.submit("maria", submission(PLAY, ["06:08"]))).type).toBe("submissionResult");
    // Editing the request itself is not a duplicate of itself.
    const [first] = await f.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.playDate, PLAY));
    expect((await f.submit("maria", { ...submission(PLAY, ["06:00", "06:16"]), editTarget: first!.id })).type).toBe("submissionResult");
  });

  test("a member has a bounded number of open requests (an app setting)", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const settings = await readSettings(f.t.deps.database.db);
    expect(settings.max_open_requests).toBe(10);
    const admin = await f.t.signIn("admin", ADMIN_PASSWORD);
    const saved = await f.t.call("PUT", "/v1/admin/app-settings", { cookie: admin, body: { ...settings, max_open_requests: 2 } });
    expect(saved.status).toBe(200);
    expect((await f.submit("maria", submission(PLAY, ["06:00"]))).type).toBe("submissionResult");
    expect((await f.submit("maria", submission(PLAY, ["06:08"]))).type).toBe("submissionResult");
    expect(await errorOf(f, submission(PLAY, ["06:16"]))).toEqual({
      errorKey: "booking.too_many_open",
      message: "You can have at most 2 open requests. Cancel one or wait for it to be processed.",
    });
    // Another member has their own allowance.
    expect((await f.submit("jose", submission(PLAY, ["06:16"]))).type).toBe("submissionResult");
  });
});

describe("lengths, booleans and settings from admin forms", () => {
  async function admin() {
    t = await createTestApp();
    const cookie = await t.signIn("admin", ADMIN_PASSWORD);
    const app = t;
    return (method: string, path: string, body?: unknown) => app.call(method, path, { cookie, body });
  }
  async function expectError(res: Response, status: number, message: string) {
    const body = await res.json();
    expect({ status: res.status, message: body.message }).toEqual({ status, message });
    expect(typeof body.errorKey).toBe("string");
  }

  test("over the limit is 'too long' with the limit, never 'required'", async () => {
    const send = await admin();
    await expectError(
      await send("POST", "/v1/admin/courses", { id: "palms", name: "P".repeat(TEXT_LIMITS.courseName + 1), days_active: [1] }),
      400,
      "Name must be at most 100 characters.",
    );
    await expectError(await send("POST", "/v1/admin/frontpage-messages", { title: "T".repeat(201), content: "c", is_active: true }), 400, "Title must be at most 200 characters.");
    await expectError(
      await send("POST", "/v1/admin/frontpage-messages", { title: "t", content: "C".repeat(5001), is_active: true }),
      400,
      "Content must be at most 5000 characters.",
    );
    await expectError(await send("POST", "/v1/admin/holidays", { date: "2026-12-25", name: "H".repeat(101) }), 400, "Name must be at most 100 characters.");
  });

  test("a name an admin may save can be saved back by its member, and the limit is the same on both forms", async () => {
    const send = await admin();
    const app = t!;
    const id = await app.createUser({ username: "maria", password: "maria-pass-1" });
    await expectError(await send("PUT", `/v1/admin/users/${id}`, { name: "N".repeat(TEXT_LIMITS.userName + 1) }), 400, "Name must be at most 100 characters.");
    const longest = "N".repeat(TEXT_LIMITS.userName);
    expect((await send("PUT", `/v1/admin/users/${id}`, { name: longest, memberId: "M".repeat(TEXT_LIMITS.memberId) })).status).toBe(200);
    const cookie = await app.signIn("maria", "maria-pass-1");
    const [row] = await app.deps.database.db.select().from(users).where(eq(users.id, id));
    const profile = {
      name: row!.name,
      memberId: row!.memberId,
      southwoods_email: "maria@southwoods.demo",
      defaultCartType: "Walking",
      defaultFeeGuest: "Charge my guest",
      defaultFeeMember: "Charge to their account",
    };
    const own = await app.call("PUT", "/v1/my/profile", { cookie, body: profile });
    expect(own.status).toBe(200);
    const tooLong = await app.call("PUT", "/v1/my/profile", { cookie, body: { ...profile, name: `${longest}N` } });
    expect(await tooLong.json()).toEqual({ message: "Full name must be at most 100 characters.", errorKey: "profile.name_too_long" });
  });

  test("'false', '0', 'off' and false all mean false; nonsense is refused", async () => {
    const send = await admin();
    for (const value of ["false", "0", "off", false, "FALSE ", 0]) {
      const res = await send("POST", "/v1/admin/frontpage-messages", { title: `hidden ${String(value)}`, content: "c", is_active: value });
      expect({ value, status: res.status }).toEqual({ value, status: 201 });
      const { id } = await res.json();
      const [row] = await t!.deps.database.db.select().from(advisories).where(eq(advisories.id, id));
      expect({ value, active: row!.isActive }).toEqual({ value, active: false });
    }
    for (const value of ["true", "1", "on", true]) {
      const res = await send("POST", "/v1/admin/frontpage-messages", { title: `shown ${String(value)}`, content: "c", is_active: value });
      expect((await res.json()).is_active).toBe(true);
    }
    await expectError(await send("POST", "/v1/admin/frontpage-messages", { title: "t", content: "c", is_active: "maybe" }), 400, "is_active must be true or false.");
    const rule = { priority: 10, days_of_week: [1], start_time: "05:00", end_time: "17:00", min_players: 1, max_players: 4, max_guests: 3 };
    const created = await send("POST", "/v1/admin/booking-rules", { ...rule, applies_on_holidays: "false" });
    expect(created.status).toBe(201);
    expect((await created.json()).applies_on_holidays).toBe(false);
  });

  test("app settings: exactly the product's keys are accepted, other keys keep their value, an emptied number is refused", async () => {
    const send = await admin();
    const specOnly = Object.fromEntries(SPEC_SETTING_KEYS.map((key) => [key, DEFAULT_SETTINGS[key]]));
    await t!.deps.database.execute("UPDATE app_settings SET value = 'admin' WHERE key = 'scraper_username'");
    const saved = await send("PUT", "/v1/admin/app-settings", { ...specOnly, release_days_before: 5 });
    expect(saved.status).toBe(200);
    const stored = await readSettings(t!.deps.database.db);
    expect(stored).toMatchObject({ release_days_before: 5, scraper_username: "admin", max_open_requests: 10 });
    for (const empty of ["", "  ", null]) {
      const res = await send("PUT", "/v1/admin/app-settings", { ...specOnly, ui_date_range_days: empty });
      expect(await res.json()).toEqual({ message: "ui_date_range_days needs a number.", errorKey: "settings.number_required" });
    }
    expect((await readSettings(t!.deps.database.db)).ui_date_range_days).toBe(DEFAULT_SETTINGS.ui_date_range_days);
    // Numbers as their text are converted; an original key cannot be left out.
    expect((await send("PUT", "/v1/admin/app-settings", { ...specOnly, ui_date_range_days: "21" })).status).toBe(200);
    expect((await readSettings(t!.deps.database.db)).ui_date_range_days).toBe(21);
    const { log_level: _omitted, ...withoutLogLevel } = specOnly;
    await expectError(await send("PUT", "/v1/admin/app-settings", withoutLogLevel), 400, "log_level is missing: send every setting.");
    await expectError(await send("PUT", "/v1/admin/app-settings", { ...specOnly, colour: "red" }), 400, "colour is not a setting.");
  });
});
