/**
 * Teebox at rest, in real time: a real process on the system clock against the demo club in its
 * own process, left alone after each kind of activity: a release, a watch that booked, a watch
 * cancelled (no watch left), mail failing, the club down. After each, once the activity's own
 * follow-up is over, its CPU is sampled from /proc and must stay under IDLE_CPU_PERCENT of a core,
 * and its memory must not climb. A busy loop fails here (decision 152).
 *
 * Teebox is started again on the same data folder before each case, so each case is measured on
 * its own (a busy loop left by one case is not blamed on the next).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLUB_COURSES, generateAccounts } from "../../src/club-sim/demo-data.ts";
import type { SimBooking } from "../../src/club-sim/state.ts";
import { isCourseOpenOn, teeTimesFor } from "../../src/club-sim/tee-sheet.ts";
import { addDays, manilaDate, manilaTimeOfDay, weekdayOf } from "../../src/domain/manila-time.ts";
import { Client, createMember, usernameOf, type Member } from "../../scripts/bench/soak/members.ts";
import { cpuMs, rssMb } from "../../scripts/bench/soak/processes.ts";
import { startClubProcess, type ClubProcess } from "../helpers/club-process.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server.ts";
import { startTeeboxChild, type TeeboxChild } from "./load-harness.ts";

/** Share of one core Teebox may use at rest, averaged over a sample (decision 152). */
const IDLE_CPU_PERCENT = 3;
/** Memory Teebox may gain at rest over the wait and the sample (a busy loop gains about 1 MB a second). */
const IDLE_RSS_GROWTH_MB = 8;
/** After the activity: longer than the watch's poll interval (15 s) and a pass (5 s), so what a watch leaves behind has begun. */
const QUIET_AFTER_MS = 22_000;
const SAMPLE_MS = 8_000;
const RELEASE_LEAD_MS = 45_000;
const ADMIN_PASSWORD = "idle-admin-password";
const SECRET_KEY = "idle-test-secret-key-0123456789ab";
const WATCH_POLL_SECONDS = 15;

let club: ClubProcess;
let smtp: TestSmtpServer;
let teebox: TeeboxChild | null = null;
let dataDir: string;
let admin: Client;
let members: Member[] = [];
let playDate: string;
let releaseClubMs: number;
const env = () => ({ DATA_DIR: dataDir, CLUB_URL: club.url, ADMIN_PASSWORD, SECRET_KEY, SMTP_URL: smtp.url, MAIL_FROM: "Teebox <teebox@idle.test>", LOG_LEVEL: "warn" });
const baseUrl = () => teebox!.url;
const figures: string[] = [];

/** Waits (bounded) for `check` to hold, looking twice a second. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await Bun.sleep(500);
  }
}

/** Teebox started again on the same data folder: each case is measured on a process of its own. */
async function freshTeebox(): Promise<void> {
  await teebox?.stop();
  teebox = await startTeeboxChild(env());
}

interface Rest {
  cpuPercent: number;
  rssGrowthMb: number;
}

/** Leaves Teebox alone, then samples its CPU; a sample over the bound is taken once more (a job's pass may fall in it). */
async function atRest(label: string): Promise<Rest> {
  const pid = teebox!.proc.pid;
  const rssBefore = await rssMb(pid);
  await Bun.sleep(QUIET_AFTER_MS);
  const sample = async () => {
    const before = await cpuMs(pid);
    const from = performance.now();
    await Bun.sleep(SAMPLE_MS);
    return (((await cpuMs(pid)) - before) / (performance.now() - from)) * 100;
  };
  let cpuPercent = await sample();
  if (cpuPercent > IDLE_CPU_PERCENT) cpuPercent = Math.min(cpuPercent, await sample());
  const rest = { cpuPercent, rssGrowthMb: (await rssMb(pid)) - rssBefore };
  figures.push(
    `${label}: CPU at rest ${rest.cpuPercent.toFixed(2)}% of a core, RSS ${rest.rssGrowthMb >= 0 ? "+" : ""}${rest.rssGrowthMb.toFixed(1)} MB over ${(QUIET_AFTER_MS + SAMPLE_MS) / 1000} s`,
  );
  console.log(figures.at(-1));
  return rest;
}

