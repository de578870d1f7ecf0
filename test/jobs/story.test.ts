/**
 * The story of a request, read through the API after a real release against the demo club: it
 * stays with the request once booked, from either side, with the measured clock offset and what
 * the club's sheet showed afterwards; another member's ids answer 404.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { bookingRequests, bookings, uiText } from "../../src/db/schema.ts";
import { createScraper } from "../../src/jobs/scraper.ts";
import { requestStoryResponseSchema, type RequestStory } from "../../src/features/bookings/bookings-responses.schemas.ts";
import { startReleaseFixture, submission, type ReleaseFixture, PLAY, RELEASE } from "./release-engine.fixture.ts";

/** A Monday on Masters (06:00, 06:08, 06:16 … tee times); released seven days before at 07:00 Manila. */

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

async function readStory(fx: ReleaseFixture, cookie: string, path: string): Promise<RequestStory> {
  const res = await fx.t.call("GET", path, { cookie });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return requestStoryResponseSchema.parse(await res.json());
}

describe("the story of a request", () => {
  test("after a real release the booking and the request tell the same story: times tried, when each left, the club's answers and its clock", async () => {
    f = await startReleaseFixture({ clubOffsetMs: 1300 });
    f.sim.setSlotStatus(PLAY, "masters", "06:00", "BOOKED");
    await f.submit("maria", submission(PLAY, ["06:00", "06:08", "06:16"]));
    const [{ id }] = await f.t.deps.database.db.select({ id: bookingRequests.id }).from(bookingRequests);
    const maria = await f.t.signIn("maria", "demo1234");

    const before = await readStory(f, maria, `/v1/my/requests/${id}/story`);
    expect(before).toEqual({
      request: expect.objectContaining({ id, status: "pending", playDate: PLAY, course: "masters", releaseAt: RELEASE, times: ["06:00", "06:08", "06:16"], bookingRef: null }),
      clock: null,
      attempts: [],
    });

    await f.moveTo(RELEASE - 1300 - 60_000);
    await f.moveTo(RELEASE - 1300);
    await f.stepUntil(async () => (await f!.request(id)).status === "confirmed");
    const [booking] = await f.bookingsOf("maria");

    // Booked: no longer among the open requests, yet its story is still there from both sides.
    const open = (await (await f.t.call("GET", "/v1/my/requests", { cookie: maria })).json()) as { id: number }[];
    expect(open.map((r) => r.id)).not.toContain(id);
    const fromBooking = await readStory(f, maria, `/v1/my/bookings/${encodeURIComponent(booking.bookingRef)}/story`);
    const fromRequest = await readStory(f, maria, `/v1/my/requests/${id}/story`);
    expect(fromBooking).toEqual(fromRequest);
    expect(fromBooking.request).toMatchObject({ id, status: "confirmed", bookingRef: booking.bookingRef, reasonKey: null });
    expect(fromBooking.clock).toEqual({ offsetMs: 1300, uncertaintyMs: 0 });
    expect(fromBooking.attempts).toEqual([
      {
        time: "06:00",
        leftAtMs: 0,
        outcome: "slot_taken",
        answerKey: expect.any(String),
        answerContext: expect.any(Object),
        answer: expect.any(String),
        durationMs: expect.any(Number),
        sheetAfter: null,
      },
      {
        time: "06:08",
        leftAtMs: expect.any(Number),
        outcome: "confirmed",
        answerKey: "bookings.reason.booked",
        answerContext: { ref: booking.bookingRef },
        answer: `Booked, reference ${booking.bookingRef}.`,
        durationMs: expect.any(Number),
        sheetAfter: null,
      },
    ]);
    expect(fromBooking.attempts[1].leftAtMs).toBeGreaterThanOrEqual(0);
    expect(fromBooking.attempts[1].leftAtMs).toBeLessThan(1000);

    // The sheet read after the release says how each tried time ended at the club.
    const scraper = createScraper(f.t.deps, { pauseMs: 0 });
    await scraper.run("manual");
    await scraper.stop();
    const afterSheet = await readStory(f, maria, `/v1/my/requests/${id}/story`);
    const sheetOf = (time: string) => afterSheet.attempts.find((a) => a.time === time)?.sheetAfter;
    expect(sheetOf("06:00")).toEqual({ status: expect.any(String), readAt: expect.any(Number) });
    expect(sheetOf("06:00")!.status.toLowerCase()).not.toContain("available");
    expect(sheetOf("06:08")!.status.toLowerCase()).not.toContain("available");
    expect(sheetOf("06:00")!.readAt).toBeGreaterThanOrEqual(RELEASE - 1300);

    // The answer is rendered through the editable UI text.
    await f.t.deps.database.db
      .insert(uiText)
      .values({ key: "bookings.reason.booked", value: "Got it: {ref}" })
      .onConflictDoUpdate({ target: uiText.key, set: { value: "Got it: {ref}" } });
    const reworded = await readStory(f, maria, `/v1/my/bookings/${encodeURIComponent(booking.bookingRef)}/story`);
    expect(reworded.attempts[1].answer).toBe(`Got it: ${booking.bookingRef}`);

    // Members are kept apart: another member's ids answer 404, as unknown ones do.
    const jose = await f.t.signIn("jose", "demo1234");
    for (const path of [
      `/v1/my/requests/${id}/story`,
      `/v1/my/bookings/${encodeURIComponent(booking.bookingRef)}/story`,
      `/v1/my/requests/999999/story`,
      `/v1/my/bookings/NOPE-1/story`,
    ]) {
      const res = await f.t.call("GET", path, { cookie: jose });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { errorKey: string }).errorKey).toMatch(/^bookings\.error\.(request|booking)_not_found$/);
    }
    const unsigned = await f.t.call("GET", `/v1/my/requests/${id}/story`);
    expect(unsigned.status).toBe(401);
    const bad = await f.t.call("GET", "/v1/my/requests/abc/story", { cookie: maria });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errorKey: string }).errorKey).toBe("validation.bad_param");
  });

  test("a booking Teebox did not make at a release has no attempts to tell; a failed request keeps its reason", async () => {
    f = await startReleaseFixture();
    const member = await f.user("maria");
    await f.t.deps.database.db
      .insert(bookings)
      .values({ userId: member.id, bookingRef: "SW-CLUB-1", courseId: "masters", playDate: PLAY, time: "07:04", players: [], requestId: null, createdAt: f.clock.now() });
    const maria = await f.t.signIn("maria", "demo1234");
    expect(await readStory(f, maria, "/v1/my/bookings/SW-CLUB-1/story")).toEqual({ request: null, clock: null, attempts: [], watch: null });

    for (const time of ["06:00", "06:08"]) f.sim.setSlotStatus(PLAY, "masters", time, "BOOKED");
    await f.submit("maria", submission(PLAY, ["06:00", "06:08"]));
    const [{ id }] = await f.t.deps.database.db.select({ id: bookingRequests.id }).from(bookingRequests);
    await f.moveTo(RELEASE - 60_000);
    await f.moveTo(RELEASE);
    await f.stepUntil(async () => (await f!.request(id)).status === "failed");
    const story = await readStory(f, maria, `/v1/my/requests/${id}/story`);
    expect(story.request).toMatchObject({ status: "failed", reasonKey: "bookings.reason.no_time_available", reason: "No selected time was available." });
    expect(story.attempts.map((a) => [a.time, a.outcome, a.leftAtMs])).toEqual([
      ["06:00", "slot_taken", 0],
      ["06:08", "slot_taken", expect.any(Number)],
    ]);
    expect(story.clock).toEqual({ offsetMs: 0, uncertaintyMs: 0 });
  });
});
