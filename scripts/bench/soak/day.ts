/**
 * One simulated day of the soak, in four phases on the shared clock:
 *
 *   release   from 95 s before the 07:00 release (the engine prepares 90 s ahead) to a minute after
 *             it, at `releaseRate`; on some days the club is down at the instant, or opens late;
 *   day       17:50 to 18:05 at `dayRate`: the members' and the admin's activity, the scraper, the
 *             bookings sync, the watches' polls and the 18:00 readiness check on their schedules;
 *   rest      real time (rate 1): Teebox's CPU and memory once the day's work has ended;
 *   check     the club's record against Teebox's and the members' (invariants.ts), and the figures.
 *
 * Time jumps over the rest of the day. Each week Teebox is killed (kill -9) once and stopped
 * (SIGTERM) once, each at a random moment of the release or the day phase, and started again on
 * the same data folder; on some days the mail server is down.
 */
import type { BookingAttemptRecord, SimBooking } from "../../../src/club-sim/state.ts";
import type { TrafficCount } from "../../../src/club-sim/traffic.ts";
import { addDays, manilaInstant } from "../../../src/domain/manila-time.ts";
import type { SimClockDriver } from "../../../src/lib/sim-clock.ts";
import { startSmtpServer, type TestSmtpServer } from "../../../test/helpers/smtp-server.ts";
import { noActivity, planDay, type ActivityCounts, type AdminState, type World } from "./activity.ts";
import { checkLifeMemory, checkMail, checkRecords, checkReleaseOnTime, checkWeeklyMemory, membersReadSince, type Failure, type Outage, type Suspects } from "./invariants.ts";
import { ServerTrouble } from "./members.ts";
import { heapUsedMb, ratePerMinute, sampleAtRest, summariseTraffic, type TrafficSummary } from "./measure.ts";
import type { ClubHandle, Downtime, TeeboxHandle } from "./processes.ts";
import type { SoakOptions } from "./run.ts";
import { processingDueBy, readSnapshot } from "./teebox-db.ts";

/** The club's clock runs this far ahead of true time; Teebox measures it. */
export const CLUB_OFFSET_MS = 700;
const RELEASE_TIME = "07:00";
const RELEASE_LEAD_MS = 95_000;
const RELEASE_TAIL_MS = 60_000;
const DAY_FROM = "17:50";
const DAY_TO = "18:05";
/**
 * One-second slices of the rest sample: six on the days a loop is likeliest to be left behind (a
 * restart, a trouble: club down, late or failing, mail down) and on each week's last day; three on
 * the other days. The figure is the second lowest slice either way, which over three slices is the
 * median (as high or higher than over six: fewer slices make the check no looser), and an over-bound
 * sample is always followed by six more.
 */
const REST_SLICES = 6;
const QUIET_DAY_REST_SLICES = 3;
const REST_MAX_SETTLE_MS = 15_000;
/** How late the club opens on a late day, after the instant it announced (the demo club's 'open late' fault). */
const LATE_OPENING_MS = 15_000;
/** On a late day the clock runs at real speed from this long before the instant to this long after the opening. */
const LATE_RATE_FROM_MS = 3_000;
const LATE_RATE_TAIL_MS = 5_000;
/** The club down on a down day, from before the instant to after it. */
const CLUB_DOWN_FROM_MS = -5_000;
const CLUB_DOWN_TO_MS = 40_000;
/**
 * After an outage that covered the instant, how long the posts due may still take: the club's
 * clock read again (its probes wait for a club second) and a retry's back-off, in simulated time,
 * and the rest in real time (a fresh Teebox reading its database and signing members in, the
 * requests reading the members' bookings after posts left unanswered), which the phase's rate
 * stretches. A fresh start is given a second of real time, a club back again half as much.
 */
