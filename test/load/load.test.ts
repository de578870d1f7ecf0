/**
 * Load on loopback: Teebox as a real process (`bun src/main.ts`) with 30 members holding 300 open
 * sockets, and 60 s of mixed traffic from all of them — the reads of the web app's pages, saved
 * players, booking requests for later dates (they stay pending), cancellations and scraper runs —
 * while a release fires about 20 s in. Afterwards: no 5xx or network error, no socket closed, every
 * write answered without error, every request stored is accounted for (pending, cancelled, or
 * booked/failed at the release), the released requests were posted to the club (never early), and
 * /healthz still answers 200.
 *
 * The demo club runs in this process, not inside Teebox: its accounts must include the 30 members
 * (generateAccounts), and its clock is moved here so that the release instant — a whole minute on
 * the club's clock, as release times are HH:MM — falls 20 s into the run whatever the wall clock
 * says. Teebox gets it as CLUB_URL, so it measures the club's clock as it would a real club's.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { createClubSim, type ClubSim, type RunningClubSim } from "../../src/club-sim/index.ts";
import { CART_CHOICES, GUEST_FEE_CHOICES, MEMBER_FEE_CHOICES, generateAccounts } from "../../src/club-sim/demo-data.ts";
import { openDatabase } from "../../src/db/client.ts";
import { bookingRequests, bookings, requestAttempts } from "../../src/db/schema.ts";
import { addDays, manilaDate, manilaTimeOfDay, weekdayOf } from "../../src/domain/manila-time.ts";
import type { AppSettings } from "../../src/domain/settings.ts";
import type { ClientAction, ServerMessage } from "../../src/realtime/messages.ts";
import { createRandom } from "../../src/club-sim/random.ts";
import { callJson, MemberSocket, newHttpStats, percentile, signIn, startTeeboxChild, type Caller, type TeeboxChild } from "./load-harness.ts";

const MEMBERS = 30;
const SOCKETS_PER_MEMBER = 10;
const RUN_MS = 60_000;
const RELEASE_INTO_RUN_MS = 20_000;
/** Setup (members, sign-ins, sockets) is expected well within this; the club's clock is moved by what is left. */
const SETUP_BUDGET_MS = 20_000;
const RELEASE_DAYS_BEFORE = 7;
/** A member's pause between two actions: the pace of a person clicking, not a wait for a result. */
const THINK_MIN_MS = 100;
const THINK_MAX_MS = 400;
const MAX_OPS_PER_MEMBER = 1_000;
const MAX_PENDING_PER_MEMBER = 6;
const ANSWER_TIMEOUT_MS = 10_000;
const ADMIN_PASSWORD = "load-admin-password";
const SECRET_KEY = "load-test-secret-key-0123456789ab";
/** Early Masters/Legends times (05:04–07:52 every 8 minutes), inside every course's windows. */
const EARLY_TIMES = Array.from({ length: 22 }, (_, i) => {
  const m = 5 * 60 + 4 + i * 8;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
});
/** A first choice of its own for each member at the release (early times, then 11:00 on), so every request posts. */
const RELEASE_FIRST_CHOICES = [...EARLY_TIMES, ...Array.from({ length: 8 }, (_, i) => `11:${String(i * 8).padStart(2, "0")}`)];
const READ_PATHS = ["/v1/tee-times", "/v1/my/bookings", "/v1/my/requests", "/v1/my/players", "/v1/advisories", "/v1/system/rules"];

const courseFor = (date: string) => (weekdayOf(date) === 7 ? "legends" : "masters");

interface Member {
  index: number;
  id: number;
  username: string;
  email: string;
  caller: Caller;
  sockets: MemberSocket[];
  futureSubmitted: number;
  releaseSubmitted: number;
  cancelsOk: number;
  /** `date first-time` of every request submitted: Teebox refuses an identical request. */
  firstChoices: Set<string>;
}

