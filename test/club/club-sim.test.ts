import { describe, expect, test } from "bun:test";
import { createClubSim, CONTROL_TOKEN_HEADER, type ClubSimOptions } from "../../src/club-sim/index.ts";
import { CLUB_COURSES, DEMO_CLUB_ACCOUNTS, generateAccounts } from "../../src/club-sim/demo-data.ts";
import { findCourse, parseSlotId, slotIdOf, teeTimesFor } from "../../src/club-sim/tee-sheet.ts";
import { addDays, manilaDate, manilaInstant } from "../../src/domain/manila-time.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { MARIA_ALONE, SimBrowser, slotOf } from "./sim-browser.ts";

// Monday 3 March 2025, 08:00 Manila: with 7 days at 07:00, dates up to Monday 10 March are open.
const START = manilaInstant("2025-03-03", "08:00");

function setup(options: ClubSimOptions = {}) {
  const clock = new FakeClock(START);
  const sim = createClubSim({ seed: 11, clock, prebookedShare: 0, blockedShare: 0, ...options });
  return { clock, sim, browser: new SimBrowser(sim) };
}

async function signedIn(options: ClubSimOptions = {}) {
  const context = setup(options);
  const answer = await context.browser.login("maria@southwoods.demo", "maria-club");
  expect(answer.status).toBe(302);
  return context;
}

describe("tee sheet generator", () => {
  const masters = findCourse("masters")!;
  const legends = findCourse("legends")!;

  test("courses run on their active days only", () => {
    expect(teeTimesFor("2025-03-09", masters)).toEqual([]); // Sunday
    expect(teeTimesFor("2025-03-03", legends)).toEqual([]); // Monday
    expect(teeTimesFor("2025-03-03", masters).length).toBeGreaterThan(0);
    expect(teeTimesFor("2025-03-09", legends).length).toBeGreaterThan(0);
  });

  test("Masters keeps the mid-morning block out, at 8-minute intervals", () => {
    const times = teeTimesFor("2025-03-08", masters);
    expect(times.slice(0, 3)).toEqual(["05:04", "05:12", "05:20"]);
    expect(times).toContain("07:52");
    expect(times.some((t) => t > "07:52" && t < "11:00")).toBe(false);
    expect(times.at(-1)).toBe("16:44");
  });

  test("Sunday Legends goes to 4-minute intervals from 11:00 and ends at 16:48", () => {
    const times = teeTimesFor("2025-03-09", legends);
    const eleven = times.indexOf("11:00");
    expect(times.slice(eleven - 1, eleven + 3)).toEqual(["10:56", "11:00", "11:04", "11:08"]);
    expect(times.at(-1)).toBe("16:48");
    expect(teeTimesFor("2025-03-05", legends)).not.toContain("11:04"); // weekdays stay at 8 minutes
  });

  test("slot ids are stable and name their slot", () => {
    expect(slotIdOf("2025-03-05", "masters", "05:04")).toBe("MAS-20250305-0504");
    expect(parseSlotId("LEG-20250309-1104")).toEqual({ date: "2025-03-09", courseId: "legends", time: "11:04" });
    expect(parseSlotId("nonsense")).toBeNull();
  });

  test("demo data matches the facts Teebox seeds", () => {
    expect(CLUB_COURSES.map((c) => [c.id, c.name, c.daysActive])).toEqual([
      ["masters", "Masters", [1, 2, 3, 4, 5, 6]],
      ["legends", "Legends", [2, 3, 4, 5, 6, 7]],
    ]);
    expect(DEMO_CLUB_ACCOUNTS.map((a) => a.membershipNumber)).toEqual(["SW-0001", "SW-1001", "SW-1002", "SW-1003"]);
    expect(generateAccounts(100)).toHaveLength(100);
  });
});

describe("login and sessions", () => {
  test("a protected page sends a visitor to the login page", async () => {
    const { browser } = setup();
    const page = await browser.get("/members/tee-sheet?date=2025-03-05&course=masters");
    expect(page.status).toBe(302);
    expect(page.location).toStartWith("/login?next=");
  });

  test("wrong credentials show an error on the login page", async () => {
    const { browser } = setup();
    const page = await browser.login("maria@southwoods.demo", "nope");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Invalid email or password.");
  });

  test("a login post without the form's token is refused", async () => {
    const { browser } = setup();
    const page = await browser.post("/login", { email: "maria@southwoods.demo", password: "maria-club" });
    expect(page.status).toBe(400);
    expect(page.html).toContain("expired");
  });

  test("the session ends after the idle minutes on the club clock", async () => {
    const { clock, browser } = await signedIn({ idleMinutes: 20 });
    await clock.advance(19 * 60_000);
    expect((await browser.get("/members/home")).status).toBe(200);
    await clock.advance(19 * 60_000); // still alive: the last visit renewed it
    expect((await browser.get("/members/home")).status).toBe(200);
    await clock.advance(20 * 60_000 + 1);
    expect((await browser.get("/members/home")).location).toStartWith("/login");
  });

  test("extra accounts can sign in", async () => {
    const { browser } = setup({ extraAccounts: 3 });
    expect((await browser.login("bench003@southwoods.demo", "bench003-club")).status).toBe(302);
  });
});

