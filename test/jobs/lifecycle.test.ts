/** A request's life against the demo club: a freed slot can be booked again; a disabled member's requests are held. */
import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, users } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

const PLAY = "2026-11-30";
const RELEASE = manilaInstant("2026-11-23", "07:00");

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const latestRequest = async (fx: ReleaseFixture) => (await fx.t.deps.database.db.select().from(bookingRequests).orderBy(bookingRequests.id)).at(-1)!;

async function act(fx: ReleaseFixture, username: string, action: string, payload: unknown): Promise<ServerMessage> {
  const member = await fx.user(username);
  let answer: ServerMessage | null = null;
  await fx.t.deps.hub.dispatch({ user: member, sessionId: "test" }, JSON.stringify({ action, payload }), (m) => (answer = m));
  await fx.engine.idle();
  if (!answer) throw new Error("no answer");
  return answer;
}

test("after a member cancels a confirmed booking, a new request books the freed slot again", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE);
  const first = await latestRequest(f);
  expect(first.status).toBe("confirmed");

  expect(await act(f, "maria", "CANCEL_CONFIRMED_BOOKING", { bookingId: first.bookingRef })).toMatchObject({ type: "ack" });
  expect(await f.bookingsOf("maria")).toHaveLength(0);

  // The date is open now: the new request is taken at once.
  expect(await f.submit("maria", submission(PLAY, ["06:00"]))).toMatchObject({ type: "submissionResult", status: "submitted" });
  const fx = f;
  await f.stepUntil(async () => (await latestRequest(fx)).status !== "processing" && (await latestRequest(fx)).status !== "pending");
  const second = await latestRequest(f);
  expect(second.id).not.toBe(first.id);
  expect(second).toMatchObject({ status: "confirmed", failureReason: null });
  const [booking] = await f.bookingsOf("maria");
  expect(booking).toMatchObject({ time: "06:00", playDate: PLAY, bookingRef: second.bookingRef });
});

test("a disabled member's request is held at the release: nothing is posted, and it fires if the member is enabled before it", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const maria = await f.user("maria");
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE - 1);
  expect((await latestRequest(f)).status).toBe("held");
  await f.t.deps.database.db.update(users).set({ status: "active" }).where(eq(users.id, maria.id));
  f.engine.wake();
  await f.moveTo(RELEASE);
  const fx = f;
  await f.stepUntil(async () => (await latestRequest(fx)).status === "confirmed");
  expect(f.sim.attempts().filter((a) => !a.isRival)).toHaveLength(1);
});

test("a held request whose release passes while the member is still disabled fails with a clear reason, never reaching the club", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00"]));
  const maria = await f.user("maria");
  await f.t.deps.database.db.update(users).set({ status: "disabled" }).where(eq(users.id, maria.id));
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE);
  await f.moveTo(RELEASE + 5_000);
  const request = await latestRequest(f);
  expect(request).toMatchObject({ status: "failed", reasonKey: "bookings.reason.member_disabled" });
  expect(request.failureReason).toContain("disabled");
  expect(f.sim.attempts().filter((a) => !a.isRival)).toHaveLength(0);
});