interface WriteStats {
  sent: number;
  latenciesMs: number[];
  errors: string[];
  unanswered: number;
}

const writeStats = new Map<ClientAction, WriteStats>();
function recordWrite(action: ClientAction, ms: number, problem: string | null, isAnswered: boolean): void {
  const stats = writeStats.get(action) ?? { sent: 0, latenciesMs: [], errors: [], unanswered: 0 };
  writeStats.set(action, stats);
  stats.sent++;
  if (!isAnswered) stats.unanswered++;
  else stats.latenciesMs.push(ms);
  if (problem) stats.errors.push(problem);
}

let club: RunningClubSim | null = null;
let teebox: TeeboxChild | null = null;
let dataDir: string | null = null;
const allSockets: MemberSocket[] = [];

afterAll(async () => {
  for (const s of allSockets) s.close();
  await teebox?.stop();
  await club?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("300 sockets and 60 s of mixed traffic with a release in the middle: no errors, nothing lost", async () => {
  const setupStarted = Date.now();
  // The release instant: a whole minute on the club's clock, reached (at first) SETUP_BUDGET +
  // RELEASE_INTO_RUN from now; the club runs up to a minute ahead to make it so, and is moved
  // again when the run starts (by what setup left of its budget).
  const releaseClub = Math.ceil((setupStarted + SETUP_BUDGET_MS + RELEASE_INTO_RUN_MS) / 60_000) * 60_000;
  const releaseTime = manilaTimeOfDay(releaseClub).slice(0, 5);
  const releaseDate = addDays(manilaDate(releaseClub), RELEASE_DAYS_BEFORE);
  const futureDates = [1, 2, 3, 4, 5].map((k) => addDays(releaseDate, k));
  const accounts = generateAccounts(MEMBERS);

  const sim: ClubSim = createClubSim({
    seed: 11,
    clockOffsetMs: releaseClub - (setupStarted + SETUP_BUDGET_MS + RELEASE_INTO_RUN_MS),
    releaseTime,
    releaseDaysBefore: RELEASE_DAYS_BEFORE,
    extraAccounts: accounts,
    controlToken: "load-test",
  });
  club = await sim.start();
  dataDir = mkdtempSync(join(tmpdir(), "teebox-load-"));
  teebox = await startTeeboxChild({ DATA_DIR: dataDir, CLUB_URL: club.url, ADMIN_PASSWORD, SECRET_KEY, LOG_LEVEL: "warn" });
  const url = teebox.url;
  const setupHttp = newHttpStats();

  // ── setup: settings, members with club logins, sockets ───────────────
  const admin: Caller = { url, cookie: await signIn(url, "admin", ADMIN_PASSWORD) };
  const current = await callJson<{ settings: AppSettings }>(setupHttp, admin, "GET", "/v1/admin/app-settings");
  expect(current).not.toBeNull();
  const settings: AppSettings = {
    ...current!.settings,
    release_time: releaseTime,
    release_days_before: RELEASE_DAYS_BEFORE,
    scraper_username: "load01",
    log_level: "warn",
  };
  expect(await callJson(setupHttp, admin, "PUT", "/v1/admin/app-settings", settings)).not.toBeNull();

  const members: Member[] = [];
  for (let start = 0; start < MEMBERS; start += 6) {
    const batch = accounts.slice(start, start + 6).map(async (account, offset) => {
      const index = start + offset;
      const username = `load${String(index + 1).padStart(2, "0")}`;
      const password = `${username}-password`;
      const name = `${account.firstName} ${account.lastName}`;
      const created = await callJson<{ id: number }>(setupHttp, admin, "POST", "/v1/admin/users", {
        username,
        password,
        role: "user",
        status: "active",
        name,
        memberId: account.membershipNumber,
        southwoods_email: account.email,
      });
      if (!created) throw new Error(`member ${username} was not created: ${setupHttp.unexpected.at(-1) ?? setupHttp.serverErrors.at(-1)}`);
      const caller: Caller = { url, cookie: await signIn(url, username, password) };
      // A password the admin typed is replaced first (Teebox answers nothing else until then).
      // (A 204 answers null; a failure lands in setupHttp.unexpected, checked below.)
      await callJson(setupHttp, caller, "POST", "/v1/my/user/set-password", { currentPassword: password, newPassword: `${password}-own` });
      const profile = await callJson(setupHttp, caller, "PUT", "/v1/my/profile", {
        name,
        memberId: account.membershipNumber,
        southwoods_email: account.email,
        golf_password: account.password,
        defaultCartType: CART_CHOICES[0],
        defaultFeeGuest: GUEST_FEE_CHOICES[0],
        defaultFeeMember: MEMBER_FEE_CHOICES[0],
      });
      if (!profile) throw new Error(`profile of ${username} was not saved: ${setupHttp.unexpected.at(-1) ?? setupHttp.serverErrors.at(-1)}`);
      members[index] = {
        index,
        id: created.id,
        username,
        email: account.email,
        caller,
        sockets: [],
        futureSubmitted: 0,
        releaseSubmitted: 0,
        cancelsOk: 0,
        firstChoices: new Set(),
      };
    });
    await Promise.all(batch);
  }
  for (const member of members) {
    member.sockets = await Promise.all(Array.from({ length: SOCKETS_PER_MEMBER }, (_, k) => MemberSocket.open(url, member.caller.cookie, `${member.username}-${k}`)));
    allSockets.push(...member.sockets);
  }
  expect(allSockets.length).toBe(MEMBERS * SOCKETS_PER_MEMBER);
  expect(setupHttp.serverErrors).toEqual([]);
  expect(setupHttp.unexpected).toEqual([]);

  // ── the run ──────────────────────────────────────────────────────────
  const runStart = Date.now();
  const setupMs = runStart - setupStarted;
  // Pin the release instant to 20 s into the run (the club's clock moves before Teebox measures it).
  sim.setClockOffset(releaseClub - (runStart + RELEASE_INTO_RUN_MS));
  const releaseLocal = releaseClub - sim.clockOffsetMs();
  const logsBefore = teebox.logLines.length;
  const endAt = performance.now() + RUN_MS;
  const http = newHttpStats();
  const submitOutcomes: string[] = [];

  const expectNoProblem = (action: ClientAction, answer: { message: ServerMessage | null; ms: number }, isOk: (m: ServerMessage) => boolean) => {
    const message = answer.message;
    const problem =
      message === null ? null : message.type === "error" ? `${action}: ${message.message}` : isOk(message) ? null : `${action}: unexpected answer ${JSON.stringify(message)}`;
    recordWrite(action, answer.ms, problem, message !== null);
    return message !== null && problem === null;
  };

  const submission = (date: string, times: string[]) => ({
    course: courseFor(date),
    targetDate: date,
    selectionOrder: times.map((time) => ({ time, slotId: null })),
    memberCartType: CART_CHOICES[0],
    playerDetails: { players: [] },
  });

  async function submit(member: Member, rand: () => number, date: string, isRelease: boolean): Promise<void> {
    const socket = member.sockets[Math.floor(rand() * SOCKETS_PER_MEMBER)];
    // At the release, each member's first choice is a time nobody else of ours wants first.
    const wanted = new Set<string>(isRelease ? [RELEASE_FIRST_CHOICES[member.index]] : []);
    // A future request's first time is one this member has not asked for on that date yet.
    const fresh = EARLY_TIMES.filter((time) => !member.firstChoices.has(`${date} ${time}`));
    if (!isRelease) {
      if (fresh.length === 0) return;
      wanted.add(fresh[Math.floor(rand() * fresh.length)]);
    }
    member.firstChoices.add(`${date} ${[...wanted][0]}`);
    while (wanted.size < 3) wanted.add(EARLY_TIMES[Math.floor(rand() * EARLY_TIMES.length)]);
    const answer = await socket.send("SUBMIT_BOOKING_REQUEST", submission(date, [...wanted]), ANSWER_TIMEOUT_MS);
    expectNoProblem("SUBMIT_BOOKING_REQUEST", answer, (m) => m.type === "submissionResult" && m.status === "pending");
    // A stored request counts whatever the answer said, so that nothing stored goes unaccounted.
    if (answer.message?.type !== "submissionResult") return;
    submitOutcomes.push(answer.message.status);
    if (isRelease) member.releaseSubmitted++;
    else member.futureSubmitted++;
  }

  async function cancelOne(member: Member, rand: () => number): Promise<boolean> {
    const listed = await callJson<{ id: number; play_date: string; status: string }[]>(http, member.caller, "GET", `/v1/my/requests?_=${Date.now()}`);
    const candidates = (listed ?? []).filter((r) => r.status === "Pending" && r.play_date !== releaseDate);
    if (candidates.length === 0) return false;
    const target = candidates[Math.floor(rand() * candidates.length)];
    const socket = member.sockets[Math.floor(rand() * SOCKETS_PER_MEMBER)];
    const answer = await socket.sendCancel(target.id, member.cancelsOk + 1, ANSWER_TIMEOUT_MS);
    if (expectNoProblem("CANCEL_REQUEST", answer, (m) => m.type === "ack" || m.type === "toast")) member.cancelsOk++;
    return true;
  }

  async function updatePlayers(member: Member, rand: () => number): Promise<void> {
    const count = 1 + Math.floor(rand() * 3);
    const players = Array.from({ length: count }, (_, k) => ({
      firstName: `Guest${k + 1}`,
      lastName: `Of${member.username}x${Math.floor(rand() * 1000)}`,
      type: "Guest",
      memberId: "0000",
      cartPreference: CART_CHOICES[Math.floor(rand() * CART_CHOICES.length)],
      feePreference: GUEST_FEE_CHOICES[0],
    }));
    const socket = member.sockets[Math.floor(rand() * SOCKETS_PER_MEMBER)];
    const answer = await socket.send("UPDATE_PLAYERS", players, ANSWER_TIMEOUT_MS);
    expectNoProblem("UPDATE_PLAYERS", answer, (m) => m.type === "ack");
  }

  async function runScraper(member: Member, rand: () => number): Promise<void> {
    const socket = member.sockets[Math.floor(rand() * SOCKETS_PER_MEMBER)];
    const answer = await socket.send("RUN_SCRAPER", undefined, ANSWER_TIMEOUT_MS);
    expectNoProblem("RUN_SCRAPER", answer, (m) => m.type === "scraper");
  }

  async function read(member: Member, rand: () => number): Promise<void> {
    const path = READ_PATHS[Math.floor(rand() * READ_PATHS.length)];
    await callJson(http, member.caller, "GET", `${path}?_=${Date.now()}`);
  }

  async function runMember(member: Member): Promise<void> {
    const rand = createRandom(1000 + member.index);
    // Everyone asks for the release date first (spread over the first 3 s), then mixes.
    await Bun.sleep(member.index * 100);
    await submit(member, rand, releaseDate, true);
    for (let ops = 0; ops < MAX_OPS_PER_MEMBER && performance.now() < endAt; ops++) {
      await Bun.sleep(THINK_MIN_MS + rand() * (THINK_MAX_MS - THINK_MIN_MS));
      if (performance.now() >= endAt) break;
      const roll = rand();
      const pending = member.futureSubmitted - member.cancelsOk;
      if (roll < 0.5) await read(member, rand);
      else if (roll < 0.62) await updatePlayers(member, rand);
      else if (roll < 0.78 && pending < MAX_PENDING_PER_MEMBER) await submit(member, rand, futureDates[Math.floor(rand() * futureDates.length)], false);
      else if (roll < 0.95) {
        if (!(await cancelOne(member, rand))) await submit(member, rand, futureDates[Math.floor(rand() * futureDates.length)], false);
      } else await runScraper(member, rand);
    }
  }

  await Promise.all(members.map(runMember));
  const runMs = Date.now() - runStart;

  // ── afterwards ───────────────────────────────────────────────────────
  const database = openDatabase(`file:${join(dataDir, "teebox.db")}`);
  try {
    const memberIds = members.map((m) => m.id);
    // The release ended long ago (20 s in); wait (bounded) for anything still being processed.
    const settleDeadline = performance.now() + 15_000;
    let rows = await database.db.select().from(bookingRequests).where(inArray(bookingRequests.userId, memberIds));
    while (rows.some((r) => r.playDate === releaseDate && (r.status === "pending" || r.status === "processing")) && performance.now() < settleDeadline) {
      await Bun.sleep(100);
      rows = await database.db.select().from(bookingRequests).where(inArray(bookingRequests.userId, memberIds));
    }
    const attempts = await database.db
      .select()
      .from(requestAttempts)
      .where(
        inArray(
          requestAttempts.requestId,
          rows.map((r) => r.id),
        ),
      );
    const booked = await database.db.select().from(bookings).where(inArray(bookings.userId, memberIds));

    // Every socket of a member heard every cancellation of that member (bounded wait for stragglers).
    const toastDeadline = performance.now() + 5_000;
    const isToastsComplete = () => members.every((m) => m.sockets.every((s) => s.cancelToasts === m.cancelsOk));
    while (!isToastsComplete() && performance.now() < toastDeadline) await Bun.sleep(20);

    const health = await fetch(`${url}/healthz`);
    const healthBody = await health.text();
    const newLogs = teebox.logLines.slice(logsBefore);
    const errorLogs = newLogs.filter((l) => l.level === "error");

    // ── the summary ────────────────────────────────────────────────────
    const httpSorted = [...http.latenciesMs].sort((a, b) => a - b);
    const clubPosts = sim.attempts().filter((a) => !a.isRival && a.date === releaseDate);
    const firstPosts = members
      .map((m) => Math.min(...clubPosts.filter((a) => a.email === m.email).map((a) => a.arrivedClubMs)) - releaseClub)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const lines = [
      `load: setup ${setupMs} ms; run ${runMs} ms; ${allSockets.length} sockets; release at +${releaseLocal - runStart} ms (club clock ${sim.clockOffsetMs()} ms ahead)`,
      `  HTTP reads: ${http.count}, p50 ${percentile(httpSorted, 50).toFixed(1)} ms, p99 ${percentile(httpSorted, 99).toFixed(1)} ms, 5xx/network ${http.serverErrors.length}, other non-2xx ${http.unexpected.length}`,
      ...[...writeStats].map(([action, s]) => {
        const sorted = [...s.latenciesMs].sort((a, b) => a - b);
        return `  ${action}: ${s.sent}, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, errors ${s.errors.length}, unanswered ${s.unanswered}`;
      }),
      `  release: ${clubPosts.length} booking posts at the club; first post per member after the instant p50 ${percentile(firstPosts, 50)} ms, max ${firstPosts.at(-1)} ms`,
      `  requests stored ${rows.length}: ${["pending", "processing", "confirmed", "failed", "cancelled"].map((st) => `${st} ${rows.filter((r) => r.status === st).length}`).join(", ")}`,
      `  error log lines during the run: ${errorLogs.length}; /healthz ${health.status}`,
    ];
    console.log(lines.join("\n"));

    // ── the checks ─────────────────────────────────────────────────────
    expect(setupMs).toBeLessThan(SETUP_BUDGET_MS + RELEASE_INTO_RUN_MS);
    expect(http.serverErrors).toEqual([]);
    expect(http.unexpected).toEqual([]);
    expect(http.count).toBeGreaterThan(1000);
    expect(allSockets.filter((s) => s.closedUnexpectedly).map((s) => `${s.label}: ${s.closedUnexpectedly}`)).toEqual([]);
    expect(allSockets.flatMap((s) => s.protocolErrors)).toEqual([]);
    for (const action of ["SUBMIT_BOOKING_REQUEST", "CANCEL_REQUEST", "UPDATE_PLAYERS", "RUN_SCRAPER"] as const) {
      const s = writeStats.get(action);
      expect(s?.sent ?? 0).toBeGreaterThan(0);
      expect({ action, errors: s?.errors ?? [], unanswered: s?.unanswered ?? 0 }).toEqual({ action, errors: [], unanswered: 0 });
    }
    expect(submitOutcomes.every((s) => s === "pending")).toBe(true);
    expect(errorLogs).toEqual([]);
    expect({ status: health.status, body: healthBody }).toEqual({ status: 200, body: healthBody });

    // Nothing lost: per member, every stored request is one that was answered, in the state expected.
    for (const member of members) {
      const own = rows.filter((r) => r.userId === member.id);
      const future = own.filter((r) => r.playDate !== releaseDate);
      const released = own.filter((r) => r.playDate === releaseDate);
      expect({
        member: member.username,
        stored: own.length,
        cancelled: future.filter((r) => r.status === "cancelled").length,
        pending: future.filter((r) => r.status === "pending").length,
        released: released.length,
        releasedSettled: released.filter((r) => r.status === "confirmed" || r.status === "failed").length,
      }).toEqual({
        member: member.username,
        stored: member.futureSubmitted + member.releaseSubmitted,
        cancelled: member.cancelsOk,
        pending: member.futureSubmitted - member.cancelsOk,
        released: 1,
        releasedSettled: 1,
      });
      expect(member.sockets.map((s) => s.cancelToasts)).toEqual(member.sockets.map(() => member.cancelsOk));
      // The member's own view agrees with the database.
      const listed = await callJson<{ status: string; play_date: string }[]>(http, member.caller, "GET", `/v1/my/requests?_=${Date.now()}`);
      expect(listed?.filter((r) => r.status === "Pending").length).toBe(member.futureSubmitted - member.cancelsOk);
      const listedBookings = await callJson<{ bookingId: string; date: string }[]>(http, member.caller, "GET", `/v1/my/bookings?_=${Date.now()}`);
      const ownBookings = booked.filter((b) => b.userId === member.id);
      expect((listedBookings ?? []).map((b) => b.bookingId).sort()).toEqual(ownBookings.map((b) => b.bookingRef).sort());
    }

    // The release fired: every released request was posted to the club, none before the instant,
    // and each confirmed one is a booking of its member.
    const releasedRows = rows.filter((r) => r.playDate === releaseDate);
    expect(releasedRows.length).toBe(MEMBERS);
    for (const row of releasedRows) {
      expect({ request: row.id, attempts: attempts.filter((a) => a.requestId === row.id).length > 0 }).toEqual({ request: row.id, attempts: true });
      if (row.status === "confirmed") expect(booked.some((b) => b.requestId === row.id && b.userId === row.userId)).toBe(true);
      else expect(row.failureReason).toBeTruthy();
    }
    expect(releasedRows.filter((r) => r.status === "confirmed").length).toBeGreaterThan(0);
    expect(clubPosts.filter((a) => a.arrivedClubMs < releaseClub)).toEqual([]);
    expect(new Set(clubPosts.map((a) => a.email))).toEqual(new Set(members.map((m) => m.email)));
    // Nothing was booked for the later dates: they are not open yet.
    expect(sim.attempts().filter((a) => !a.isRival && futureDates.includes(a.date))).toEqual([]);
    expect(await database.db.select().from(bookingRequests).where(eq(bookingRequests.status, "processing"))).toEqual([]);
  } finally {
    await database.close();
  }
}, 120_000);