const SETTLE_SIM_MS = 3_000;
const START_SETTLE_REAL_MS = 1_000;
const CLUB_BACK_SETTLE_REAL_MS = 500;
/** What a SIGTERM's stop is allowed in the outage it makes (real time; it takes about 0.4 s). */
const STOP_SETTLE_REAL_MS = 1_000;
/**
 * A SIGTERM stops Teebox within this (real time): what it waits for (answers of posts in flight,
 * a pass finishing its step) takes milliseconds; a stop that waits for a long piece of work (a
 * clock measurement of half a minute) leaves the release unfired meanwhile.
 */
const STOP_BOUND_MS = 5_000;
/** Lines of Teebox's log shown under a late release. */
const TAIL_SHOWN = 40;
/** Lines that say what a release did and when (the club's clock measured, Teebox up or stopping, the wave armed, trouble), not each request's outcome or mail. */
const ROUTINE_LINE = /"message":"(mail: |booking request stored|release: booked|release: request failed|scrape run finished|retention pass|bookings sync)/;
const explains = (line: string) => !ROUTINE_LINE.test(line);

/**
 * A first post reaches the club within 2 s of the instant (club time), plus 0.25 s of real time at
 * the phase's rate: a post's way to the club, making 30 requests ready and a busy moment of the
 * machine take real time, which the simulated clock stretches (at 30× the engine's half second to
 * make them ready is 17 ms of real time; on a loaded machine a wave once left 4.75 s of club time late).
 */
const ON_TIME_SIM_MS = 2_000;
const ON_TIME_REAL_MS = 250;
const onTimeMs = (rate: number) => ON_TIME_SIM_MS + ON_TIME_REAL_MS * rate;

/** The rate of the simulated clock in the release phase at a moment (our clock): real time while the club opens late. */
function releaseRateAt(day: number, instant: number, atMs: number, rate: number): number {
  const isLateWindow = faultsOf(day).lateOpening && atMs >= instant - LATE_RATE_FROM_MS && atMs < instant + LATE_OPENING_MS + LATE_RATE_TAIL_MS;
  return isLateWindow ? 1 : rate;
}

/**
 * The outages that may cover a day's release (club clock): Teebox's restarts in the phase, the club
 * down on a down day, and the club not yet open on a late day (a Teebox that could not prepare, a
 * restart, has no slot ids until the club shows the date's sheet). `instant` is on our clock.
 */
function releaseOutages(day: number, instant: number, downtimes: readonly Downtime[], rate: number): Outage[] {
  const settle = (ourMs: number, realMs: number) => SETTLE_SIM_MS + realMs * releaseRateAt(day, instant, ourMs, rate);
  const instantClub = instant + CLUB_OFFSET_MS;
  const outages: Outage[] = downtimes.map((d) => {
    // A stop longer than a stop takes is Teebox's own lateness, not an outage: it is not allowed for.
    const slowStopMs = Math.max(0, d.endedMs - d.fromMs - STOP_SETTLE_REAL_MS * releaseRateAt(day, instant, d.endedMs, rate));
    return { fromMs: d.fromMs + CLUB_OFFSET_MS, toMs: d.toMs - slowStopMs + CLUB_OFFSET_MS, settleMs: settle(d.toMs, START_SETTLE_REAL_MS) };
  });
  const trouble = faultsOf(day);
  if (trouble.clubDown)
    outages.push({ fromMs: instantClub + CLUB_DOWN_FROM_MS, toMs: instantClub + CLUB_DOWN_TO_MS, settleMs: settle(instant + CLUB_DOWN_TO_MS, CLUB_BACK_SETTLE_REAL_MS) });
  if (trouble.lateOpening) outages.push({ fromMs: instantClub, toMs: instantClub + LATE_OPENING_MS, settleMs: settle(instant + LATE_OPENING_MS, CLUB_BACK_SETTLE_REAL_MS) });
  return outages;
}

