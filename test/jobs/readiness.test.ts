/**
 * The readiness check against the demo club: a pending request is checked as if released now, and
 * a wrong stored club password, an incomplete player and a rule change each mark it
 * needs_attention with their own reason; fixed, it goes back to pending; still wrong at the
 * release, it is not sent and fails with the reason.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, bookingRules, mailOutbox, users } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { GUEST_FEE_CHOICES } from "../../src/club-sim/demo-data.ts";
import { readSettings, writeSettings } from "../../src/services/settings.service.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

/** A Monday a week ahead: released 2026-11-23 07:00 Manila (the fixture's now is 11-22 09:00). */
const PLAY = "2026-11-30";
const RELEASE = manilaInstant("2026-11-23", "07:00");
const GUEST = { type: "Guest", firstName: "Gina", lastName: "Guest", cartType: { "Rental Cart - Solo": true }, chargeFeesTo: { [GUEST_FEE_CHOICES[0]]: true } };

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

async function pendingRequest(fx: ReleaseFixture, players: unknown[] = []): Promise<number> {
  const answer = await fx.submit("maria", submission(PLAY, ["06:00", "06:08"], "masters", players));
  expect(answer).toMatchObject({ type: "submissionResult", status: "pending" });
  const rows = await fx.t.deps.database.db.select().from(bookingRequests);
  return rows.at(-1)!.id;
}

const request = async (fx: ReleaseFixture, id: number) => (await fx.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.id, id)))[0];