function expectRest(rest: Rest): void {
  expect(rest.cpuPercent).toBeLessThan(IDLE_CPU_PERCENT);
  expect(rest.rssGrowthMb).toBeLessThan(IDLE_RSS_GROWTH_MB);
}

const courseOpenOn = (date: string) => CLUB_COURSES.find((c) => isCourseOpenOn(c, date))!;
const clubToday = async () => manilaDate((await club.control<{ clubNowMs: number }>("GET", "/state")).clubNowMs);

/** Four tee times of a date's first open course, from 06:00, filled at the club so a watch waits. */
async function fullBand(date: string): Promise<{ course: string; times: string[] }> {
  const course = courseOpenOn(date);
  const times = teeTimesFor(date, course)
    .filter((t) => t >= "06:00")
    .slice(0, 4);
  for (const time of times) await club.control("POST", "/slot", { date, course: course.id, time, status: "BOOKED" });
  return { course: course.id, times };
}

const watchBody = (date: string, band: { course: string; times: string[] }) => ({
  course: band.course,
  targetDate: date,
  memberCartType: "Rental Cart - Solo",
  playerDetails: { players: [] },
  fromTime: band.times[0],
  toTime: band.times[3],
  mode: "book",
});

beforeAll(async () => {
  // The release instant: a whole minute on the club's clock, RELEASE_LEAD_MS from now.
  const now = Date.now();
  releaseClubMs = Math.ceil((now + 2 * RELEASE_LEAD_MS) / 60_000) * 60_000;
  const releaseDate = manilaDate(releaseClubMs);
  playDate = addDays(releaseDate, 7);
  club = await startClubProcess({
    clockOffsetMs: releaseClubMs - (now + RELEASE_LEAD_MS),
    releaseTime: manilaTimeOfDay(releaseClubMs).slice(0, 5),
    releaseDaysBefore: 7,
    extraAccounts: 2,
  });
  smtp = startSmtpServer();
  dataDir = mkdtempSync(join(tmpdir(), "teebox-idle-"));
  teebox = await startTeeboxChild(env());
  admin = new Client(baseUrl, "admin", ADMIN_PASSWORD);
  const { settings } = await admin.ok<{ settings: Record<string, unknown> }>("GET", "/v1/admin/app-settings");
  await admin.ok("PUT", "/v1/admin/app-settings", {
    ...settings,
    release_time: manilaTimeOfDay(releaseClubMs).slice(0, 5),
    release_days_before: 7,
    scraper_username: usernameOf(0),
    watch_poll_seconds: WATCH_POLL_SECONDS,
  });
  const accounts = generateAccounts(2);
  members = [];
  for (const [i, account] of accounts.entries()) members.push(await createMember(admin, baseUrl, i, account));
}, 120_000);