export interface Soak {
  options: SoakOptions;
  dataDir: string;
  clock: SimClockDriver;
  club: ClubHandle;
  teebox: TeeboxHandle;
  smtp: { server: TestSmtpServer; isDown: boolean };
  world: World;
  emailOf: Map<number, string>;
  adminState: AdminState;
  suspects: Suspects;
  /** Daily RSS of the current process life. */
  lifeRss: number[];
  figures: DayFigures[];
  restarts: Map<number, Restart[]>;
  logBytesAtCheck: number;
  endsSeen: number;
  releaseDaysBefore: number;
}

export interface Restart {
  how: "kill" | "term";
  phase: "release" | "day";
  /** Where in the phase: a share of the release phase's real time, or of the day's tasks. */
  at: number;
  /** After a SIGTERM, a second start on the same folder this many ms after the first (a supervisor racing a manual start). */
  raceMs: number;
  /** In the release phase: at this simulated moment relative to the instant (club clock) instead of at a share of the phase (--restart). */
  atInstantMs?: number;
}

export interface DayFigures {
  day: number;
  date: string;
  /** Requests released today, and how they ended. */
  released: number;
  releasedConfirmed: number;
  releasedFailed: number;
  /** Bookings of Teebox members the club made today (releases and watches). */
  booked: number;
  activity: ActivityCounts;
  rssMb: number;
  /** The JavaScript heap in use at rest (Teebox's /metrics); null when it could not be read. */
  heapMb: number | null;
  /** CPU between events (the resting floor: the second lowest one-second slice at rest), and the mean over the slices. */
  cpuAtRestPercent: number;
  meanCpuAtRestPercent: number;
  settleMs: number;
  databaseMb: number;
  walMb: number;
  logMb: number;
  traffic: TrafficSummary;
  /** Teebox's booking posts for the day's release as the club logged them: the first's arrival after the announced instant (s), and how many were answered "not yet open". */
  release: { firstPostS: number | null; notYetOpen: number; posts: number };
  /** The club's requests per minute in the day's busy quarter-hour (members' day, compressed into it). */
  busyRatePerMinute: number;
  activeWatches: number;
  mailQueued: number;
  tableRows: Record<string, number>;
  restarts: string[];
  faults: string[];
  failures: Failure[];
  realMs: number;
}

/** One kill -9 and one SIGTERM a week, each on a random day at a random moment of a busy phase. */
export function planRestarts(rand: () => number, days: number): Map<number, Restart[]> {
  const plan = new Map<number, Restart[]>();
  for (let week = 0; week * 7 < days; week++) {
    for (const how of ["kill", "term"] as const) {
      const day = Math.min(days - 1, week * 7 + Math.floor(rand() * 7));
      const restart: Restart = { how, phase: rand() < 0.5 ? "release" : "day", at: rand(), raceMs: Math.floor(rand() * 51) };
      plan.set(day, [...(plan.get(day) ?? []), restart]);
    }
  }
  return plan;
}

/** The day's troubles, fixed by its number so every run of a length meets the same ones. */
function faultsOf(day: number) {
  return { clubDown: day % 9 === 4, lateOpening: day % 11 === 6, clubErrors: day % 13 === 8, mailDown: day % 10 === 3 || day % 10 === 4 };
}

/** Our time for a Manila wall time of the club's clock. */
const ours = (date: string, time: string) => manilaInstant(date, time) - CLUB_OFFSET_MS;

/**
 * Restarts Teebox as planned; returns when it was down (simulated time, our clock). In the release
 * phase (`instant`, our clock) its note says when, relative to the instant (one note a restart:
 * the restarts are counted by their notes).
 */
