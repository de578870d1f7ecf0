/**
 * The member's calendar address and feed: made and renewed from the Profile page's calls, fetched
 * with no cookie and no Origin as a calendar app does, read back with a real iCalendar parser
 * (ical.js, as calendar apps built on it read feeds) and with the strict structural parser of the
 * test helpers, times in Manila, a replaced or unknown token 404.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { eq } from "drizzle-orm";
import { bookingRequests, bookings, calendarFeeds, uiText, users } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { calendarAddressResponseSchema } from "../../src/features/calendar/calendar.schemas.ts";
import { createTrustPolicy } from "../../src/lib/trust.ts";
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { createTestApp, userIdOf, type TestApp } from "../helpers/api.ts";
import { eventsOf, instantOf, parseIcal, propertyValue, type Component } from "../helpers/ical-parser.ts";

let t: TestApp;
let maria: string;
let mariaId: number;

beforeEach(async () => {
  t = await createTestApp({ demo: true });
  maria = await t.signIn("maria", "demo1234");
  mariaId = await userIdOf(t, "maria");
});
afterEach(() => t.close());

const player = (firstName: string, lastName: string, memberId: string) => ({ type: "Member", firstName, lastName, memberId, cart: "", fee: "" });

async function addBooking(userId: number, ref: string, date: string, time: string, players = [player("Maria", "Santos", "SW-1001")]) {
  await t.deps.database.db.insert(bookings).values({ userId, bookingRef: ref, courseId: "masters", playDate: date, time, players, requestId: null, createdAt: t.clock.now() });
}

async function addRequest(userId: number, status: "pending" | "confirmed" | "cancelled" | "failed" | "held", playDate: string, releaseAt: number) {
  const now = t.clock.now();
  const [row] = await t.deps.database.db
    .insert(bookingRequests)
    .values({
      userId,
      courseId: "masters",
      playDate,
      selection: [
        { time: "06:00", slotId: null },
        { time: "06:08", slotId: null },
      ],
      players: [],
      status,
      releaseAt,
      submittedAt: now,
      updatedAt: now,
    })
    .returning({ id: bookingRequests.id });
  return row.id;
}

async function makeAddress(cookie = maria): Promise<string> {
  const res = await t.call("POST", "/v1/my/calendar", { cookie, body: {} });
  expect(res.status).toBe(200);
  const body = calendarAddressResponseSchema.parse(await res.json());
  expect(body.url).toMatch(/^http:\/\/localhost\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return body.url!;
}

/** As a calendar app fetches: no cookie, no Origin. */
function fetchFeed(url: string, host?: string) {
  const headers: Record<string, string> = host ? { host } : {};
  return Promise.resolve(t.app.request(url, { headers }));
}