describe("booking horizon and club clock", () => {
  test("a date opens at its release instant, not a millisecond before", async () => {
    const { clock, sim, browser } = await signedIn();
    const slot = slotOf("2025-03-11", "masters", "06:00");
    expect(sim.releaseInstantOf("2025-03-11")).toBe(manilaInstant("2025-03-04", "07:00"));
    const sheet = await browser.get("/members/tee-sheet?date=2025-03-11&course=masters");
    expect(sheet.html).toContain('id="not-released"');
    await clock.set(manilaInstant("2025-03-04", "07:00") - 1);
    await browser.login("maria@southwoods.demo", "maria-club"); // a day later the idle session has ended
    expect((await browser.book(slot)).html).toContain("not yet open");
    await clock.advance(1);
    expect((await browser.book(slot)).html).toContain("Booking confirmed");
  });

  test("the club's release setting can change: dates open at the new time and days before, through the control API too", async () => {
    const { clock, sim, browser } = await signedIn();
    const control = (path: string, body?: unknown) =>
      sim.app.request(`/__control${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { [CONTROL_TOKEN_HEADER]: sim.controlToken, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // 2025-03-12 opens on 03-05 at 07:00 by default; moved to 8 days before at 08:01, it opens today.
    expect(sim.releaseInstantOf("2025-03-11")).toBe(manilaInstant("2025-03-04", "07:00"));
    const moved = await control("/release", { releaseTime: "08:01", releaseDaysBefore: 8 });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { release: unknown }).release).toEqual({ releaseTime: "08:01", releaseDaysBefore: 8 });
    expect(sim.releaseInstantOf("2025-03-11")).toBe(manilaInstant("2025-03-03", "08:01"));
    const slot = slotOf("2025-03-11", "masters", "06:00");
    expect((await browser.book(slot)).html).toContain("Booking opens Monday Mar 3, 2025 at 08:01");
    await clock.set(manilaInstant("2025-03-03", "08:01"));
    expect((await browser.book(slot)).html).toContain("Booking confirmed");
    // A setting that is not one is refused, and nothing changes.
    expect((await control("/release", { releaseTime: "8:1", releaseDaysBefore: 8 })).status).toBe(400);
    expect((await control("/release", { releaseTime: "08:00", releaseDaysBefore: -1 })).status).toBe(400);
    expect(sim.release()).toEqual({ releaseTime: "08:01", releaseDaysBefore: 8 });
    expect(() => sim.setRelease({ releaseTime: "25:00", releaseDaysBefore: 1 })).toThrow();
  });

  test("the club clock runs ahead by its offset, and the horizon follows it", async () => {
    const { clock, sim, browser } = setup({ clockOffsetMs: 90_000 });
    await clock.set(manilaInstant("2025-03-04", "07:00") - 60_000); // our 06:59, the club's 07:00:30
    expect(sim.now()).toBe(manilaInstant("2025-03-04", "07:00:30"));
    await browser.login("maria@southwoods.demo", "maria-club");
    expect((await browser.book(slotOf("2025-03-11", "masters", "06:00"))).html).toContain("Booking confirmed");
  });

  test("the Date header follows the club clock with one-second resolution", async () => {
    const { clock, sim, browser } = setup({ clockOffsetMs: -700 });
    await clock.set(Date.UTC(2025, 2, 3, 0, 0, 10, 500));
    expect((await browser.get("/advisories")).date).toBe("Mon, 03 Mar 2025 00:00:09 GMT");
    sim.setClockOffset(600);
    expect((await browser.get("/advisories")).date).toBe("Mon, 03 Mar 2025 00:00:11 GMT");
  });

  test("a tee time that has passed cannot be booked", async () => {
    const { browser } = await signedIn();
    expect((await browser.book(slotOf("2025-03-03", "masters", "07:52"))).html).toContain("already passed");
  });
});

describe("booking", () => {
  test("one booking wins when many posts for one slot arrive together", async () => {
    const { sim } = setup();
    const members = await Promise.all(
      DEMO_CLUB_ACCOUNTS.map(async (account) => {
        const browser = new SimBrowser(sim);
        await browser.login(account.email, account.password);
        return browser;
      }),
    );
    const slot = slotOf("2025-03-05", "masters", "06:00");
    const pages = await Promise.all([...members, ...members].map((b) => b.book(slot)));
    expect(pages.filter((p) => p.html.includes("Booking confirmed"))).toHaveLength(1);
    expect(pages.filter((p) => p.html.includes("no longer available"))).toHaveLength(7);
    const attempts = sim.attempts();
    expect(attempts).toHaveLength(8);
    expect(attempts.filter((a) => a.outcome === "confirmed")).toHaveLength(1);
    expect(attempts.every((a) => a.arrivedClubMs === START && a.slotId === slot.slotId)).toBe(true);
  });

  test("refuses too many guests, too many players and unknown members", async () => {
    const { browser } = await signedIn();
    const slot = slotOf("2025-03-05", "masters", "06:08");
    const guest = (n: number) => ({ [`p${n}_type`]: "Guest", [`p${n}_first`]: "G", [`p${n}_last`]: `Guest${n}`, [`p${n}_cart`]: "Walking", [`p${n}_fee`]: "Charge my guest" });
    const fourGuests = { ...guest(1), ...guest(2), ...guest(3), ...guest(4) };
    expect((await browser.book(slot, fourGuests)).html).toContain("Too many guests");
    expect((await browser.book(slot, { ...MARIA_ALONE, ...guest(2), ...guest(3), ...guest(4), ...guest(5) })).html).toContain("at most 4 players");
    expect((await browser.book(slot, { ...MARIA_ALONE, p1_id: "SW-4040" })).html).toContain("Player not found");
    const ok = await browser.book(slot, {
      ...MARIA_ALONE,
      ...guest(2),
      p3_type: "Dependent",
      p3_last: "dela cruz",
      p3_id: "sw-1007-d1",
      p3_cart: "Walking",
      p3_fee: "Charge to their account",
    });
    expect(ok.html).toContain("Booking confirmed");
  });

  test("edit replaces the players; cancel frees the slot for someone else", async () => {
    const { sim, browser } = await signedIn();
    const slot = slotOf("2025-03-06", "legends", "07:04");
    const ref = /class="booking-ref">([^<]+)</.exec((await browser.book(slot)).html)?.[1] ?? "";
    expect(ref).toMatch(/^SWB-\d+$/);
    const edited = await browser.post(`/members/bookings/${ref}/edit`, {
      _csrf: browser.csrf,
      p1_type: "Member",
      p1_last: "Garcia",
      p1_id: "SW-1004",
      p1_cart: "Own Cart",
      p1_fee: "Charge to their account",
    });
    expect(edited.html).toContain("Booking updated");
    expect(sim.bookingsOf("maria@southwoods.demo")[0].players.map((p) => p.lastName)).toEqual(["Garcia"]);
    const bookings = await browser.get("/members/bookings");
    expect(bookings.html).toContain("Thursday Mar 6, 2025");
    expect((await browser.post(`/members/bookings/${ref}/cancel`, { _csrf: browser.csrf })).html).toContain("Booking cancelled");
    expect(sim.slotStatus("2025-03-06", "legends", "07:04")).toBe("AVAILABLE");
    expect((await browser.post(`/members/bookings/${ref}/cancel`, { _csrf: browser.csrf })).status).toBe(404);
    const jose = new SimBrowser(sim);
    await jose.login("jose@southwoods.demo", "jose-club");
    expect((await jose.book(slot, { ...MARIA_ALONE, p1_last: "Reyes", p1_id: "SW-1002" })).html).toContain("Booking confirmed");
  });

  test("serves the booking and edit forms a person would fill in", async () => {
    const { browser } = await signedIn();
    const form = await browser.get("/members/book?slotId=MAS-20250305-0640");
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="p4_fee"');
    expect(form.html).toContain('value="SW-1001"');
    expect((await browser.get("/members/book?slotId=XYZ-1")).status).toBe(404);
    const ref = /class="booking-ref">([^<]+)</.exec((await browser.book(slotOf("2025-03-05", "masters", "06:40"))).html)?.[1] ?? "";
    const edit = await browser.get(`/members/bookings/${ref}/edit`);
    expect(edit.html).toContain(`action="/members/bookings/${ref}/edit"`);
  });

  test("a member cannot touch another member's booking", async () => {
    const { sim, browser } = await signedIn();
    const ref = /class="booking-ref">([^<]+)</.exec((await browser.book(slotOf("2025-03-06", "legends", "07:12"))).html)?.[1] ?? "";
    const ana = new SimBrowser(sim);
    await ana.login("ana@southwoods.demo", "ana-club");
    expect((await ana.post(`/members/bookings/${ref}/cancel`, { _csrf: ana.csrf })).status).toBe(404);
  });

  test("a post with a stale form token is sent to the login page and logged", async () => {
    const { sim, browser } = await signedIn();
    browser.csrf = "stale";
    const page = await browser.book(slotOf("2025-03-05", "masters", "06:16"));
    expect(page.location).toStartWith("/login");
    expect(sim.attempts().at(-1)?.outcome).toBe("session_expired");
  });
});

describe("determinism", () => {
  test("the same seed gives the same sheet; another seed another", () => {
    const statuses = (seed: number) => {
      const sim = createClubSim({ seed, clock: new FakeClock(START) });
      return teeTimesFor("2025-03-05", findCourse("masters")!)
        .map((t) => sim.slotStatus("2025-03-05", "masters", t))
        .join();
    };
    expect(statuses(5)).toBe(statuses(5));
    expect(statuses(5)).not.toBe(statuses(6));
    expect(statuses(5)).toContain("BOOKED");
  });
});

describe("faults", () => {
  test("down answers 503 everywhere, errors answer 500 and are logged for booking posts", async () => {
    const { sim, browser } = await signedIn();
    sim.setFaults({ down: true });
    expect((await browser.get("/advisories")).status).toBe(503);
    sim.setFaults({ down: false, errorRate: 1 });
    expect((await browser.book(slotOf("2025-03-05", "masters", "06:24"))).status).toBe(500);
    expect(sim.attempts().at(-1)).toMatchObject({ outcome: "server_error", slotId: "MAS-20250305-0624" });
    expect(sim.slotStatus("2025-03-05", "masters", "06:24")).toBe("AVAILABLE");
    sim.setFaults({ errorRate: 0 });
    expect((await browser.get("/advisories")).status).toBe(200);
  });

  test("an error rate below one fails a seeded share of requests", async () => {
    const { sim, browser } = setup({ faults: { errorRate: 0.5 } });
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await browser.get("/advisories")).status);
    const failures = statuses.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(8);
    expect(failures).toBeLessThan(32);
    expect(sim.faults().errorRate).toBe(0.5);
  });

  test("dropped sessions send members back to the login page", async () => {
    const { sim, browser } = await signedIn();
    sim.setFaults({ dropSessions: true });
    expect((await browser.get("/members/home")).location).toStartWith("/login");
    expect(sim.faults().dropSessions).toBe(1);
  });

  test("the changed layout renders other markup", async () => {
    const { sim, browser } = await signedIn();
    sim.setFaults({ layout: "changed" });
    const sheet = await browser.get("/members/tee-sheet?date=2025-03-05&course=masters");
    expect(sheet.html).not.toContain('id="tee-sheet"');
    expect(sheet.html).toContain("times-grid");
  });

  test("latency delays answers", async () => {
    const { browser } = setup({ faults: { latencyMs: 60 } });
    const started = performance.now();
    await browser.get("/advisories");
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe("rivals", () => {
  const rivals = { share: 0.5, delayMs: 2_000 };
  const release = manilaInstant("2025-03-04", "07:00"); // opens Tuesday 11 March

  test("take their share of the popular slots after the release, deterministically", async () => {
    const taken = async () => {
      const { clock, sim } = setup({ rivals });
      await clock.set(release + 1_999);
      expect(sim.attempts()).toHaveLength(0);
      await clock.set(release + 2_000);
      const attempts = sim.attempts();
      sim.close();
      return attempts.map((a) => `${a.slotId}:${a.outcome}`);
    };
    const first = await taken();
    // Popular = 06:00–07:59: Masters 06:00…07:52 (15 slots) and Legends the same (15) → 8 each.
    expect(first).toHaveLength(16);
    expect(first.every((a) => a.endsWith(":confirmed") && /-2025031[1]-0[67]\d\d:/.test(a))).toBe(true);
    expect(await taken()).toEqual(first);
  });

  test("a member who books before the rivals keeps the slot", async () => {
    const { clock, sim } = setup({ rivals: { share: 1, delayMs: 500 } });
    const browser = new SimBrowser(sim);
    await clock.set(release - 60_000);
    await browser.login("maria@southwoods.demo", "maria-club");
    await clock.set(release + 100);
    expect((await browser.book(slotOf("2025-03-11", "masters", "06:00"))).html).toContain("Booking confirmed");
    await clock.set(release + 500);
    const rivalsAttempts = sim.attempts().filter((a) => a.isRival);
    expect(rivalsAttempts).toHaveLength(29);
    expect(sim.bookingsOf("maria@southwoods.demo")).toHaveLength(1);
    sim.close();
  });

  test("follow a release setting moved while they wait: they act after the new instant, on the date it opens", async () => {
    const { clock, sim } = setup({ rivals: { share: 1, delayMs: 0, popular: (t) => t === "06:00" } });
    // START is Monday 3 March 08:00; moved to 08:05, 9 days before: 12 March opens at 08:05 today.
    sim.setRelease({ releaseTime: "08:05", releaseDaysBefore: 9 });
    await clock.set(manilaInstant("2025-03-03", "08:04"));
    expect(sim.attempts()).toEqual([]);
    await clock.set(manilaInstant("2025-03-03", "08:05"));
    expect(sim.attempts().map((a) => a.slotId)).toEqual(["MAS-20250312-0600", "LEG-20250312-0600"]);
    sim.close();
  });

  test("follow the club clock offset and keep running day after day", async () => {
    const { clock, sim } = setup({ rivals: { share: 1, delayMs: 0, popular: (t) => t === "06:00" }, clockOffsetMs: 0 });
    sim.setClockOffset(10_000); // club ahead by 10 s: the release comes 10 s sooner on our clock
    await clock.set(release - 10_000);
    expect(sim.attempts().map((a) => a.slotId)).toEqual(["MAS-20250311-0600", "LEG-20250311-0600"]);
    await clock.set(release + 86_400_000);
    expect(sim.attempts().map((a) => a.date)).toEqual(["2025-03-11", "2025-03-11", "2025-03-12", "2025-03-12"]);
    sim.close();
  });
});

describe("rivals on the real clock", () => {
  test("fire from a timer shortly after a release", async () => {
    // Put the club clock 150 ms before today's 07:00 release, so the rivals' timer fires about 200 ms from now.
    const releaseToday = manilaInstant(manilaDate(Date.now()), "07:00");
    const sim = createClubSim({
      seed: 3,
      prebookedShare: 0,
      blockedShare: 0,
      clockOffsetMs: releaseToday - 150 - Date.now(),
      rivals: { share: 1, delayMs: 50, popular: (t) => t === "06:00" },
    });
    try {
      const deadline = performance.now() + 5_000;
      while (sim.attempts().length === 0 && performance.now() < deadline) await Bun.sleep(10);
      const [first] = sim.attempts();
      expect(first).toMatchObject({ isRival: true, outcome: "confirmed", date: addDays(manilaDate(releaseToday), 7) });
      expect(first.arrivedClubMs).toBeGreaterThanOrEqual(releaseToday + 50);
    } finally {
      sim.close();
    }
  });
});

describe("control API", () => {
  test("needs the control token", async () => {
    const { sim } = setup();
    expect((await sim.app.request("/__control/state")).status).toBe(403);
    expect((await sim.app.request("/__control/state", { headers: { [CONTROL_TOKEN_HEADER]: "wrong" } })).status).toBe(403);
  });

  test("drives faults, clock, slots and reads attempts", async () => {
    const { sim, browser } = await signedIn({ controlToken: "t0ken" });
    const control = (path: string, body?: unknown) =>
      sim.app.request(`/__control${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { [CONTROL_TOKEN_HEADER]: "t0ken", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(await (await control("/faults", { latencyMs: 0, layout: "changed" })).json()).toMatchObject({ faults: { layout: "changed" } });
    expect((await control("/faults", { layout: "weird" })).status).toBe(400);
    expect(await (await control("/clock", { offsetMs: 1300 })).json()).toMatchObject({ clockOffsetMs: 1300, clubNowMs: START + 1300 });
    expect((await control("/slot", { date: "2025-03-05", course: "masters", time: "06:32", status: "BLOCKED" })).status).toBe(204);
    expect(sim.slotStatus("2025-03-05", "masters", "06:32")).toBe("BLOCKED");
    sim.setFaults({ layout: "standard" });
    await browser.book(slotOf("2025-03-05", "masters", "06:32"));
    const { attempts } = (await (await control("/attempts")).json()) as { attempts: { outcome: string; arrivedClubMs: number }[] };
    expect(attempts).toEqual([expect.objectContaining({ outcome: "slot_taken", arrivedClubMs: START + 1300 })]);
    expect((await control("/advisories", { title: "Rain", content: "Course closed • Lightning" })).status).toBe(201);
    expect((await browser.get("/advisories")).html).toContain("Lightning");
  });
});
