/**
 * Playing partners through the API against the demo club on a shared fake clock (now is Sunday
 * 2026-11-22 09:00 Manila; PLAY 2026-11-30 is released 2026-11-23 07:00): Maria names Jose and
 * Ana, each is invited; their answers reach Maria; a decline takes the partner out of the flight;
 * the release books it and Jose sees it read only "with Maria Santos", in his calendar feed and as
 * a notification. Hostile clients: another member's invitation, a cancelled game, a released one,
 * a second and a concurrent answer, bad bodies and queries: each a clear 4xx.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, flightInvitations, savedPlayers, seriesOccurrences, slotWatches } from "../../src/db/schema.ts";
import type { InvitationsResponse } from "../../src/features/partners/partners.schemas.ts";
import { memberPlayer, PLAY, RELEASE, startReleaseFixture, submission, type ReleaseFixture } from "../jobs/release-engine.fixture.ts";

let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const JOSE = memberPlayer("Reyes", "sw-1002");
const ANA = memberPlayer("Cruz", "SW-1003");

async function start() {
  f = await startReleaseFixture();
  const cookies = { maria: await f.t.signIn("maria", "demo1234"), jose: await f.t.signIn("jose", "demo1234"), ana: await f.t.signIn("ana", "demo1234") };
  return { fx: f, cookies };
}

async function invitationsOf(fx: ReleaseFixture, cookie: string): Promise<InvitationsResponse> {
  const res = await fx.t.call("GET", "/v1/my/invitations", { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as InvitationsResponse;
}

async function lastRequestId(fx: ReleaseFixture): Promise<number> {
  const rows = await fx.t.deps.database.db.select({ id: bookingRequests.id }).from(bookingRequests);
  return rows.at(-1)!.id;
}

/** Maria's request stored over the socket, as the Book page sends it; its id. */
async function submitted(fx: ReleaseFixture, payload: unknown): Promise<number> {
  const answer = await fx.submit("maria", payload);
  if (answer.type !== "submissionResult") throw new Error(`not stored: ${JSON.stringify(answer)}`);
  return lastRequestId(fx);
}

const answer = (fx: ReleaseFixture, cookie: string, id: number, body: unknown) => fx.t.call("POST", `/v1/my/invitations/${id}/answer`, { cookie, body });

