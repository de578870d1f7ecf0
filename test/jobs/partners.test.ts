/**
 * Playing partners and the request lifecycle, against the demo club on a fake clock (now is Sunday
 * 2026-11-22 09:00 Manila; PLAY 2026-11-30 is released 2026-11-23 07:00): a partner who declines
 * leaves the flight before the release, and a flight then below the rule's minimum needs attention
 * with that reason (and is not sent); "send only if every partner has accepted" holds the request
 * at the readiness check until they have; a member in two flights within a round is a finding.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, bookingRules, flightInvitations, slotWatches } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { publishAll, storeWatchPartners } from "../../src/services/partners.ts";
import { memberPlayer, PLAY, RELEASE, startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const JOSE = memberPlayer("Reyes", "SW-1002");
const ANA = memberPlayer("Cruz", "SW-1003");

async function submitAs(fx: ReleaseFixture, username: string, payload: unknown): Promise<number> {
  const answer = await fx.submit(username, payload);
  if (answer.type !== "submissionResult") throw new Error(`not stored: ${JSON.stringify(answer)}`);
  return (await fx.t.deps.database.db.select({ id: bookingRequests.id }).from(bookingRequests)).at(-1)!.id;
}

async function answerAs(fx: ReleaseFixture, username: string, requestId: number, answer: "accepted" | "declined"): Promise<void> {
  const invitee = await fx.user(username);
  const [invitation] = await fx.t.deps.database.db.select().from(flightInvitations).where(eq(flightInvitations.sourceId, requestId));
  const mine =
    (await fx.t.deps.database.db.select().from(flightInvitations).where(eq(flightInvitations.inviteeId, invitee.id))).find((i) => i.sourceId === requestId) ?? invitation;
  const cookie = await fx.t.signIn(username, "demo1234");
  const res = await fx.t.call("POST", `/v1/my/invitations/${mine.id}/answer`, { cookie, body: { answer } });
  if (res.status !== 200) throw new Error(`answer refused: ${res.status} ${await res.text()}`);
}

/** The readiness check's next look fails the request with its unfixed problem, and nothing was posted to the club since `postsBefore`. */
async function expectFailedUnsent(fx: ReleaseFixture, requestId: number, postsBefore: number): Promise<void> {
  await fx.t.deps.readiness.tick();
  await fx.engine.idle();
  expect(await fx.request(requestId)).toMatchObject({ status: "failed", reasonKey: "readiness.reason.not_fixed" });
  expect(fx.clubActions.slice(postsBefore).filter((a) => a.action === "book")).toEqual([]);
}

