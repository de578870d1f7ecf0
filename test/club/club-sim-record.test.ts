/**
 * The demo club's own record, for a soak to hold Teebox to: every request it answered counted by
 * club-clock minute, kind and member (taken and cleared through the control API, a fault's 503
 * counted too), every booking it holds, and an attempt log that stays bounded.
 */
import { expect, test } from "bun:test";
import { createClubSim, CONTROL_TOKEN_HEADER, type SimBooking, type TrafficCount } from "../../src/club-sim/index.ts";
import { ClubState, MAX_ATTEMPT_RECORDS } from "../../src/club-sim/state.ts";
import { kindOf } from "../../src/club-sim/traffic.ts";
import { FakeClock } from "../../src/lib/clock.ts";

const START = Date.UTC(2026, 10, 22, 1, 0, 30);
const MARIA = { email: "maria@southwoods.demo", password: "maria-club" };

function club() {
  const clock = new FakeClock(START);
  const sim = createClubSim({ seed: 3, clock, prebookedShare: 0, blockedShare: 0, controlToken: "t0ken" });
  const control = (method: string, path: string, body?: unknown) =>
    sim.app.request(`/__control${path}`, {
      method,
      headers: { [CONTROL_TOKEN_HEADER]: "t0ken", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { clock, sim, control };
}

/** Signs Maria in through the club's own pages; her session cookie. */
async function signIn(sim: ReturnType<typeof createClubSim>): Promise<string> {
  const form = await sim.app.request("/login");
  const preId = /sw_login=([^;]+)/.exec(form.headers.get("set-cookie") ?? "")?.[1] ?? "";
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const posted = await sim.app.request("/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `sw_login=${preId}` },
    body: new URLSearchParams({ _csrf: token, email: MARIA.email, password: MARIA.password }).toString(),
  });
  return /SWSESSION=([^;]+)/.exec(posted.headers.get("set-cookie") ?? "")?.[1] ?? "";
}

test("every request is counted by minute, kind and member, a fault's answer too; taking the counts clears them", async () => {
  const { clock, sim, control } = club();
  const session = await signIn(sim);
  expect(session).not.toBe("");
  await sim.app.request("/members/tee-sheet?date=2026-11-23&course=masters", { headers: { cookie: `SWSESSION=${session}` } });
  await clock.advance(60_000);
  sim.setFaults({ down: true });
  await sim.app.request("/members/bookings", { headers: { cookie: `SWSESSION=${session}` } });
  sim.setFaults({ down: false });

  const { traffic } = (await (await control("POST", "/traffic/take")).json()) as { traffic: TrafficCount[] };
  const minute = Math.floor(START / 60_000) * 60_000;
  expect(traffic).toEqual([
    { minuteMs: minute, kind: "login_form", email: "", serverErrors: 0, count: 1 },
    { minuteMs: minute, kind: "login", email: MARIA.email, serverErrors: 0, count: 1 },
    { minuteMs: minute, kind: "tee_sheet", email: MARIA.email, serverErrors: 0, count: 1 },
    { minuteMs: minute + 60_000, kind: "bookings", email: MARIA.email, serverErrors: 1, count: 1 },
  ]);
  // The control API itself is not counted, and a take clears.
  expect(((await (await control("POST", "/traffic/take")).json()) as { traffic: TrafficCount[] }).traffic).toEqual([]);
  sim.close();
});

test("the kinds of request", () => {
  expect(kindOf("POST", "/members/book")).toBe("book");
  expect(kindOf("GET", "/members/book")).toBe("book_form");
  expect(kindOf("POST", "/members/bookings/SWB-1/cancel")).toBe("cancel");
  expect(kindOf("POST", "/members/bookings/SWB-1/edit")).toBe("edit");
  expect(kindOf("GET", "/advisories")).toBe("advisories");
  expect(kindOf("GET", "/favicon.ico")).toBe("other");
});

test("the control API lists every booking the club holds, of every member", async () => {
  const { sim, control } = club();
  const all = async () => ((await (await control("GET", "/bookings/all")).json()) as { bookings: SimBooking[] }).bookings;
  expect(await all()).toEqual([]);
  const rivals = createClubSim({
    seed: 3,
    clock: new FakeClock(START),
    prebookedShare: 0,
    blockedShare: 0,
    controlToken: "t0ken",
    rivals: { share: 1, delayMs: 0, popular: (t) => t === "06:00" },
  });
  rivals.runRivals("2026-11-23");
  const listed = ((await (await rivals.app.request("/__control/bookings/all", { headers: { [CONTROL_TOKEN_HEADER]: "t0ken" } })).json()) as { bookings: SimBooking[] }).bookings;
  expect(listed.length).toBeGreaterThan(0);
  expect(listed.map((b) => `${b.date} ${b.time} ${b.email.endsWith("@rivals.demo")}`)).toEqual(listed.map(() => "2026-11-23 06:00 true"));
  rivals.close();
  sim.close();
});

test("the attempt log keeps the newest posts only, so a demo club running for months stays bounded", () => {
  const state = new ClubState({ seed: 1, releaseDaysBefore: 7, releaseTime: "07:00", idleMinutes: 20, prebookedShare: 0, blockedShare: 0, accounts: [] });
  const post = (n: number) => ({
    slotId: `MAS-${n}`,
    date: "2026-11-23",
    time: "06:00",
    course: "masters",
    email: "",
    arrivedClubMs: n,
    outcome: "slot_taken" as const,
    ref: null,
    isRival: false,
  });
  for (let n = 0; n < MAX_ATTEMPT_RECORDS * 1.5; n++) state.recordAttempt(post(n));
  const kept = state.attempts();
  expect(kept.length).toBeGreaterThanOrEqual(MAX_ATTEMPT_RECORDS);
  expect(kept.length).toBeLessThanOrEqual(MAX_ATTEMPT_RECORDS * 1.1);
  expect(kept.at(-1)!.arrivedClubMs).toBe(MAX_ATTEMPT_RECORDS * 1.5 - 1);
});