async function restart(soak: Soak, planned: Restart, notes: string[], failures: Failure[], instant?: number): Promise<Downtime> {
  const when = (down: Downtime) =>
    instant === undefined ? "" : ` (down from ${secondsFrom(instant, down.fromMs)} to ${secondsFrom(instant, down.toMs)} s of the release, club time)`;
  if (planned.how === "kill") {
    const { startMs, down } = await soak.teebox.restartKilled();
    notes.push(`kill -9, up again in ${(startMs / 1000).toFixed(1)} s${when(down)}`);
    soak.lifeRss = [];
    return down;
  }
  const { stopMs, startMs, code, race, down } = await soak.teebox.restartGracefully(planned.raceMs);
  notes.push(
    `SIGTERM (exit ${code}, stopped in ${(stopMs / 1000).toFixed(1)} s), up again in ${(startMs / 1000).toFixed(1)} s with a second start ${planned.raceMs} ms later${when(down)}`,
  );
  if (stopMs > STOP_BOUND_MS)
    failures.push({ invariant: "SIGTERM slow to stop", detail: `stopped in ${(stopMs / 1000).toFixed(1)} s (bound ${STOP_BOUND_MS / 1000} s, real time)` });
  const lines = (race?.stderr ?? "").split("\n").filter((line) => line.trim());
  if (race?.bothServed) failures.push({ invariant: "two servers on one database", detail: `a second start ${planned.raceMs} ms after the first served too` });
  else if (race && (race.code === 0 || lines.length !== 1)) {
    failures.push({ invariant: "a second start not refused in one line", detail: `exit ${race.code}, stderr: ${lines.slice(0, 5).join(" | ").slice(0, 400)}` });
  }
  soak.lifeRss = [];
  return down;
}

/** Teebox started again on the same folder after it ended on its own. */
async function startAgain(soak: Soak, notes: string[]): Promise<void> {
  const startMs = await soak.teebox.start();
  notes.push(`ended on its own; started again in ${(startMs / 1000).toFixed(1)} s`);
  soak.lifeRss = [];
}

function setMailServer(soak: Soak, isDown: boolean): void {
  if (soak.smtp.isDown === isDown) return;
  if (isDown) soak.smtp.server.stop();
  else soak.smtp.server = startSmtpServer({}, soak.smtp.server.port);
  soak.smtp.isDown = isDown;
}

/** The release phase; returns when Teebox was down in it (simulated time, our clock). */
async function releasePhase(soak: Soak, day: number, date: string, restarts: Restart[], notes: string[], faults: string[], failures: Failure[]): Promise<Downtime[]> {
  const { clock, club, options } = soak;
  const instant = ours(date, RELEASE_TIME);
  const trouble = faultsOf(day);
  clock.jumpTo(instant - RELEASE_LEAD_MS, options.releaseRate);
  const side: Promise<void>[] = [];
  if (trouble.clubDown) {
    faults.push(`club down from ${-CLUB_DOWN_FROM_MS / 1000} s before the release to ${CLUB_DOWN_TO_MS / 1000} s after`);
    side.push(
      (async () => {
        await clock.sleepUntil(instant + CLUB_DOWN_FROM_MS);
        await club.control("POST", "/faults", { down: true });
        await clock.sleepUntil(instant + CLUB_DOWN_TO_MS);
        await club.control("POST", "/faults", { down: false });
      })(),
    );
  }
  if (trouble.lateOpening) {
    faults.push(`club opens ${LATE_OPENING_MS / 1000} s late`);
    // The club announces 07:00 and opens the date later (its 'open late' fault): until then it
    // answers "not yet open", and its rivals act shortly after the real opening. That while runs in
    // real time, as Teebox's retries would at a real club: how often it asks is what is measured,
    // and at 20× a round trip would take twenty times its share of it.
    await club.control("POST", "/faults", { openLateMs: LATE_OPENING_MS });
    side.push(
      (async () => {
        await clock.sleepUntil(instant - LATE_RATE_FROM_MS);
        clock.setRate(1);
        await clock.sleepUntil(instant + LATE_OPENING_MS + LATE_RATE_TAIL_MS);
        clock.setRate(options.releaseRate);
        await clock.sleepUntil(instant + RELEASE_TAIL_MS - 5000);
        await club.control("POST", "/faults", { openLateMs: 0 });
      })(),
    );
  }
  const realLength = (RELEASE_LEAD_MS + RELEASE_TAIL_MS) / options.releaseRate;
  const downtimes: Downtime[] = [];
  for (const planned of restarts.filter((r) => r.phase === "release")) {
    side.push(
      (async () => {
        // The club's clock reads the instant at our `instant`; a forced moment is told on the club's clock.
        if (planned.atInstantMs === undefined) await Bun.sleep(planned.at * realLength);
        else await clock.sleepUntil(instant + planned.atInstantMs);
        downtimes.push(await restart(soak, planned, notes, failures, instant));
      })(),
    );
  }
  await clock.sleepUntil(instant + RELEASE_TAIL_MS);
  await Promise.all(side);
  // A Teebox up again late in the phase is given the time it may take to send what is due before
  // time jumps to the evening: a jump would make "a second later" hours later.
  const lastUp = Math.max(...downtimes.map((d) => d.toMs));
  if (Number.isFinite(lastUp)) await clock.sleepUntil(lastUp + SETTLE_SIM_MS + START_SETTLE_REAL_MS * options.releaseRate + onTimeMs(options.releaseRate));
  await runOnWhileProcessing(soak, instant);
  return downtimes;
}