afterAll(async () => {
  console.log(`idle figures:\n  ${figures.join("\n  ")}`);
  await teebox?.stop();
  await club?.stop();
  smtp?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("at rest after a release", async () => {
  const course = courseOpenOn(playDate);
  const grid = teeTimesFor(playDate, course);
  for (const [i, member] of members.entries()) {
    const answer = await member.client.act("SUBMIT_BOOKING_REQUEST", {
      course: course.id,
      targetDate: playDate,
      selectionOrder: grid.slice(i * 2, i * 2 + 2).map((time) => ({ time, slotId: null })),
      memberCartType: "Rental Cart - Solo",
      playerDetails: { players: [] },
    });
    expect(answer.type).toBe("submissionResult");
  }
  // Released at the instant, and settled: each member holds the booking at the club.
  await until(
    "the release booked both requests at the club",
    async () => {
      for (const member of members) if (!(await club.bookingsOf(member.account.email)).some((b) => b.date === playDate)) return false;
      return true;
    },
    RELEASE_LEAD_MS + 60_000,
  );
  await until(
    "both requests settled in Teebox",
    async () => {
      const lists = await Promise.all(members.map((m) => m.client.ok<{ status: string }[]>("GET", "/v1/my/requests")));
      return lists.every((list) => list.every((r) => r.status !== "Pending" && r.status !== "Processing"));
    },
    30_000,
  );
  expectRest(await atRest("after a release"));
}, 240_000);

test("at rest after a watch booked a freed slot (no watch left)", async () => {
  await freshTeebox();
  const member = members[1];
  const date = addDays(await clubToday(), 1);
  const band = await fullBand(date);
  const made = await member.client.call<{ watch: { id: number } }>("POST", "/v1/my/watches", watchBody(date, band));
  expect(made.status).toBe(201);
  await club.control("POST", "/free-slot", { date, course: band.course, time: band.times[1] });
  await until(
    "the watch booked the freed slot",
    async () => (await club.bookingsOf(member.account.email)).some((b: SimBooking) => b.date === date && b.time === band.times[1]),
    3 * WATCH_POLL_SECONDS * 1000,
  );
  expectRest(await atRest("after a watch booked"));
}, 180_000);

test("at rest after a watch was cancelled (no watch left)", async () => {
  await freshTeebox();
  const member = members[1];
  const date = addDays(await clubToday(), 2);
  const band = await fullBand(date);
  const made = await member.client.call<{ watch: { id: number } }>("POST", "/v1/my/watches", watchBody(date, band));
  expect(made.status).toBe(201);
  // It polls the full band once, then its member changes their mind.
  await Bun.sleep(2000);
  expect((await member.client.call("POST", `/v1/my/watches/${made.body.watch.id}/cancel`, {})).status).toBe(204);
  expectRest(await atRest("after a watch cancelled"));
}, 180_000);

test("at rest while mail fails (the mail server refuses)", async () => {
  await freshTeebox();
  smtp.setOptions({ refuseNext: { count: 10_000, code: 451, text: "4.3.0 try again later" } });
  const member = members[0];
  // A pending request, then the course stops running that weekday: the member's check finds it
  // needs attention, which is a notification and an email, which the mail server refuses.
  const date = addDays(playDate, 1);
  const course = courseOpenOn(date);
  const answer = await member.client.act("SUBMIT_BOOKING_REQUEST", {
    course: course.id,
    targetDate: date,
    selectionOrder: [{ time: teeTimesFor(date, course)[0], slotId: null }],
    memberCartType: "Rental Cart - Solo",
    playerDetails: { players: [] },
  });
  expect(answer.type).toBe("submissionResult");
  const config = await admin.ok<{ courses: { id: string; name: string; days_active: number[]; aliases: string[] }[] }>("GET", "/v1/admin/full-config");
  const stored = config.courses.find((c) => c.id === course.id)!;
  await admin.ok("PUT", `/v1/admin/courses/${course.id}`, { ...stored, days_active: stored.days_active.filter((d) => d !== weekdayOf(date)) });
  const checked = await member.client.ok<{ problems: number }>("POST", "/v1/my/requests/check", {});
  expect(checked.problems).toBeGreaterThan(0);
  await until("the mail server refused the notification's email", async () => smtp.commands.includes("DATA") || smtp.commands.some((c) => c.startsWith("RCPT")), 90_000);
  try {
    expectRest(await atRest("while mail fails"));
  } finally {
    await admin.ok("PUT", `/v1/admin/courses/${course.id}`, stored);
    smtp.setOptions({});
  }
}, 240_000);

test("at rest while the club is down", async () => {
  await freshTeebox();
  await club.setFaults({ down: true });
  try {
    // The scraper asked for a run, and a member's own check (both meet the club down).
    const asked = await members[0].client.act("RUN_SCRAPER", undefined);
    expect(asked.type).toBe("scraper");
    await members[1].client.call("POST", "/v1/my/requests/check", {});
    expectRest(await atRest("while the club is down"));
  } finally {
    await club.setFaults({ down: false });
  }
}, 180_000);
