/**
 * What each job does when the club budget is spent (decision 145): a scrape and a watch poll skip
 * what they cannot pay for to their next turn (nothing is sent), the bookings sync waits for its
 * turn (a member is never skipped), and nothing is lost.
 */
import { afterEach, expect, test } from "bun:test";
import { isClubError } from "../../src/club/errors.ts";
import { createFinder } from "../../src/jobs/watch/watch-finding.ts";
import type { WatchRow } from "../../src/lifecycle/watch-lifecycle.ts";
import { userIdOf } from "../helpers/api.ts";
import { createScraperFixture, type ScraperFixture } from "./scraper-fixture.ts";

let f: ScraperFixture;
afterEach(() => f?.close());

const ROOMY = { clubPerMinute: 60, clubBurst: 1000, memberPerMinute: 12, memberBurst: 60 };

test("a scrape reads what the budget pays for and skips the rest, unsent, to the next run", async () => {
  f = await createScraperFixture();
  const { politeness } = f.t.deps.club;
  // Ten requests at once for the whole club, then one every 10 s: the sign-in and seven pages.
  politeness.budget.configure({ ...ROOMY, clubPerMinute: 6, clubBurst: 10 });
  const first = await f.scraper.run("manual");
  expect(first).toMatchObject({ status: "partial", pages: 14, failures: 7 });
  expect(first.error).toContain("skipped: the club's request budget was spent");
  expect(first.error).toContain("Not sent: Teebox's request budget for the club is spent for now.");
  const traffic = politeness.traffic.snapshot();
  expect(traffic.total).toBe(10);
  expect(Object.values(traffic.skipped).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(7);

  // With the budget back at its defaults, the next run reads every page.
  await f.t.clock.advance(5 * 60_000);
  politeness.budget.configure(ROOMY);
  expect(await f.scraper.run("schedule")).toMatchObject({ status: "ok", failures: 0 });
});

test("a watch poll the budget cannot pay for is not sent, and waits for its next turn", async () => {
  f = await createScraperFixture();
  const maria = await userIdOf(f.t, "maria");
  f.t.deps.club.politeness.budget.configure({ ...ROOMY, memberBurst: 3 });
  // Her sign-in spends her login's three requests.
  await (await f.t.deps.sessions.forMember(maria)).login();
  const errors: unknown[] = [];
  const finder = createFinder((error) => errors.push(error));
  const watch = { userId: maria, playDate: "2026-11-24", courseId: "masters" } as WatchRow;
  const now = f.t.clock.now();
  const reading = await finder.freeSlots(f.t.deps.database.db, f.t.deps.sessions, [watch], [], now, 60_000);
  expect(reading.polled).toBe(0);
  expect(errors.map((e) => isClubError(e, "busy"))).toEqual([true]);
  expect(f.t.deps.club.politeness.traffic.snapshot()).toMatchObject({ total: 3, skipped: { sheet: 1 } });
  expect(finder.nextPollAt(60_000)).toBe(now + 60_000);
});

test("the bookings sync waits for a token rather than skip a member", async () => {
  f = await createScraperFixture();
  const maria = await userIdOf(f.t, "maria");
  f.t.deps.club.politeness.budget.configure({ ...ROOMY, memberBurst: 3 });
  await (await f.t.deps.sessions.forMember(maria)).login();
  f.t.deps.bookingsSync.start();
  let isDone = false;
  const sync = f.t.deps.bookingsSync.syncMember(maria).then(() => (isDone = true));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  expect(isDone).toBe(false);
  expect(f.t.deps.club.politeness.budget.waiting()).toBe(1);
  // Her login's next token comes 5 s later (12 a minute).
  await f.t.clock.advance(5_000);
  await sync;
  expect(f.t.deps.club.politeness.traffic.snapshot().totals.my_bookings).toEqual({ ok: 1 });
});