describe("playing partners", () => {
  test("the members a request names are invited, answer, and the one who accepted plays in the booking read only", async () => {
    const { fx, cookies } = await start();
    const requestId = await submitted(fx, submission(PLAY, ["06:00"], "masters", [JOSE, ANA]));
    await fx.t.deps.notifier.settled?.();

    const jose = await invitationsOf(fx, cookies.jose);
    expect(jose.received).toHaveLength(1);
    expect(jose.received[0]).toMatchObject({
      status: "pending",
      source: "request",
      organiser: "Maria Santos",
      course: "Masters",
      date: PLAY,
      time: "06:00",
      isOpen: true,
      booking: null,
    });
    const ana = await invitationsOf(fx, cookies.ana);
    expect(ana.received[0]).toMatchObject({ status: "pending", organiser: "Maria Santos" });
    // In the bell, with the invitation's id so it can be answered there.
    const bell = (await (await fx.t.call("GET", "/v1/my/notifications", { cookie: cookies.jose })).json()) as {
      items: { kind: string; text: string; context: Record<string, string> }[];
    };
    expect(bell.items[0]).toMatchObject({ kind: "partner_invited", text: "Maria Santos invites you to play Masters on 2026-11-30 at 06:00." });
    expect(bell.items[0].context.invitationId).toBe(String(jose.received[0].id));

    // The organiser sees each answer beside each player.
    expect((await invitationsOf(fx, cookies.maria)).sent.map((s) => [s.memberId, s.status, s.sourceId])).toEqual([
      ["SW-1002", "pending", requestId],
      ["SW-1003", "pending", requestId],
    ]);
    expect((await answer(fx, cookies.jose, jose.received[0].id, { answer: "accepted" })).status).toBe(200);
    const declined = await answer(fx, cookies.ana, ana.received[0].id, { answer: "declined" });
    expect(declined.status).toBe(200);
    expect(((await declined.json()) as { invitation: { status: string } }).invitation.status).toBe("declined");
    expect((await invitationsOf(fx, cookies.maria)).sent.map((s) => [s.memberId, s.name, s.status, s.course, s.time])).toEqual([
      ["SW-1002", "Reyes", "accepted", "Masters", "06:00"],
      ["SW-1003", "Cruz", "declined", "Masters", "06:00"],
    ]);
    // Ana left the flight before the release; the rule's minimum (1) still holds, so it stays pending.
    const request = await fx.request(requestId);
    expect(request.players.map((p) => p.lastName)).toEqual(["Santos", "Reyes"]);
    expect(request.status).toBe("pending");

    // A second game naming Ana, left unanswered until after the release.
    await submitted(fx, submission(PLAY, ["06:16"], "masters", [ANA]));
    const unanswered = (await invitationsOf(fx, cookies.ana)).received.find((r) => r.status === "pending")!;

    await fx.moveTo(RELEASE);
    await fx.stepUntil(async () => (await fx.request(requestId)).status === "confirmed", 50, 400);
    await fx.t.deps.notifier.settled?.();
    const [booked] = (await invitationsOf(fx, cookies.jose)).received;
    expect(booked.booking).toMatchObject({ course: "Masters", date: PLAY, time: "06:00", players: ["Maria Santos", "Reyes"] });
    expect(booked.isOpen).toBe(false);
    // Jose's own bookings stay his: the organiser's booking is not one he can edit or cancel.
    expect(await (await fx.t.call("GET", "/v1/my/bookings", { cookie: cookies.jose })).json()).toEqual([]);
    const told = (await (await fx.t.call("GET", "/v1/my/notifications", { cookie: cookies.jose })).json()) as { items: { kind: string; text: string }[] };
    expect(told.items[0]).toMatchObject({ kind: "partner_booked", text: `You are playing with Maria Santos: Masters on 2026-11-30 at 06:00 (${booked.booking?.bookingId}).` });
    // Ana, who declined one and never answered the other, is told of neither booking.
    await fx.stepUntil(async () => (await fx.bookingsOf("maria")).length === 2, 50, 400);
    await fx.t.deps.notifier.settled?.();
    const anaTold = (await (await fx.t.call("GET", "/v1/my/notifications", { cookie: cookies.ana })).json()) as { items: { kind: string }[] };
    expect(anaTold.items.map((i) => i.kind)).toEqual(["partner_invited", "partner_invited"]);

    // His calendar feed has the game.
    const address = (await (await fx.t.call("POST", "/v1/my/calendar", { cookie: cookies.jose, body: {} })).json()) as { url: string };
    const feed = await (await fx.t.call("GET", new URL(address.url).pathname)).text();
    expect(feed).toContain("SUMMARY:Golf with Maria Santos: Masters at 06:00");

    // Released: an answer can no longer change it.
    const late = await answer(fx, cookies.ana, unanswered.id, { answer: "declined" });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ message: "That game has already been released; the answer can no longer change it.", errorKey: "partners.error.released" });
    expect((await fx.bookingsOf("maria")).find((b) => b.time === "06:16")?.players.map((p) => p.lastName)).toEqual(["Santos", "Cruz"]);
  }, 30_000);

  test("another member's invitation is not found; a second answer, a cancelled game and a released one are conflicts; bad input is a 400", async () => {
    const { fx, cookies } = await start();
    await submitted(fx, submission(PLAY, ["06:00"], "masters", [JOSE]));
    const [invitation] = (await invitationsOf(fx, cookies.jose)).received;

    const notHers = await answer(fx, cookies.ana, invitation.id, { answer: "accepted" });
    expect(notHers.status).toBe(404);
    expect(await notHers.json()).toMatchObject({ message: "That invitation was not found.", errorKey: "partners.error.not_found" });
    expect((await answer(fx, cookies.maria, invitation.id, { answer: "declined" })).status).toBe(404);
    expect((await answer(fx, cookies.jose, 999_999, { answer: "accepted" })).status).toBe(404);
    for (const body of [{}, { answer: "maybe" }, { answer: "accepted", extra: 1 }, []]) {
      const res = await answer(fx, cookies.jose, invitation.id, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBeString();
    }
    expect((await fx.t.call("POST", "/v1/my/invitations/abc/answer", { cookie: cookies.jose, body: { answer: "accepted" } })).status).toBe(400);
    expect((await fx.t.call("POST", `/v1/my/invitations/${invitation.id}/answer`, { body: { answer: "accepted" } })).status).toBe(401);

    expect((await answer(fx, cookies.jose, invitation.id, { answer: "accepted" })).status).toBe(200);
    const twice = await answer(fx, cookies.jose, invitation.id, { answer: "declined" });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ message: "You have already answered that invitation.", errorKey: "partners.error.answered" });

    // A game the organiser cancelled: its invitation is withdrawn.
    const requestId = await submitted(fx, submission(PLAY, ["06:08"], "masters", [ANA]));
    const [toAna] = (await invitationsOf(fx, cookies.ana)).received;
    await fx.t.deps.hub.dispatch({ user: await fx.user("maria"), sessionId: "s" }, JSON.stringify({ action: "CANCEL_REQUEST", payload: { id: requestId } }), () => undefined);
    const withdrawn = await answer(fx, cookies.ana, toAna.id, { answer: "accepted" });
    expect(withdrawn.status).toBe(409);
    expect(await withdrawn.json()).toMatchObject({ errorKey: "partners.error.cancelled" });
    expect((await invitationsOf(fx, cookies.ana)).received).toEqual([]);
  }, 30_000);

  test("two answers at once: exactly one is taken", async () => {
    const { fx, cookies } = await start();
    await submitted(fx, submission(PLAY, ["06:00"], "masters", [JOSE]));
    const [invitation] = (await invitationsOf(fx, cookies.jose)).received;
    const answers = await Promise.all([answer(fx, cookies.jose, invitation.id, { answer: "accepted" }), answer(fx, cookies.jose, invitation.id, { answer: "declined" })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const [row] = await fx.t.deps.database.db.select().from(flightInvitations).where(eq(flightInvitations.id, invitation.id));
    const taken = answers[0].status === 200 ? "accepted" : "declined";
    expect(row.status).toBe(taken);
    // The flight agrees with the answer taken.
    const request = await fx.request(await lastRequestId(fx));
    expect(request.players.some((p) => p.lastName === "Reyes")).toBe(taken === "accepted");
  }, 30_000);

  test("a member who takes no invitations, or only from saved players, is not invited; the organiser sees it", async () => {
    const { fx, cookies } = await start();
    const setting = (cookie: string, body: unknown) => fx.t.call("PUT", "/v1/my/invitations/settings", { cookie, body });
    expect((await setting(cookies.ana, { from: "nobody" })).status).toBe(200);
    expect((await setting(cookies.jose, { from: "saved" })).status).toBe(200);
    expect((await setting(cookies.jose, { from: "friends" })).status).toBe(400);
    expect((await setting(cookies.jose, {})).status).toBe(400);
    expect((await invitationsOf(fx, cookies.ana)).from).toBe("nobody");

    await submitted(fx, submission(PLAY, ["06:00"], "masters", [JOSE, ANA]));
    expect((await invitationsOf(fx, cookies.maria)).sent.map((s) => [s.memberId, s.status])).toEqual([
      ["SW-1002", "refused"],
      ["SW-1003", "refused"],
    ]);
    expect((await invitationsOf(fx, cookies.ana)).received).toEqual([]);
    expect((await invitationsOf(fx, cookies.jose)).received).toEqual([]);
    await fx.t.deps.notifier.settled?.();
    const bell = (await (await fx.t.call("GET", "/v1/my/notifications", { cookie: cookies.jose })).json()) as { items: unknown[] };
    expect(bell.items).toEqual([]);

    // Maria on Jose's saved players: her next game invites him.
    const joseId = (await fx.user("jose")).id;
    await fx.t.deps.database.db.insert(savedPlayers).values({ userId: joseId, lastName: "Santos", firstName: "Maria", type: "Member", memberId: "SW-1001" });
    await submitted(fx, submission(PLAY, ["06:16"], "masters", [JOSE]));
    expect((await invitationsOf(fx, cookies.jose)).received.map((r) => [r.status, r.time])).toEqual([["pending", "06:16"]]);
  }, 30_000);

  test("the overlap check names a member already in another member's flight that day within a round", async () => {
    const { fx, cookies } = await start();
    await submitted(fx, submission(PLAY, ["06:00"], "masters", [JOSE]));
    const check = (query: string) => fx.t.call("GET", `/v1/my/partners/overlaps?${query}`, { cookie: cookies.ana });
    const near = await check(`date=${PLAY}&time=08:00&memberIds=SW-1003,sw-1002`);
    expect(near.status).toBe(200);
    expect(await near.json()).toEqual({ overlaps: [{ memberId: "SW-1002", time: "06:00" }] });
    expect(await (await check(`date=${PLAY}&time=11:00&memberIds=SW-1002`)).json()).toEqual({ overlaps: [] });
    expect(await (await check(`date=2026-12-01&time=06:00&memberIds=SW-1002`)).json()).toEqual({ overlaps: [] });
    // The organiser's own flights are hers to arrange (a fallback beside a request).
    expect(await (await fx.t.call("GET", `/v1/my/partners/overlaps?date=${PLAY}&time=07:00&memberIds=SW-1002`, { cookie: cookies.maria })).json()).toEqual({ overlaps: [] });
    for (const bad of [
      `date=tomorrow&time=08:00&memberIds=A`,
      `date=${PLAY}&time=25:00&memberIds=A`,
      `date=${PLAY}&time=08:00`,
      `date=${PLAY}&time=08:00&memberIds=${"A,".repeat(9)}A`,
    ]) {
      const res = await check(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBeString();
    }
  }, 30_000);

  test("an edit that drops a partner withdraws their invitation; naming them again invites them afresh", async () => {
    const { fx, cookies } = await start();
    const id = await submitted(fx, submission(PLAY, ["06:00"], "masters", [JOSE, ANA]));
    const [toAna] = (await invitationsOf(fx, cookies.ana)).received;
    expect((await answer(fx, cookies.ana, toAna.id, { answer: "declined" })).status).toBe(200);

    await submitted(fx, { ...submission(PLAY, ["06:08"], "masters", [ANA]), editTarget: id });
    expect((await invitationsOf(fx, cookies.jose)).received).toEqual([]);
    const again = (await invitationsOf(fx, cookies.ana)).received;
    expect(again.map((r) => [r.id, r.status, r.time])).toEqual([[toAna.id, "pending", "06:08"]]);
    expect((await invitationsOf(fx, cookies.maria)).sent.map((s) => [s.memberId, s.status])).toEqual([["SW-1003", "pending"]]);
  }, 30_000);

  test("each date of a standing request invites on its own, and a slot watch invites until it ends", async () => {
    const { fx, cookies } = await start();
    const series = await fx.t.call("POST", "/v1/my/series", {
      cookie: cookies.maria,
      body: { course: "masters", times: ["06:00"], weekdays: [1], startDate: "2026-11-23", memberCartType: "Rental Cart - Solo", playerDetails: { players: [JOSE] } },
    });
    expect(series.status).toBe(201);
    // Tomorrow's date was released a week ago: its request goes at once, so Jose is not asked (he is told if it is booked).
    const dates = (await invitationsOf(fx, cookies.jose)).received.map((r) => [r.date, r.status, r.source, r.isOpen]);
    expect(dates).toEqual([
      ["2026-11-23", "unasked", "request", false],
      ["2026-11-30", "pending", "request", true],
    ]);

    const made = await fx.t.call("POST", "/v1/my/watches", {
      cookie: cookies.maria,
      body: { course: "masters", targetDate: PLAY, memberCartType: "Rental Cart - Solo", playerDetails: { players: [ANA] }, fromTime: "06:00", toTime: "07:00", mode: "book" },
    });
    expect(made.status).toBe(201);
    const watchId = ((await made.json()) as { watch: { id: number } }).watch.id;
    const [byWatch] = (await invitationsOf(fx, cookies.ana)).received;
    expect(byWatch).toMatchObject({ source: "watch", organiser: "Maria Santos", date: PLAY, time: "06:00", isOpen: true });
    expect((await fx.t.call("POST", `/v1/my/watches/${watchId}/cancel`, { cookie: cookies.maria, body: {} })).status).toBe(204);
    expect((await invitationsOf(fx, cookies.ana)).received).toEqual([]);
    expect((await answer(fx, cookies.ana, byWatch.id, { answer: "accepted" })).status).toBe(409);
  }, 30_000);

  test("a request, a standing request's date and a watch are stored with their partners' invitations or not at all", async () => {
    const { fx, cookies } = await start();
    const { database } = fx.t.deps;
    const count = async (table: typeof bookingRequests | typeof slotWatches | typeof seriesOccurrences) => (await database.db.select().from(table)).length;
    // Invitations that cannot be written, as a full disk or a lost connection would leave them.
    await database.execute("CREATE TRIGGER invitations_fail BEFORE INSERT ON flight_invitations BEGIN SELECT RAISE(ABORT, 'invitations cannot be written'); END;");

    const refused = await fx.submit("maria", submission(PLAY, ["06:00"], "masters", [JOSE]));
    expect(refused.type).not.toBe("submissionResult");
    const watch = await fx.t.call("POST", "/v1/my/watches", {
      cookie: cookies.maria,
      body: { course: "masters", targetDate: PLAY, memberCartType: "Rental Cart - Solo", playerDetails: { players: [ANA] }, fromTime: "06:00", toTime: "07:00", mode: "book" },
    });
    expect(watch.status).toBe(500);
    const series = await fx.t.call("POST", "/v1/my/series", {
      cookie: cookies.maria,
      body: { course: "masters", times: ["06:00"], weekdays: [1], startDate: "2026-11-23", memberCartType: "Rental Cart - Solo", playerDetails: { players: [JOSE] } },
    });
    expect(series.status).toBe(500);
    // Nothing the engine or the watch job could take without its partners.
    expect([await count(bookingRequests), await count(slotWatches), await count(seriesOccurrences)]).toEqual([0, 0, 0]);

    await database.execute("DROP TRIGGER invitations_fail;");
    expect((await fx.submit("maria", submission(PLAY, ["06:00"], "masters", [JOSE]))).type).toBe("submissionResult");
    expect((await invitationsOf(fx, cookies.jose)).received.map((r) => r.status)).toEqual(["pending"]);
  }, 30_000);

  test("an edit keeps 'send only if every partner has accepted' unless it says otherwise; the request list shows it; a value that is not true or false is refused", async () => {
    const { fx, cookies } = await start();
    const id = await submitted(fx, { ...submission(PLAY, ["06:00"], "masters", [JOSE]), partnersMustAccept: true });
    const listed = async () => {
      const res = await fx.t.call("GET", "/v1/my/requests", { cookie: cookies.maria });
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: number; times: string[]; partnersMustAccept: boolean }[]).find((r) => r.id === id);
    };
    expect(await listed()).toMatchObject({ times: ["06:00"], partnersMustAccept: true });

    // Another time, the option left out (a client that does not know it): it stays on.
    await submitted(fx, { ...submission(PLAY, ["06:08"], "masters", [JOSE]), editTarget: id });
    expect(await listed()).toMatchObject({ times: ["06:08"], partnersMustAccept: true });
    // Turned off by the edit, and on again.
    await submitted(fx, { ...submission(PLAY, ["06:08"], "masters", [JOSE]), editTarget: id, partnersMustAccept: false });
    expect(await listed()).toMatchObject({ partnersMustAccept: false });
    await submitted(fx, { ...submission(PLAY, ["06:16"], "masters", [JOSE]), editTarget: id, partnersMustAccept: true });
    expect(await listed()).toMatchObject({ times: ["06:16"], partnersMustAccept: true });

    for (const hostile of ["false", 0, null, { on: true }]) {
      const refused = await fx.submit("maria", { ...submission(PLAY, ["06:24"], "masters", [JOSE]), editTarget: id, partnersMustAccept: hostile });
      expect(refused).toMatchObject({ type: "error", message: expect.any(String), errorKey: expect.any(String) });
    }
    expect(await listed()).toMatchObject({ times: ["06:16"], partnersMustAccept: true });
    // The same submission over HTTP (a booking's edit) answers the error shape with its 400.
    const http = await fx.t.call("POST", "/v1/bookings/SW-NONE/edit", {
      cookie: cookies.maria,
      body: { ...submission(PLAY, ["06:24"], "masters", [JOSE]), partnersMustAccept: "yes" },
    });
    expect(http.status).toBe(400);
    expect(await http.json()).toMatchObject({ message: expect.any(String), errorKey: expect.any(String) });
  }, 30_000);

  test("a standing request gives each date its 'send only if every partner has accepted'; a change keeps it unless it says otherwise", async () => {
    const { fx, cookies } = await start();
    const body = { course: "masters", times: ["06:00"], weekdays: [1], startDate: PLAY, memberCartType: "Rental Cart - Solo", playerDetails: { players: [JOSE] } };
    const made = await fx.t.call("POST", "/v1/my/series", { cookie: cookies.maria, body: { ...body, partnersMustAccept: true } });
    expect(made.status).toBe(201);
    const series = ((await made.json()) as { series: { id: number; partnersMustAccept: boolean } }).series;
    expect(series.partnersMustAccept).toBe(true);
    const dateRequest = async () => (await fx.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.playDate, PLAY)))[0];
    expect(await dateRequest()).toMatchObject({ partnersMustAccept: true, status: "pending" });

    const change = (extra: Record<string, unknown>) => fx.t.call("PUT", `/v1/my/series/${series.id}`, { cookie: cookies.maria, body: { ...body, ...extra } });
    const kept = await change({ times: ["06:08"] });
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as { series: { partnersMustAccept: boolean } }).series.partnersMustAccept).toBe(true);
    expect(await dateRequest()).toMatchObject({ partnersMustAccept: true, selection: [{ time: "06:08", slotId: null }] });

    expect((await change({ times: ["06:08"], partnersMustAccept: false })).status).toBe(200);
    expect(await dateRequest()).toMatchObject({ partnersMustAccept: false });
    const hostile = await change({ partnersMustAccept: "yes" });
    expect(hostile.status).toBe(400);
    expect(await hostile.json()).toMatchObject({ message: expect.any(String), errorKey: expect.any(String) });
    expect(await dateRequest()).toMatchObject({ partnersMustAccept: false });
  }, 30_000);

  test("a request released as it is made asks no partner: nothing to answer, nothing in the bell, and told once it is booked", async () => {
    const { fx, cookies } = await start();
    // Tomorrow was released a week ago: the request goes to the club at once.
    const late = "2026-11-23";
    const requestId = await submitted(fx, submission(late, ["06:00"], "masters", [JOSE]));
    const [row] = await fx.t.deps.database.db.select().from(flightInvitations).where(eq(flightInvitations.sourceId, requestId));
    expect(row).toMatchObject({ status: "unasked", sourceKind: "request" });
    await fx.stepUntil(async () => (await fx.request(requestId)).status === "confirmed", 50, 400);
    await fx.t.deps.notifier.settled?.();

    const bell = (await (await fx.t.call("GET", "/v1/my/notifications", { cookie: cookies.jose })).json()) as { items: { kind: string; text: string }[] };
    expect(bell.items.map((i) => i.kind)).toEqual(["partner_booked"]);
    const [booking] = await fx.bookingsOf("maria");
    expect(bell.items[0].text).toBe(`You are playing with Maria Santos: Masters on ${late} at 06:00 (${booking.bookingRef}).`);
    const [received] = (await invitationsOf(fx, cookies.jose)).received;
    expect(received).toMatchObject({ status: "unasked", isOpen: false, booking: { bookingId: booking.bookingRef, time: "06:00" } });
    expect((await invitationsOf(fx, cookies.maria)).sent.map((s) => [s.memberId, s.status])).toEqual([["SW-1002", "unasked"]]);
    const answered = await answer(fx, cookies.jose, received.id, { answer: "accepted" });
    expect(answered.status).toBe(409);
    expect(await answered.json()).toMatchObject({ errorKey: "partners.error.released" });
  }, 30_000);
});