/** The club's retry window at its default (club_retry_minutes): the longest a request keeps trying. */
const RETRY_WINDOW_MS = 10 * 60_000;
const PROCESSING_POLL_MS = 5_000;

/**
 * Requests of this release still processing (checking with a club that was down, or with one slow to
 * answer on a busy machine) are given the club's retry window at the phase's rate before time jumps
 * to the evening: a jump would turn their next read, two seconds later, into hours.
 */
async function runOnWhileProcessing(soak: Soak, instant: number): Promise<void> {
  const { clock } = soak;
  while (clock.now() < instant + RETRY_WINDOW_MS && processingDueBy(soak.dataDir, instant + CLUB_OFFSET_MS) > 0) {
    await clock.sleepUntil(clock.now() + PROCESSING_POLL_MS);
  }
}

/** A moment as signed seconds from another, as the day line shows it. */
const secondsFrom = (originMs: number, ms: number) => `${ms >= originMs ? "+" : "−"}${(Math.abs(ms - originMs) / 1000).toFixed(1)}`;

async function dayPhase(soak: Soak, day: number, date: string, restarts: Restart[], notes: string[], faults: string[], failures: Failure[]): Promise<void> {
  const { clock, club, options, world } = soak;
  clock.jumpTo(ours(date, DAY_FROM), options.dayRate);
  const trouble = faultsOf(day);
  if (trouble.clubErrors) {
    faults.push("club answers 30% of requests with 500 in the day phase");
    await club.control("POST", "/faults", { errorRate: 0.3 });
  }
  const snapshot = readSnapshot(soak.dataDir);
  const { bookings } = await club.control<{ bookings: SimBooking[] }>("GET", "/bookings/all");
  const tasks = planDay(world, options.mix, day, date, snapshot, bookings, soak.adminState, soak.releaseDaysBefore);
  const dayRestarts = restarts.filter((r) => r.phase === "day").map((r) => ({ ...r, index: Math.floor(r.at * tasks.length) }));
  for (const [index, task] of tasks.entries()) {
    for (const planned of dayRestarts.filter((r) => r.index === index)) await restart(soak, planned, notes, failures);
    try {
      await task();
    } catch (error) {
      // A 5xx or a dropped connection while Teebox runs is a failure; anything else a surprise.
      if (error instanceof ServerTrouble) failures.push({ invariant: "Teebox failed a member", detail: error.message });
      else world.surprises.push(`day ${day}: ${(error as Error).message}`);
    }
  }
  await clock.sleepUntil(ours(date, DAY_TO));
  if (trouble.clubErrors) await club.control("POST", "/faults", { errorRate: 0 });
}

/** Jobs whose passes come every few seconds: they are the resting state, not an event to step past. */
const FREQUENT_JOBS = new Set(["slot watch", "telemetry"]);
const REST_WINDOW_MS = 20_000;

