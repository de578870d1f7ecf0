/**
 * The club ends every session just before the release (an idle timeout, a login elsewhere): each
 * request signs in again once and books exactly once; nothing is booked twice at the club.
 */
import { afterEach, expect, test } from "bun:test";
import { bookingRequests } from "../../src/db/schema.ts";
import { startReleaseFixture, submission, type ReleaseFixture, PLAY, RELEASE } from "./release-engine.fixture.ts";

/** A Monday: Masters runs; released seven days before at 07:00 Manila on the club's clock. */

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

test("sessions the club dropped right before the instant: one new sign-in per member, one booking each", async () => {
  f = await startReleaseFixture();
  await f.submit("maria", submission(PLAY, ["06:00", "06:08"]));
  await f.submit("jose", submission(PLAY, ["06:16", "06:24"]));
  // Signed in and prepared ahead of the release, as the engine does.
  await f.moveTo(RELEASE - 60_000);
  await f.moveTo(RELEASE - 1_000);
  const actionsBefore = f.clubActions.length;
  f.sim.dropAllSessions();

  await f.moveTo(RELEASE);
  const requests = await f.t.deps.database.db.select().from(bookingRequests).orderBy(bookingRequests.id);
  expect(requests.map((r) => r.status)).toEqual(["confirmed", "confirmed"]);
  expect(f.sim.bookingsOf("maria@southwoods.demo").map((b) => b.time)).toEqual(["06:00"]);
  expect(f.sim.bookingsOf("jose@southwoods.demo").map((b) => b.time)).toEqual(["06:16"]);
  const after = f.clubActions.slice(actionsBefore);
  for (const email of ["maria@southwoods.demo", "jose@southwoods.demo"]) {
    const signIns = after.filter((a) => a.action === "login" && a.email === email);
    expect({ email, signIns: signIns.length }).toEqual({ email, signIns: 1 });
  }
});
