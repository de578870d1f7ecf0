/**
 * The demo club's cancellations: rivals who cancel bookings over time, and the control API's
 * free-slot call (a cancellation at the club, whoever held the slot), so watches can be shown.
 */
import { expect, test } from "bun:test";
import { createClubSim, CONTROL_TOKEN_HEADER } from "../../src/club-sim/index.ts";
import { CLUB_COURSES } from "../../src/club-sim/demo-data.ts";
import { FakeClock } from "../../src/lib/clock.ts";

const START = Date.UTC(2026, 10, 22, 1, 0, 0);
const PLAY = "2026-11-23";

test("the control API frees a booked slot: the booking is gone and the slot AVAILABLE; a token is required and input checked", async () => {
  const sim = createClubSim({
    seed: 3,
    clock: new FakeClock(START),
    prebookedShare: 0,
    blockedShare: 0,
    controlToken: "t0ken",
    rivals: { share: 1, delayMs: 0, popular: (t) => t === "06:00" },
  });
  const taken = sim.runRivals(PLAY);
  expect(taken.length).toBeGreaterThan(0);
  expect(sim.slotStatus(PLAY, "masters", "06:00")).toBe("BOOKED");
  const post = (body: unknown, token = "t0ken") =>
    sim.app.request("/__control/free-slot", { method: "POST", headers: { [CONTROL_TOKEN_HEADER]: token, "content-type": "application/json" }, body: JSON.stringify(body) });

  expect((await post({ date: PLAY, course: "masters", time: "06:00" }, "wrong")).status).toBe(403);
  expect(sim.slotStatus(PLAY, "masters", "06:00")).toBe("BOOKED");
  expect((await post({ date: "23/11/2026", course: "masters", time: "06:00" })).status).toBe(400);
  expect((await post({ date: PLAY, course: "masters", time: "6am" })).status).toBe(400);

  const res = await post({ date: PLAY, course: "masters", time: "06:00" });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { freedRef: string | null; freedAtClubMs: number };
  expect(body.freedRef).toMatch(/^SWB-\d+$/);
  expect(body.freedAtClubMs).toBe(START);
  expect(sim.slotStatus(PLAY, "masters", "06:00")).toBe("AVAILABLE");
  // A free slot freed again: nothing to cancel, still AVAILABLE.
  expect(((await (await post({ date: PLAY, course: "masters", time: "06:00" })).json()) as { freedRef: null }).freedRef).toBeNull();
  sim.close();
});

test("rivals who cancel: every interval one rival booking of a date ahead is cancelled and its slot comes free", async () => {
  const clock = new FakeClock(START);
  const sim = createClubSim({
    seed: 3,
    clock,
    prebookedShare: 0,
    blockedShare: 0,
    rivals: { share: 1, delayMs: 0, popular: (t) => t >= "06:00" && t < "06:20", cancelEveryMs: 60_000 },
  });
  sim.runRivals(PLAY);
  const times = ["06:00", "06:08", "06:16"];
  const booked = () => CLUB_COURSES.flatMap((c) => times.filter((t) => sim.slotStatus(PLAY, c.id, t) === "BOOKED")).length;
  const before = booked();
  expect(before).toBeGreaterThanOrEqual(3);
  await clock.advance(59_000);
  expect(booked()).toBe(before);
  await clock.advance(1_000);
  expect(booked()).toBe(before - 1);
  await clock.advance(60_000);
  expect(booked()).toBe(before - 2);
  sim.close();
  // Stopped: no more cancellations.
  const now = booked();
  await clock.advance(10 * 60_000);
  expect(booked()).toBe(now);
});