async function readFeed(url: string): Promise<Component> {
  const res = await fetchFeed(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  return parseIcal(await res.text());
}

describe("the calendar address", () => {
  test("none until made; made, it is shown again the same; the token is stored only hashed and sealed", async () => {
    const none = await t.call("GET", "/v1/my/calendar", { cookie: maria });
    expect(await none.json()).toEqual({ url: null, createdAt: null });
    const url = await makeAddress();
    const again = calendarAddressResponseSchema.parse(await (await t.call("GET", "/v1/my/calendar", { cookie: maria })).json());
    expect(again.url).toBe(url);
    const token = url.match(/([A-Za-z0-9_-]{43})\.ics$/)![1];
    const [row] = await t.deps.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, mariaId));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.tokenHash).toBe(new Bun.CryptoHasher("sha256").update(token).digest("hex"));
    expect(t.logLines.join("\n")).not.toContain(token);
  });

  test("needs a signed-in member, and a write from another site is refused", async () => {
    expect((await t.call("GET", "/v1/my/calendar")).status).toBe(401);
    expect((await t.call("POST", "/v1/my/calendar", { body: {} })).status).toBe(401);
    const crossSite = await t.call("POST", "/v1/my/calendar", { cookie: maria, body: {}, origin: "http://evil.example" });
    expect(crossSite.status).toBe(403);
  });

  test("the address is on PUBLIC_ORIGIN when one is set", async () => {
    t.deps.publicOrigin = "https://teebox.example";
    t.deps.trust = createTrustPolicy("https://teebox.example");
    const res = await Promise.resolve(
      t.app.request("https://teebox.example/v1/my/calendar", {
        method: "POST",
        headers: { host: "teebox.example", origin: "https://teebox.example", cookie: maria, "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toStartWith("https://teebox.example/v1/calendar/");
  });
});

describe("the feed", () => {
  test("bookings at their Manila tee times and pending releases, each with a stable UID, and nothing of anyone else", async () => {
    await addBooking(mariaId, "SW-77,1", "2026-11-30", "06:04", [player("Maria", "Santos", "SW-1001"), player("Juan; Jr.", "Dela Cruz, III", "SW-1007")]);
    await addBooking(mariaId, "SW-78", "2026-12-01", "13:36");
    const releaseAt = manilaInstant("2026-11-27", "07:00");
    const pendingId = await addRequest(mariaId, "pending", "2026-12-04", releaseAt);
    await addRequest(mariaId, "confirmed", "2026-12-05", manilaInstant("2026-11-28", "07:00"));
    await addRequest(mariaId, "cancelled", "2026-12-06", manilaInstant("2026-11-29", "07:00"));
    const jose = await userIdOf(t, "jose");
    await addBooking(jose, "SW-JOSE", "2026-11-30", "06:12");
    await addRequest(jose, "pending", "2026-12-04", releaseAt);

    const url = await makeAddress();
    const calendar = await readFeed(url);
    expect(propertyValue(calendar, "PRODID")).toBe("-//Teebox//Tee times//EN");
    expect(propertyValue(calendar, "VERSION")).toBe("2.0");
    const events = eventsOf(calendar);
    expect(events.map((e) => propertyValue(e, "UID")).sort()).toEqual(["booking-SW-77,1@teebox", "booking-SW-78@teebox", `release-${pendingId}@teebox`]);

    const first = events.find((e) => propertyValue(e, "UID") === "booking-SW-77,1@teebox")!;
    // 06:04 in Manila on Nov 30 is 22:04 UTC on Nov 29.
    expect(new Date(instantOf(calendar, first, "DTSTART")).toISOString()).toBe("2026-11-29T22:04:00.000Z");
    expect(first.properties.find((p) => p.name === "DTSTART")!.params.TZID).toBe("Asia/Manila");
    expect(propertyValue(first, "SUMMARY")).toBe("Golf: Masters at 06:04");
    expect(propertyValue(first, "DESCRIPTION")).toBe("Booking SW-77,1. Players: Maria Santos, Juan; Jr. Dela Cruz, III.");
    const afternoon = events.find((e) => propertyValue(e, "UID") === "booking-SW-78@teebox")!;
    expect(new Date(instantOf(calendar, afternoon, "DTSTART")).toISOString()).toBe("2026-12-01T05:36:00.000Z");

    const release = events.find((e) => propertyValue(e, "UID") === `release-${pendingId}@teebox`)!;
    expect(instantOf(calendar, release, "DTSTART")).toBe(releaseAt);
    expect(propertyValue(release, "SUMMARY")).toBe("Release of your request for Masters on Dec 4, 2026");

    // The same booking keeps its UID from one fetch to the next.
    const later = eventsOf(await readFeed(url)).map((e) => propertyValue(e, "UID"));
    expect(later).toEqual(events.map((e) => propertyValue(e, "UID")));
  });

  test("a real iCalendar parser reads the same events, with the tee time in Manila and the players' names intact", async () => {
    await addBooking(mariaId, "SW-90", "2026-11-30", "06:04", [player("Maria", "Santos", "SW-1001"), player("Juan; Jr.", "Dela Cruz, III", "SW-1007")]);
    const releaseAt = manilaInstant("2026-11-27", "07:00");
    const pendingId = await addRequest(mariaId, "pending", "2026-12-04", releaseAt);
    const url = await makeAddress();
    const res = await fetchFeed(url);
    expect(res.status).toBe(200);
    const calendar = new ICAL.Component(ICAL.parse(await res.text()));
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    const booking = events.find((e) => e.uid === "booking-SW-90@teebox");
    expect(booking?.startDate.toJSDate().toISOString()).toBe("2026-11-29T22:04:00.000Z");
    expect(booking?.startDate.zone?.tzid).toBe("Asia/Manila");
    expect(booking?.summary).toBe("Golf: Masters at 06:04");
    expect(booking?.description).toBe("Booking SW-90. Players: Maria Santos, Juan; Jr. Dela Cruz, III.");
    const release = events.find((e) => e.uid === `release-${pendingId}@teebox`);
    expect(release?.startDate.toJSDate().getTime()).toBe(releaseAt);
  });

  test("is served with no cookie and no Origin, only for our host names, and never logs its token", async () => {
    const url = await makeAddress();
    const token = url.match(/([A-Za-z0-9_-]{43})\.ics$/)![1];
    const res = await fetchFeed(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    const rebound = await fetchFeed(url.replace("localhost", "attacker.example"), "attacker.example");
    expect(rebound.status).toBe(421);
    expect(t.logLines.join("\n")).not.toContain(token);
  });

  test("a new address stops the old one at once; unknown, malformed and a disabled member's tokens answer 404", async () => {
    const old = await makeAddress();
    const renewed = await makeAddress();
    expect(renewed).not.toBe(old);
    expect((await fetchFeed(old)).status).toBe(404);
    expect((await fetchFeed(renewed)).status).toBe(200);
    const unknown = renewed.replace(/[A-Za-z0-9_-]{43}\.ics$/, `${"A".repeat(43)}.ics`);
    const res = await fetchFeed(unknown);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: DEFAULT_UI_TEXT["calendar.not_found"], errorKey: "calendar.not_found" });
    for (const bad of ["short.ics", `${"A".repeat(43)}.txt`, `${"A".repeat(43)}`, `${"A".repeat(44)}.ics`, "..%2f..%2fetc.ics"]) {
      expect((await fetchFeed(`http://localhost/v1/calendar/${bad}`)).status).toBe(404);
    }
    await t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, mariaId));
    expect((await fetchFeed(renewed)).status).toBe(404);
  });

  test("the feed's words come from the editable UI text", async () => {
    await addBooking(mariaId, "SW-80", "2026-11-30", "06:04");
    await t.deps.database.db
      .insert(uiText)
      .values({ key: "calendar.feed.booking_summary", value: "Tee off {time}, {course}" })
      .onConflictDoUpdate({ target: uiText.key, set: { value: "Tee off {time}, {course}" } });
    const [event] = eventsOf(await readFeed(await makeAddress()));
    expect(propertyValue(event, "SUMMARY")).toBe("Tee off 06:04, Masters");
  });
});

describe("bad input", () => {
  test("a new address takes an empty JSON object; anything else is refused and the old address keeps working", async () => {
    const url = await makeAddress();
    for (const rawBody of ["{", "[]", '{"userId":2}', "null"]) {
      const res = await t.call("POST", "/v1/my/calendar", { cookie: maria, rawBody });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { errorKey: string }).errorKey).toMatch(/^validation\./);
    }
    expect((await fetchFeed(url)).status).toBe(200);
  });
});