async function checkNow(fx: ReleaseFixture) {
  const cookie = await fx.t.signIn("maria", "demo1234");
  const res = await fx.t.call("POST", "/v1/my/requests/check", { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as { checked: number; problems: number };
}

describe("readiness check", () => {
  test("a request that would go out fine stays pending", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const id = await pendingRequest(f);
    expect(await checkNow(f)).toEqual({ checked: 1, problems: 0 });
    expect((await request(f, id)).status).toBe("pending");
  });

  test("a member may check on demand 5 times in 15 minutes (each signs in at the club); then 429 with Retry-After", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await pendingRequest(f);
    for (let i = 0; i < 4; i++) await checkNow(f);
    await checkNow(f);
    const cookie = await f.t.signIn("maria", "demo1234");
    const refused = await f.t.call("POST", "/v1/my/requests/check", { cookie });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ errorKey: "readiness.error.too_often" });
    expect(Number(refused.headers.get("retry-after"))).toBe(15 * 60);
    // Another member is not held back by it.
    const jose = await f.t.signIn("jose", "demo1234");
    expect((await f.t.call("POST", "/v1/my/requests/check", { cookie: jose })).status).toBe(200);
    await f.clock.advance(15 * 60_000);
    expect((await f.t.call("POST", "/v1/my/requests/check", { cookie })).status).toBe(200);
  });

  test("a wrong stored club password marks the request: the sign-in is real", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const id = await pendingRequest(f);
    const maria = await f.user("maria");
    await f.t.deps.database.db
      .update(users)
      .set({ clubPasswordSealed: f.t.deps.secretBox.seal("not-marias-password") })
      .where(eq(users.id, maria.id));
    expect(await checkNow(f)).toEqual({ checked: 1, problems: 1 });
    const row = await request(f, id);
    expect(row).toMatchObject({ status: "needs_attention", reasonKey: "readiness.reason.bad_login" });
    const told = f.t.published.filter((p) => p.topic === `user:${maria.id}`).map((p) => p.message);
    expect(told).toContainEqual(
      expect.objectContaining({
        type: "toast",
        toast: expect.objectContaining({
          kind: "error",
          textKey: "notifications.text.needs_attention",
          context: expect.objectContaining({ reasonKey: "readiness.reason.bad_login" }),
        }),
      }),
    );
    // The member's list names the state and the reason.
    const cookie = await f.t.signIn("maria", "demo1234");
    const list = (await (await f.t.call("GET", "/v1/my/requests", { cookie })).json()) as { status: string; failureReason: string }[];
    expect(list[0]).toMatchObject({ status: "Needs attention", failureReason: "The club did not accept your stored club login. Update it in your profile." });
  });

  test("an incomplete player marks the request with the players' reason", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const id = await pendingRequest(f, [GUEST]);
    const row = await request(f, id);
    const players = row.players.map((p, i) => (i === 1 ? { ...p, lastName: "" } : p));
    await f.t.deps.database.db.update(bookingRequests).set({ players }).where(eq(bookingRequests.id, id));
    await checkNow(f);
    expect(await request(f, id)).toMatchObject({ status: "needs_attention", reasonKey: "readiness.reason.players" });
  });

  test("a rule change marks the request with the rule's reason, and an edit that fits puts it back to pending", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const id = await pendingRequest(f, [GUEST]);
    // An admin adds a rule after the request was made: one player only, every day, all morning.
    await f.t.deps.database.db
      .insert(bookingRules)
      .values({ priority: 1, daysOfWeek: [1, 2, 3, 4, 5, 6, 7], startTime: "05:00", endTime: "17:00", minPlayers: 1, maxPlayers: 1, maxGuests: 0 });
    await checkNow(f);
    const row = await request(f, id);
    expect(row).toMatchObject({ status: "needs_attention", reasonKey: "readiness.reason.rule" });
    expect(row.reasonContext?.message).toBe("Maximum of 1 players allowed.");

    // The member edits it down to themselves alone: pending again, without the reason.
    const answer = await f.submit("maria", { ...submission(PLAY, ["06:00"]), editTarget: id });
    expect(answer).toMatchObject({ type: "submissionResult", status: "pending" });
    expect(await request(f, id)).toMatchObject({ status: "pending", reasonKey: null });
  });

  test("the daily check runs at the admin's time the day before the release, for tomorrow's releases only", async () => {
    f = await startReleaseFixture({ startEngine: false, now: manilaInstant("2026-11-22", "09:00") });
    const id = await pendingRequest(f);
    // Released the day after tomorrow: not part of this evening's check.
    const later = await f.submit("maria", submission("2026-12-01", ["06:00"]));
    expect(later).toMatchObject({ status: "pending" });
    const laterId = (await f.t.deps.database.db.select().from(bookingRequests)).at(-1)!.id;
    const maria = await f.user("maria");
    await f.t.deps.database.db
      .update(users)
      .set({ clubPasswordSealed: f.t.deps.secretBox.seal("wrong") })
      .where(eq(users.id, maria.id));
    await f.t.deps.readiness.tick();
    expect((await request(f, id)).status).toBe("pending");
    await f.clock.set(manilaInstant("2026-11-22", "18:00"));
    await f.t.deps.readiness.tick();
    expect((await request(f, id)).status).toBe("needs_attention");
    expect((await request(f, laterId)).status).toBe("pending");
  });

  test("a check time moved later on the same day runs the daily check again at the new time", async () => {
    f = await startReleaseFixture({ startEngine: false, now: manilaInstant("2026-11-22", "17:59") });
    const id = await pendingRequest(f);
    // 18:00: today's check runs and finds nothing wrong.
    await f.clock.set(manilaInstant("2026-11-22", "18:00"));
    await f.t.deps.readiness.tick();
    expect((await request(f, id)).status).toBe("pending");
    // The member's stored login stops working, and an admin moves the check to 20:00.
    const maria = await f.user("maria");
    await f.t.deps.database.db
      .update(users)
      .set({ clubPasswordSealed: f.t.deps.secretBox.seal("wrong") })
      .where(eq(users.id, maria.id));
    await writeSettings(f.t.deps.database.db, { ...(await readSettings(f.t.deps.database.db)), readiness_check_time: "20:00" });
    await f.clock.set(manilaInstant("2026-11-22", "19:59"));
    await f.t.deps.readiness.tick();
    expect((await request(f, id)).status).toBe("pending");
    await f.clock.set(manilaInstant("2026-11-22", "20:00"));
    await f.t.deps.readiness.tick();
    expect((await request(f, id)).status).toBe("needs_attention");
    // Once run at the new time it is not run again that day; a time moved earlier does not rerun it.
    const checks = () => f!.t.logLines.filter((line) => line.includes("readiness check of tomorrow's releases")).length;
    const before = checks();
    await writeSettings(f.t.deps.database.db, { ...(await readSettings(f.t.deps.database.db)), readiness_check_time: "19:00" });
    await f.clock.set(manilaInstant("2026-11-22", "20:30"));
    await f.t.deps.readiness.tick();
    expect(checks()).toBe(before);
  });

  test("still needing attention at the release it is not sent and fails with the reason; fixed before, it is sent", async () => {
    f = await startReleaseFixture({ now: manilaInstant("2026-11-22", "09:00") });
    const broken = await pendingRequest(f);
    const maria = await f.user("maria");
    const db = f.t.deps.database.db;
    const good = (await db.select().from(users).where(eq(users.id, maria.id)))[0].clubPasswordSealed;
    await db
      .update(users)
      .set({ clubPasswordSealed: f.t.deps.secretBox.seal("wrong") })
      .where(eq(users.id, maria.id));
    await checkNow(f);
    expect((await request(f, broken)).status).toBe("needs_attention");

    // Near the release the request is checked again: still wrong, it is failed at the instant.
    await f.moveTo(RELEASE - 60_000);
    await f.t.deps.readiness.tick();
    expect((await request(f, broken)).status).toBe("needs_attention");
    await f.moveTo(RELEASE);
    await f.t.deps.readiness.tick();
    const failed = await request(f, broken);
    expect(failed).toMatchObject({ status: "failed", reasonKey: "readiness.reason.not_fixed" });
    expect(failed.failureReason).toContain("club login");
    expect(f.sim.attempts().filter((a) => !a.isRival)).toHaveLength(0);

    // The reason reads once wherever it is shown: the member's list, the story, the toast, the
    // notification and its email (never "…not sent: It still needed attention…: …").
    await f.t.deps.notifier.settled?.();
    const once = (text: string | null | undefined) => expect({ text, count: (text ?? "").split("It still needed attention").length - 1 }).toEqual({ text, count: 1 });
    const cookie = await f.t.signIn("maria", "demo1234");
    const listed = (await (await f.t.call("GET", "/v1/my/requests", { cookie })).json()) as { id: number; failureReason: string }[];
    once(listed.find((r) => r.id === broken)?.failureReason);
    once(((await (await f.t.call("GET", `/v1/my/requests/${broken}/story`, { cookie })).json()) as { request: { reason: string } }).request.reason);
    const toast = f.t.published.map((p) => p.message).find((m) => m.type === "toast" && m.toast.textKey === "bookings.toast.failed");
    once(toast?.type === "toast" ? toast.toast.message : null);
    const notes = (await (await f.t.call("GET", "/v1/my/notifications", { cookie })).json()) as { items: { kind: string; text: string }[] };
    once(notes.items.find((n) => n.kind === "request_failed")?.text);
    const mail = (await db.select().from(mailOutbox).where(eq(mailOutbox.recipient, "maria@southwoods.demo"))).find((m) => m.body.includes("failed"));
    once(mail?.body);
    expect(mail?.body).toContain("The club did not accept your stored club login.");

    // A second request: the member fixes the login before the instant, and it is sent.
    await f.t.deps.database.db.update(bookingRequests).set({ status: "cancelled" }).where(eq(bookingRequests.id, broken));
    await f.close();
    f = await startReleaseFixture({ now: manilaInstant("2026-11-22", "09:00") });
    const fixed = await pendingRequest(f);
    const maria2 = await f.user("maria");
    await f.t.deps.database.db
      .update(users)
      .set({ clubPasswordSealed: f.t.deps.secretBox.seal("wrong") })
      .where(eq(users.id, maria2.id));
    await checkNow(f);
    expect((await request(f, fixed)).status).toBe("needs_attention");
    await f.t.deps.database.db.update(users).set({ clubPasswordSealed: good }).where(eq(users.id, maria2.id));
    await f.moveTo(RELEASE - 60_000);
    await f.t.deps.readiness.tick();
    expect((await request(f, fixed)).status).toBe("pending");
    await f.moveTo(RELEASE);
    await f.stepUntil(async () => (await request(f!, fixed)).status === "confirmed");
  });
});