/**
 * "Between events": a job's pass due within the rest window (a sync round, a scrape, the mail or
 * readiness rounds) is brought forward to now, so it runs before the sample rather than in it, and
 * the sample waits until no such pass is running (/healthz shows a running pass with no next
 * pass). At most 30 s.
 */
async function passDueSoon(soak: Soak): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const passes = await passTimes(soak);
    const now = soak.clock.now();
    const jobs = Object.entries(passes).filter(([name, pass]) => !FREQUENT_JOBS.has(name) && (pass.lastPassAt !== null || pass.nextPassAt !== null));
    const isRunning = jobs.some(([, pass]) => pass.nextPassAt === null);
    const due = jobs.flatMap(([, pass]) => (pass.nextPassAt !== null && pass.nextPassAt < now + REST_WINDOW_MS ? [pass.nextPassAt] : []));
    if (!isRunning && due.length === 0) return;
    if (due.length > 0) soak.clock.jumpTo(Math.max(...due) + 1);
    await Bun.sleep(500);
  }
}

type PassTimes = Record<string, { lastPassAt: number | null; nextPassAt: number | null }>;

async function passTimes(soak: Soak): Promise<PassTimes> {
  const health = (await fetch(`${soak.teebox.url}/healthz`).then(
    (r) => r.json(),
    () => null,
  )) as { passes?: PassTimes } | null;
  return health?.passes ?? {};
}

/**
 * A minute of rest before memory is read: the telemetry pass that a server left alone makes within
 * a minute, whose memory keeper gives back what the day's last work left (decision 197). Read at
 * once instead, RSS followed the garbage of the passes just brought forward (a scrape's parsed
 * pages, a sync round), 26 to 36 MB of heap from one day to the next. Waits at most 5 s.
 */
async function telemetryPassAtRest(soak: Soak): Promise<void> {
  const before = (await passTimes(soak)).telemetry;
  if (!before || before.nextPassAt === null) return;
  soak.clock.jumpTo(Math.max(soak.clock.now(), before.nextPassAt + 1));
  const deadline = performance.now() + 5_000;
  while (performance.now() < deadline) {
    const after = (await passTimes(soak)).telemetry;
    if (after && after.lastPassAt !== null && after.lastPassAt !== before.lastPassAt && after.nextPassAt !== null) return;
    await Bun.sleep(100);
  }
}

/** The memory checks (invariants.ts) on this process life's and this run's daily RSS. */
function checkMemory(soak: Soak, bounds: SoakOptions["bounds"]): Failure[] {
  const byDay = [...soak.figures.map((f) => f.rssMb), soak.lifeRss.at(-1) ?? Number.NaN].map((v) => (Number.isFinite(v) ? v : 0));
  return [...checkLifeMemory(soak.lifeRss, bounds), ...checkWeeklyMemory(byDay, bounds)];
}