describe("partners and the request lifecycle", () => {
  test("a decline takes the partner out before the release; below the rule's minimum the request needs attention and is not sent", async () => {
    f = await startReleaseFixture();
    // The club asks for three players every morning.
    await f.t.deps.database.db
      .insert(bookingRules)
      .values({ priority: 1, daysOfWeek: [1, 2, 3, 4, 5, 6, 7], startTime: "05:00", endTime: "17:00", minPlayers: 3, maxPlayers: 4, maxGuests: 3 });
    const id = await submitAs(f, "maria", submission(PLAY, ["06:00"], "masters", [JOSE, ANA]));
    expect((await f.request(id)).status).toBe("pending");

    await answerAs(f, "jose", id, "accepted");
    expect((await f.request(id)).status).toBe("pending");
    await answerAs(f, "ana", id, "declined");
    const row = await f.request(id);
    expect(row.players.map((p) => p.lastName)).toEqual(["Santos", "Reyes"]);
    expect(row).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.declined_below_minimum", reasonContext: { name: "Cruz", minPlayers: "3" } });
    await f.t.deps.notifier.settled?.();
    const maria = await f.t.signIn("maria", "demo1234");
    const bell = (await (await f.t.call("GET", "/v1/my/notifications", { cookie: maria })).json()) as { items: { kind: string; text: string }[] };
    expect(bell.items[0]).toMatchObject({
      kind: "needs_attention",
      text: "Your request for Masters on 2026-11-30 needs attention: Cruz declined; the flight is below the minimum of 3 players.",
    });

    // At the release it is still short: nothing is sent to the club, and it fails with the reason.
    const posts = f.clubActions.length;
    await f.moveTo(RELEASE);
    await expectFailedUnsent(f, id, posts);
  });

  test("a decline that leaves the rule's minimum keeps the request pending", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const id = await submitAs(f, "maria", submission(PLAY, ["06:00"], "masters", [JOSE]));
    await answerAs(f, "jose", id, "declined");
    expect(await f.request(id)).toMatchObject({ status: "pending", reasonKey: null });
    expect((await f.request(id)).players.map((p) => p.lastName)).toEqual(["Santos"]);
  });

  test("'send only if every partner has accepted' holds the request at the readiness check until they have", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const id = await submitAs(f, "maria", { ...submission(PLAY, ["06:00"], "masters", [JOSE, ANA]), partnersMustAccept: true });
    expect((await f.request(id)).partnersMustAccept).toBe(true);
    await answerAs(f, "ana", id, "accepted");
    const maria = await f.user("maria");
    await f.t.deps.readiness.checkMember(maria.id);
    expect(await f.request(id)).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.not_accepted", reasonContext: { names: "Reyes" } });

    await answerAs(f, "jose", id, "accepted");
    await f.t.deps.readiness.checkMember(maria.id);
    expect(await f.request(id)).toMatchObject({ status: "pending", reasonKey: null });
  });

  test("a request made after the day's check is still held just before its release when a partner has not accepted", async () => {
    f = await startReleaseFixture({ startEngine: false, now: manilaInstant("2026-11-22", "20:00") });
    const id = await submitAs(f, "maria", { ...submission(PLAY, ["06:00"], "masters", [JOSE]), partnersMustAccept: true });
    await f.clock.set(RELEASE - 60_000);
    await f.t.deps.readiness.tick();
    expect(await f.request(id)).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.not_accepted" });
    // Without the option a partner's silence does not hold it.
    const other = await submitAs(f, "maria", submission(PLAY, ["06:08"], "masters", [JOSE]));
    await f.t.deps.readiness.tick();
    expect((await f.request(other)).status).toBe("pending");
  });

  test("a member in two flights on one day within a round is a readiness finding", async () => {
    f = await startReleaseFixture({ startEngine: false });
    await submitAs(f, "maria", submission(PLAY, ["06:00"], "masters", [JOSE]));
    const anas = await submitAs(f, "ana", submission(PLAY, ["06:08"], "masters", [JOSE]));
    const later = await submitAs(f, "ana", submission("2026-12-01", ["06:08"], "masters", [JOSE]));
    await f.t.deps.readiness.checkMember((await f.user("ana")).id);
    expect(await f.request(anas)).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.overlap", reasonContext: { member: "Reyes (SW-1002)", time: "06:00" } });
    expect((await f.request(later)).status).toBe("pending");
  });

  test("the readiness check holds an edited request by the option as the edit left it", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const maria = await f.user("maria");
    const check = async () => {
      await f?.t.deps.readiness.checkMember(maria.id);
      return f?.request(id);
    };
    const id = await submitAs(f, "maria", { ...submission(PLAY, ["06:00"], "masters", [JOSE]), partnersMustAccept: true });
    // Another time, the option not said: it still asks for Jose's answer.
    expect(await submitAs(f, "maria", { ...submission(PLAY, ["06:08"], "masters", [JOSE]), editTarget: id })).toBe(id);
    expect(await check()).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.not_accepted", reasonContext: { names: "Reyes" } });
    // Turned off: his silence no longer holds it.
    await submitAs(f, "maria", { ...submission(PLAY, ["06:08"], "masters", [JOSE]), editTarget: id, partnersMustAccept: false });
    expect(await check()).toMatchObject({ status: "pending", reasonKey: null });
    // On again: held until he accepts.
    await submitAs(f, "maria", { ...submission(PLAY, ["06:08"], "masters", [JOSE]), editTarget: id, partnersMustAccept: true });
    expect(await check()).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.not_accepted" });
    await answerAs(f, "jose", id, "accepted");
    expect(await check()).toMatchObject({ status: "pending", reasonKey: null });
  });

  test("a request released as it is made that asks every partner to accept is not sent: nobody could be asked", async () => {
    f = await startReleaseFixture();
    const posts = f.clubActions.length;
    // Tomorrow was released a week ago.
    const id = await submitAs(f, "maria", { ...submission("2026-11-23", ["06:00"], "masters", [JOSE]), partnersMustAccept: true });
    await f.engine.idle();
    expect(await f.request(id)).toMatchObject({ status: "needs_attention", reasonKey: "partners.reason.not_accepted", reasonContext: { names: "Reyes" } });
    const [invitation] = await f.t.deps.database.db.select().from(flightInvitations).where(eq(flightInvitations.sourceId, id));
    expect(invitation.status).toBe("unasked");
    // The check's next look fails it with that cause; nothing went to the club.
    await expectFailedUnsent(f, id, posts);
  });

  test("a slot watch asks its partners while it watches; one that has booked meanwhile asks nobody", async () => {
    f = await startReleaseFixture({ startEngine: false });
    const maria = await f.t.signIn("maria", "demo1234");
    const made = await f.t.call("POST", "/v1/my/watches", {
      cookie: maria,
      body: { course: "masters", targetDate: PLAY, memberCartType: "Rental Cart - Solo", playerDetails: { players: [ANA] }, fromTime: "06:00", toTime: "07:00", mode: "book" },
    });
    expect(made.status).toBe(201);
    const watchId = ((await made.json()) as { watch: { id: number } }).watch.id;
    const invitationsOf = () => f!.t.deps.database.db.select().from(flightInvitations).where(eq(flightInvitations.sourceId, watchId));
    expect((await invitationsOf()).map((i) => i.status)).toEqual(["pending"]);

    // It books before the invitations of a flight naming Jose too are written (the row in hand still says watching).
    const { db } = f.t.deps.database;
    const [watch] = await db.select().from(slotWatches).where(eq(slotWatches.id, watchId));
    const stale = { ...watch, players: [...watch.players, { ...watch.players[1], lastName: "Reyes", memberId: "SW-1002" }] };
    await db.update(slotWatches).set({ status: "booked", players: stale.players }).where(eq(slotWatches.id, watchId));
    publishAll(f.t.deps.notifier, await storeWatchPartners(db, stale, f.clock.now()));
    const joseId = (await f.user("jose")).id;
    expect((await invitationsOf()).map((i) => [i.inviteeId === joseId ? "jose" : "ana", i.status])).toEqual([
      ["ana", "pending"],
      ["jose", "unasked"],
    ]);
    await f.t.deps.notifier.settled?.();
    const jose = await f.t.signIn("jose", "demo1234");
    const bell = (await (await f.t.call("GET", "/v1/my/notifications", { cookie: jose })).json()) as { items: { kind: string }[] };
    expect(bell.items).toEqual([]);
  });
});
