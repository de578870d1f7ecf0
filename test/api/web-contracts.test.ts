/**
 * The web app's schemas against the real server: every answer the web app reads, produced by the
 * routes over a fresh database (demo data seeded), must pass the schema the web app checks it with.
 * A server change the web app cannot read fails here, not in a member's browser.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { adminSettingsSchema, adminUsersResponseSchema, fullConfigSchema, systemStatsSchema } from "../../src/features/admin/admin.schemas.ts";
import { authStatusSchema, userResponseSchema } from "../../src/features/auth/auth-responses.schemas.ts";
import { advisoriesResponseSchema, datesResponseSchema, rulesResponseSchema, teeTimesResponseSchema } from "../../src/features/availability/availability.schemas.ts";
import { bookingsResponseSchema, requestsResponseSchema } from "../../src/features/bookings/bookings-responses.schemas.ts";
import { watchesResponseSchema } from "../../src/features/watches/watches.schemas.ts";
import { clubStatusSchema } from "../../src/features/club/club.schemas.ts";
import { savedPlayersResponseSchema } from "../../src/features/players/players-responses.schemas.ts";
import {
  markReadResponseSchema,
  notificationSettingsSchema,
  notificationsResponseSchema,
  outboxResponseSchema,
} from "../../src/features/notifications/notifications-responses.schemas.ts";
import { formOptionsResponseSchema, uiTextResponseSchema } from "../../src/features/system/system.schemas.ts";
import { pushStatusSchema } from "../../src/features/push/push.schemas.ts";
import { apiPaths } from "../../web/lib/api-paths.ts";
import type { ResponseSchema } from "../../web/lib/api.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

let t: TestApp;
let admin: string;
let member: string;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  admin = await t.signIn("admin", ADMIN_PASSWORD);
  await t.createUser({ username: "mia", password: "mia-pass-1" });
  member = await t.signIn("mia", "mia-pass-1");
});

afterAll(async () => {
  await t.close();
});

async function answerOf(method: string, path: string, cookie: string, body?: unknown): Promise<unknown> {
  const response = await t.call(method, path, { cookie, body });
  expect(response.status).toBe(200);
  return response.json();
}

function expectReadable<T>(schema: ResponseSchema<T>, answer: unknown): T {
  const checked = schema.safeParse(answer);
  if (!checked.success) throw new Error(`unreadable answer: ${JSON.stringify(checked.error.issues.slice(0, 3))}`);
  return checked.data;
}

describe("every answer the web app reads passes its schema", () => {
  const memberReads: [string, ResponseSchema<unknown>][] = [
    [apiPaths.auth.status, authStatusSchema],
    [apiPaths.system.rules, rulesResponseSchema],
    [apiPaths.system.dates, datesResponseSchema],
    [apiPaths.teeTimes, teeTimesResponseSchema],
    [apiPaths.advisories, advisoriesResponseSchema],
    [apiPaths.my.bookings, bookingsResponseSchema],
    [apiPaths.my.requests, requestsResponseSchema],
    [apiPaths.my.players, savedPlayersResponseSchema],
    [apiPaths.my.watches, watchesResponseSchema],
    [apiPaths.formOptions, formOptionsResponseSchema],
    [apiPaths.uiText, uiTextResponseSchema],
    [apiPaths.my.notifications, notificationsResponseSchema],
    [apiPaths.my.notificationSettings, notificationSettingsSchema],
    [apiPaths.my.push, pushStatusSchema],
  ];
  for (const [path, schema] of memberReads) {
    test(`GET ${path}`, async () => {
      expectReadable(schema, await answerOf("GET", path, member));
    });
  }

  const adminReads: [string, ResponseSchema<unknown>][] = [
    [apiPaths.admin.users, adminUsersResponseSchema],
    [apiPaths.admin.fullConfig, fullConfigSchema],
    [apiPaths.admin.appSettings, adminSettingsSchema],
    [apiPaths.admin.systemStats, systemStatsSchema],
    [apiPaths.system.club, clubStatusSchema],
    [apiPaths.admin.mailOutbox, outboxResponseSchema],
  ];
  for (const [path, schema] of adminReads) {
    test(`GET ${path} (admin)`, async () => {
      expectReadable(schema, await answerOf("GET", path, admin));
    });
  }

  test("the seeded data is really there, so the lists checked are not all empty", async () => {
    const config = expectReadable(fullConfigSchema, await answerOf("GET", apiPaths.admin.fullConfig, admin));
    expect(config.courses.length).toBeGreaterThan(0);
    expect(config.bookingWindows.length).toBeGreaterThan(0);
    const users = expectReadable(adminUsersResponseSchema, await answerOf("GET", apiPaths.admin.users, admin));
    expect(users.map((u) => u.username)).toContain("mia");
  });

  test("notifications with every kind of line, marked read, the switches saved, and the outbox with messages", async () => {
    const [mia] = await t.deps.database.query<{ id: number }>("SELECT id FROM users WHERE username = 'mia'");
    const base = { userId: mia.id, course: "Masters", date: "2026-11-29" };
    t.deps.notifier.publish({ type: "booking_confirmed", ...base, time: "06:00", ref: "SW-1" });
    t.deps.notifier.publish({ type: "request_failed", ...base, requestId: 1, submittedAt: 1, reason: { key: "bookings.reason.club_refused", context: { message: "No" } } });
    t.deps.notifier.publish({ type: "watch_booked", ...base, watchId: 1, time: "07:00" });
    t.deps.notifier.publish({ type: "watch_found", ...base, watchId: 2, time: "07:08" });
    t.deps.notifier.publish({ type: "needs_attention", ...base, requestId: 2, submittedAt: 1, reason: { key: "bookings.reason.bad_credentials", context: {} } });
    t.deps.notifier.publish({ type: "club_booking_cancelled", ...base, ref: "SW-1", time: "06:00" });
    t.deps.notifier.publish({ type: "club_booking_changed", ...base, ref: "SW-2", time: "06:08", readAt: 1 });
    await t.deps.notifier.settled!();
    const listed = expectReadable(notificationsResponseSchema, await answerOf("GET", apiPaths.my.notifications, member));
    expect(listed.items).toHaveLength(7);
    expectReadable(markReadResponseSchema, await answerOf("POST", apiPaths.my.markNotificationsRead, member, { ids: [listed.items[0].id] }));
    expectReadable(notificationSettingsSchema, await answerOf("PUT", apiPaths.my.notificationSettings, member, { email: { watch_found: false }, push: { request_failed: false } }));
    const outbox = expectReadable(outboxResponseSchema, await answerOf("GET", apiPaths.admin.mailOutbox, admin));
    expect(outbox.messages.length).toBeGreaterThanOrEqual(6);
  });

  test("PUT /v1/my/profile answers with the user", async () => {
    const before = expectReadable(authStatusSchema, await answerOf("GET", apiPaths.auth.status, member));
    const user = before.user!;
    const options = expectReadable(formOptionsResponseSchema, await answerOf("GET", apiPaths.formOptions, member));
    const first = (category: string) => options.find((o) => o.category === category)?.value ?? "";
    const answer = await answerOf("PUT", apiPaths.my.profile, member, {
      name: user.name,
      memberId: user.memberId,
      southwoods_email: user.southwoods_email,
      defaultCartType: first("cartPreference"),
      defaultFeeGuest: first("feePreferenceGuest"),
      defaultFeeMember: first("feePreferenceMember"),
    });
    expect(expectReadable(userResponseSchema, answer).user.username).toBe("mia");
  });
});