/** Lives one simulated day and checks it. */
export async function livesDay(soak: Soak, day: number): Promise<DayFigures> {
  const realStart = performance.now();
  const { options, teebox, clock, club } = soak;
  const date = addDays(options.startDate, day);
  const restarts = soak.restarts.get(day) ?? [];
  const notes: string[] = [];
  const faults: string[] = [];
  const failures: Failure[] = [];
  soak.world.counts = noActivity();
  const trouble = faultsOf(day);
  setMailServer(soak, trouble.mailDown);
  if (trouble.mailDown) faults.push("mail server down");

  const downtimes = await releasePhase(soak, day, date, restarts, notes, faults, failures);
  const releaseTail = teebox.tail();
  await dayPhase(soak, day, date, restarts, notes, faults, failures);

  // ── at rest ────────────────────────────────────────────────────────────
  clock.setRate(1);
  // A Teebox that ended on its own is started again, as its supervisor would (the end is a failure below).
  if (!teebox.isRunning()) await startAgain(soak, notes);
  await passDueSoon(soak);
  await telemetryPassAtRest(soak);
  const troubled = restarts.length > 0 || Object.values(trouble).some(Boolean) || day % 7 === 6;
  const slices = troubled ? REST_SLICES : QUIET_DAY_REST_SLICES;
  let rest = await sampleAtRest(teebox.pid(), { slices, maxSettleMs: REST_MAX_SETTLE_MS }).catch(async () => {
    await startAgain(soak, notes);
    return { cpuPercent: Number.NaN, meanCpuPercent: Number.NaN, rssMb: Number.NaN, settleMs: 0 };
  });
  // Over the bound, a second sample follows at once: a loop that never rests is over in both, a
  // garbage collection or a slow pass that began in the first is over by the second.
  if (rest.cpuPercent > options.bounds.cpuAtRestPercent) {
    const again = await sampleAtRest(teebox.pid(), { slices: REST_SLICES, maxSettleMs: 0 });
    if (again.cpuPercent < rest.cpuPercent) rest = { ...again, settleMs: rest.settleMs + slices * 1000 };
  }
  const heapMb = await heapUsedMb(teebox.url);
  if (Number.isFinite(rest.rssMb)) soak.lifeRss.push(rest.rssMb);

  // ── the checks ─────────────────────────────────────────────────────────
  const nowMs = clock.now();
  const { traffic } = await club.control<{ traffic: TrafficCount[] }>("POST", "/traffic/take");
  const snapshot = readSnapshot(soak.dataDir);
  const { bookings } = await club.control<{ bookings: SimBooking[] }>("GET", "/bookings/all");
  // Whose bookings the sync read and applied since the last check, by Teebox's own record of it.
  const membersRead = membersReadSince(snapshot, soak.emailOf, soak.suspects.checkedAtMs);
  const records = checkRecords({ nowMs, today: date, teebox: snapshot, club: bookings, ledger: soak.world.ledger, emailOf: soak.emailOf, previous: soak.suspects, membersRead });
  soak.suspects = records.suspects;
  failures.push(...records.failures, ...checkMail(snapshot, nowMs));
  // A booking left on one side after a read: the sync's own lines, and the lives around them, say why.
  if (records.failures.some((f) => f.invariant.startsWith("booking only in"))) {
    const said = teebox.tail().filter((line) => /bookings sync|Teebox is serving|Teebox stopped|fetchMyBookings|reconcil/.test(line));
    failures.push({ invariant: "Teebox's log about the bookings sync", detail: said.slice(-TAIL_SHOWN).join("\n      ") || "(nothing in the last lines)" });
  }

  const health = await fetch(`${teebox.url}/healthz`).then(
    async (r) => ({ status: r.status, body: await r.text() }),
    (e: Error) => ({ status: 0, body: e.message }),
  );
  if (health.status !== 200) failures.push({ invariant: "a job is not alive", detail: `/healthz ${health.status}: ${health.body.slice(0, 300)}` });
  for (const end of teebox.ends().slice(soak.endsSeen)) {
    if (end.how === "crash")
      failures.push({
        invariant: "Teebox ended on its own",
        detail: `exit ${end.code}${end.signal ? ` (${end.signal})` : ""}; its last lines:\n      ${end.lastLines.join("\n      ")}`,
      });
    if (end.how === "term" && end.code !== 0) failures.push({ invariant: "SIGTERM did not stop cleanly", detail: `exit code ${end.code}` });
  }
  soak.endsSeen = teebox.ends().length;

  const bounds = options.bounds;
  if (rest.cpuPercent > bounds.cpuAtRestPercent)
    failures.push({
      invariant: "busy at rest",
      detail: `${rest.cpuPercent.toFixed(1)}% of a core between events (bound ${bounds.cpuAtRestPercent}%), after ${(rest.settleMs / 1000).toFixed(1)} s waiting for quiet`,
    });
  failures.push(...checkMemory(soak, bounds));
  const databaseMb = snapshot.databaseBytes / 2 ** 20;
  const walMb = snapshot.walBytes / 2 ** 20;
  if (bounds.databaseMb !== null && databaseMb + walMb > bounds.databaseMb)
    failures.push({ invariant: "database over its bound", detail: `${(databaseMb + walMb).toFixed(1)} MB (bound ${bounds.databaseMb} MB)` });
  const logMb = (teebox.logBytes() - soak.logBytesAtCheck) / 2 ** 20;
  soak.logBytesAtCheck = teebox.logBytes();
  if (bounds.logMbPerDay !== null && logMb > bounds.logMbPerDay)
    failures.push({ invariant: "log over its bound", detail: `${logMb.toFixed(2)} MB in a day (bound ${bounds.logMbPerDay} MB)` });
  const summary = summariseTraffic(traffic);
  if (summary.busiestMinute && summary.busiestMinute.count > bounds.memberRequestsPerMinute) {
    const { email, count, minuteMs } = summary.busiestMinute;
    failures.push({
      invariant: "too many club requests",
      detail: `${email} made ${count} requests to the club in the minute from ${new Date(minuteMs).toISOString()} (bound ${bounds.memberRequestsPerMinute})`,
    });
  }

  const playDate = addDays(date, soak.releaseDaysBefore);
  const { attempts } = await club.control<{ attempts: BookingAttemptRecord[] }>("GET", `/attempts?date=${playDate}`);
  const ourPosts = attempts.filter((a) => !a.isRival);
  const instantClub = manilaInstant(date, RELEASE_TIME);
  const onTime = checkReleaseOnTime({
    instantMs: instantClub,
    onTimeMs: onTimeMs(options.releaseRate),
    requests: snapshot.requests,
    posts: ourPosts,
    emailOf: soak.emailOf,
    outages: releaseOutages(day, ours(date, RELEASE_TIME), downtimes, options.releaseRate),
    clubOffsetMs: CLUB_OFFSET_MS,
  });
  failures.push(...onTime);
  // What Teebox said around the release explains a late one: its last lines at the end of the
  // release phase, and its release engine's lines after it.
  if (onTime.length > 0) {
    const after = teebox.tail().filter((line) => !releaseTail.includes(line) && line.includes("release") && explains(line));
    failures.push({
      invariant: "Teebox's log around the release",
      detail: [...releaseTail.filter(explains).slice(-TAIL_SHOWN), ...after.slice(0, TAIL_SHOWN / 2)].join("\n      "),
    });
  }
  const firstArrival = ourPosts.length === 0 ? null : Math.min(...ourPosts.map((a) => a.arrivedClubMs));
  const released = snapshot.requests.filter((r) => r.playDate === playDate && r.status !== "cancelled");
  const dayStart = manilaInstant(date, "00:00");
  const memberEmails = new Set(soak.emailOf.values());
  return {
    day,
    date,
    released: released.length,
    releasedConfirmed: released.filter((r) => r.status === "confirmed").length,
    releasedFailed: released.filter((r) => r.status === "failed").length,
    booked: bookings.filter((b) => memberEmails.has(b.email) && b.createdClubMs >= dayStart && b.createdClubMs < dayStart + 86_400_000).length,
    activity: soak.world.counts,
    rssMb: rest.rssMb,
    heapMb,
    cpuAtRestPercent: rest.cpuPercent,
    meanCpuAtRestPercent: rest.meanCpuPercent,
    settleMs: rest.settleMs,
    databaseMb,
    walMb,
    logMb,
    traffic: summary,
    release: {
      firstPostS: firstArrival === null ? null : (firstArrival - manilaInstant(date, RELEASE_TIME)) / 1000,
      notYetOpen: ourPosts.filter((a) => a.outcome === "not_yet_open").length,
      posts: ourPosts.length,
    },
    busyRatePerMinute: Math.round(ratePerMinute(traffic, manilaInstant(date, DAY_FROM), manilaInstant(date, DAY_TO))),
    activeWatches: snapshot.watches.filter((w) => w.status === "watching").length,
    mailQueued: snapshot.mailQueued,
    tableRows: snapshot.tableRows,
    restarts: notes,
    faults,
    failures,
    realMs: performance.now() - realStart,
  };
}
