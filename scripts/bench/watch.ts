/**
 * Slot-watch benchmark: the time from a slot freeing at the club to the watch's booking confirmed
 * there, over a run of the demo (Teebox with its demo club, as `npm start` runs it).
 *
 * Three demo members make nine watches, each for one taken tee time of the same date; the admin
 * sets the poll interval; then the slots are freed one at a time (a cancellation at the club, at a
 * random moment) and each watch's booking is awaited. Both instants are read on the club's clock:
 * the free-slot answer's `freedAtClubMs` and the booking's `createdClubMs`.
 *
 * Prints: each latency, their median, p90 and max, the poll interval used, and the club's sheet
 * reads per minute as the System Monitor shows them.
 *
 *   bun scripts/bench/watch.ts [pollSeconds=15] [slots=9]
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLUB_COURSES } from "../../src/club-sim/demo-data.ts";
import { isCourseOpenOn } from "../../src/club-sim/tee-sheet.ts";
import { addDays, manilaDate, timeFromMinutes, minutesOf } from "../../src/domain/manila-time.ts";
import { BENCH_ADMIN_PASSWORD, percentile, signIn, startTeebox } from "./support.ts";

const pollSeconds = Number(process.argv[2] ?? 15);
const slots = Math.min(9, Number(process.argv[3] ?? 9));
const MEMBERS = [
  { username: "maria", email: "maria@southwoods.demo" },
  { username: "jose", email: "jose@southwoods.demo" },
  { username: "ana", email: "ana@southwoods.demo" },
];

const teebox = await startTeebox();
try {
  const club = JSON.parse(readFileSync(join(teebox.dataDir, "demo-club.json"), "utf8")) as { url: string; controlToken: string };
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${club.url}/__control${path}`, {
      method,
      headers: { "content-type": "application/json", "x-control-token": club.controlToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const call = async (cookie: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${teebox.url}${path}`, {
      method,
      headers: { "content-type": "application/json", origin: teebox.url, cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };

  const admin = await signIn(teebox.url, "admin", BENCH_ADMIN_PASSWORD);
  const { settings } = (await call(admin, "GET", "/v1/admin/app-settings")) as { settings: Record<string, unknown> };
  await call(admin, "PUT", "/v1/admin/app-settings", { ...settings, watch_poll_seconds: pollSeconds, max_active_watches: 3 });

  // Tomorrow (open at the club) on Masters if it runs, else the first course that does.
  const date = addDays(manilaDate(Date.now()), 1);
  const course = CLUB_COURSES.find((c) => c.id === "masters" && isCourseOpenOn(c, date)) ?? CLUB_COURSES.find((c) => isCourseOpenOn(c, date))!;
  const times = Array.from({ length: slots }, (_, i) => timeFromMinutes(minutesOf("06:00") + 8 * i));
  for (const time of times) await control("POST", "/slot", { date, course: course.id, time, status: "BOOKED" });

  const owner = new Map<string, (typeof MEMBERS)[number]>();
  for (const [i, time] of times.entries()) {
    const member = MEMBERS[i % MEMBERS.length];
    const cookie = await signIn(teebox.url, member.username, "demo1234");
    await call(cookie, "POST", "/v1/my/watches", {
      course: course.id,
      targetDate: date,
      memberCartType: "Rental Cart - Solo",
      playerDetails: { players: [] },
      fromTime: time,
      toTime: time,
      mode: "book",
    });
    owner.set(time, member);
  }

  const latencies: number[] = [];
  for (const time of times) {
    // A cancellation comes at any moment of the poll cycle.
    await Bun.sleep(Math.random() * pollSeconds * 1000);
    const freed = (await control("POST", "/free-slot", { date, course: course.id, time })) as { freedAtClubMs: number };
    const member = owner.get(time)!;
    const deadline = Date.now() + (pollSeconds + 30) * 1000;
    let bookedAt: number | null = null;
    while (bookedAt === null && Date.now() < deadline) {
      await Bun.sleep(100);
      const { bookings } = (await control("GET", `/bookings?email=${encodeURIComponent(member.email)}`)) as { bookings: { date: string; time: string; createdClubMs: number }[] };
      bookedAt = bookings.find((b) => b.date === date && b.time === time)?.createdClubMs ?? null;
    }
    if (bookedAt === null) throw new Error(`the watch for ${time} did not book within ${pollSeconds + 30} s`);
    latencies.push(bookedAt - freed.freedAtClubMs);
    console.log(`${time}: freed → booked in ${((bookedAt - freed.freedAtClubMs) / 1000).toFixed(2)} s (${member.username})`);
  }
  const stats = (await call(admin, "GET", "/v1/admin/system-stats")) as { watches?: { activeWatches: number; pollsPerMinute: number } };
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      pollSeconds,
      slots: latencies.length,
      medianSeconds: Number((percentile(sorted, 50) / 1000).toFixed(2)),
      p90Seconds: Number((percentile(sorted, 90) / 1000).toFixed(2)),
      maxSeconds: Number((sorted.at(-1)! / 1000).toFixed(2)),
      monitor: stats.watches,
    }),
  );
} finally {
  await teebox.stop();
  rmSync(teebox.dataDir, { recursive: true, force: true });
}
