/**
 * What the release benchmarks share: the cases, the release plan, the members and their wishes
 * (drawn from the club's own grid), the club in its own process, one run of one contender, and
 * the figures read back from the club. `release.ts` plays Teebox alone; `release-peers.ts` plays
 * the same release once per contender. See docs/decisions/090-honest-release-benchmark.md.
 */
import { join } from "node:path";
import { CONTROL_TOKEN_HEADER, type BookingAttemptRecord, type SimBooking } from "../../src/club-sim/index.ts";
import { CLUB_COURSES, DEMO_CLUB_ACCOUNTS, generateAccounts, type ClubAccount } from "../../src/club-sim/demo-data.ts";
import { createRandom } from "../../src/club-sim/random.ts";
import { isPopularByDefault } from "../../src/club-sim/rivals.ts";
import { isCourseOpenOn, teeTimesFor } from "../../src/club-sim/tee-sheet.ts";
import { createClubClient } from "../../src/club/client.ts";
import { addDays, manilaDate, manilaTimeOfDay } from "../../src/domain/manila-time.ts";
import type { ClubProcessOptions } from "./club-process.ts";
import type { DelayProxyOptions } from "./delay-proxy.ts";
import {
  beatenByRivals,
  contestByCourse,
  emptyHandedThoughFree,
  firstChoicesByRule,
  firstChoicesHeld,
  firstChoicesMissed,
  freeAtInstant,
  maximumMatching,
  slotKey,
  type CourseContest,
  type MemberWish,
} from "./release-fairness.ts";
import { peakRssMb, percentile } from "./support.ts";

export { percentile };

/** Sleeps until a moment on this host's clock. */
export const sleepUntilHost = (atMs: number) => Bun.sleep(Math.max(0, atMs - Date.now()));

/** Peak resident memory of this process, in MB (Linux). */
export const ownPeakRssMb = () => peakRssMb(process.pid);

// ── cases ────────────────────────────────────────────────────────────────

export interface ReleaseCase {
  /** How far the club's clock is ahead of true time (negative: behind). */
  clubOffsetMs: number;
  /**
   * How long after the instant, on the club's clock, the rivals book. With several delays, a group
   * of rivals acts at each, and together they still take the rivals' share of the popular slots.
   */
  rivalDelaysMs: number[];
  /** The club across a network (a delaying proxy in front of it), each way; absent: loopback. */
  network?: { delayMs: number; jitterMs: number };
  /** How much later than announced the club opens the date (its 'open late' fault, decision 148); absent: on time. */
  lateMs?: number;
}

export const caseLabel = (c: ReleaseCase) =>
  [
    `club ${c.clubOffsetMs === 0 ? "in step" : `${Math.abs(c.clubOffsetMs / 1000)} s ${c.clubOffsetMs > 0 ? "ahead" : "behind"}`}${c.lateMs ? `, opens ${c.lateMs / 1000} s late` : ""}`,
    `rivals ${c.rivalDelaysMs.map((d) => `+${d}`).join(" and ")} ms`,
    ...(c.network ? [`${c.network.delayMs} ± ${c.network.jitterMs} ms away each way`] : []),
  ].join(", ");

/** The issue's matrix: four club clocks, two rival delays. */
export const ALL_CASES: ReleaseCase[] = [1300, 500, 0, -400].flatMap((clubOffsetMs) => [150, 50].map((rivalDelayMs) => ({ clubOffsetMs, rivalDelaysMs: [rivalDelayMs] })));

/** A club that opens 2 s and 30 s later than announced, its clock in step, rivals 50 ms after the real opening (decision 148). */
export const LATE_CASES: ReleaseCase[] = [2_000, 30_000].map((lateMs) => ({ clubOffsetMs: 0, rivalDelaysMs: [50], lateMs }));

/** `1300:150,-400:50,0:50:2000` (club offset ms : rival delay ms, several as `50+150` [: opens late by ms]), or `all`, or `late`. */
export function parseCases(text: string): ReleaseCase[] {
  if (text === "all") return ALL_CASES;
  if (text === "late") return LATE_CASES;
  return text.split(",").map((part) => {
    const [offset, delays, late = "0"] = part.split(":");
    const rivalDelaysMs = (delays ?? "").split("+").map(Number);
    const lateMs = Number(late);
    if (!Number.isFinite(Number(offset)) || rivalDelaysMs.some((d) => !Number.isFinite(d)) || !Number.isFinite(lateMs) || lateMs < 0)
      throw new Error(`a case is 'offsetMs:rivalDelayMs[:lateMs]', got '${part}'`);
    return { clubOffsetMs: Number(offset), rivalDelaysMs, lateMs };
  });
}

/** The rivals' share of the popular slots at the release: half, however many groups act. */
const RIVAL_SHARE = 0.5;

/** `--name=value` options after the positional arguments. */
export function readOptions(argv: string[]): { positional: string[]; options: Map<string, string> } {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (match) options.set(match[1], match[2] ?? "true");
    else positional.push(arg);
  }
  return { positional, options };
}

// ── the release and the members ──────────────────────────────────────────

export interface ReleasePlan {
  /** The instant, on the club's clock (a whole minute there). */
  releaseAtClub: number;
  releaseTime: string;
  releaseDaysBefore: number;
  playDate: string;
}

/** The next whole minute on the club's clock at least `leadMs` away, for a play date both courses are open. */
export function planRelease(clubOffsetMs: number, leadMs: number, now = Date.now()): ReleasePlan {
  const releaseAtClub = Math.ceil((now + clubOffsetMs + leadMs) / 60_000) * 60_000;
  const releaseDate = manilaDate(releaseAtClub);
  let releaseDaysBefore = 7;
  const bothOpen = (date: string) => CLUB_COURSES.every((course) => isCourseOpenOn(course, date));
  while (!bothOpen(addDays(releaseDate, releaseDaysBefore))) releaseDaysBefore++;
  return { releaseAtClub, releaseTime: manilaTimeOfDay(releaseAtClub).slice(0, 5), releaseDaysBefore, playDate: addDays(releaseDate, releaseDaysBefore) };
}

export interface BenchMember {
  account: ClubAccount;
  course: string;
  /** Tee times in the member's order of preference, all on the club's grid for the course and day. */
  times: string[];
}

/**
 * Members in submission order, two in three on Masters and one in three on Legends, each wanting
 * four times of the club's real grid for that course and day, mostly the popular early ones.
 */
export function drawMembers(count: number, playDate: string, seed = 7, perMember = 4): BenchMember[] {
  const rand = createRandom(seed);
  const pickFrom = (list: readonly string[]) => list[Math.floor(rand() * list.length)];
  return generateAccounts(count).map((account) => {
    const course = rand() < 2 / 3 ? "masters" : "legends";
    const grid = teeTimesFor(playDate, CLUB_COURSES.find((c) => c.id === course)!);
    const popular = grid.filter((t) => isPopularByDefault(t));
    const wanted = new Set<string>();
    while (wanted.size < Math.min(perMember, grid.length)) wanted.add(rand() < 0.75 && popular.length > 0 ? pickFrom(popular) : pickFrom(grid));
    return { account, course, times: [...wanted] };
  });
}

export const wishesOf = (members: BenchMember[]): MemberWish[] => members.map((m) => ({ email: m.account.email, wanted: m.times.map((t) => slotKey(m.course, t)) }));

// ── processes ────────────────────────────────────────────────────────────

/**
 * Runs a bench script with the running Bun (never one looked up on the PATH), hands it `input` as
 * JSON on its stdin (a thousand members' setup is more than one argument may carry), and resolves
 * with the JSON of its last stdout line.
 */
export async function runJsonProcess<T>(script: string, input: unknown, timeoutMs: number, command?: string[]): Promise<T> {
  // A compiled contender is told where Bun and the scripts are, for the processes it starts itself.
  const env = { ...process.env, [BENCH_BUN]: bunExecutable(), [BENCH_DIR]: benchDir() };
  const proc = Bun.spawn(command ?? [bunExecutable(), ...profileFlags(script), script], { stdin: new Blob([JSON.stringify(input)]), stdout: "pipe", stderr: "inherit", env });
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  const text = await new Response(proc.stdout).text();
  await proc.exited;
  clearTimeout(timer);
  const last = text.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${script} ended (${proc.exitCode}) without a report`);
  }
}

const BENCH_BUN = "TEEBOX_BENCH_BUN";
const BENCH_DIR = "TEEBOX_BENCH_DIR";

/** The Bun running the benchmark (a compiled contender's own executable is not Bun). */
export const bunExecutable = () => process.env[BENCH_BUN] ?? process.execPath;

/** This folder on disk (a compiled contender's import.meta.dir is inside the executable). */
export const benchDir = () => process.env[BENCH_DIR] ?? import.meta.dir;

/**
 * With BENCH_PROFILE_DIR set, every process a benchmark starts writes its CPU profile there on
 * exit, as Bun's JSON and as markdown (where a figure's time goes, for the goals not met).
 */
export function profileFlags(script: string): string[] {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return [];
  const name = `${script.split("/").at(-1)!.replace(/\.ts$/, "")}-${Date.now()}`;
  return ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`, "--cpu-prof-interval=250"];
}

/** What `runJsonProcess` handed this process. */
export const readJsonInput = async <T>(): Promise<T> => (await Bun.stdin.json()) as T;

export interface ClubProcess {
  url: string;
  controlToken: string;
  stop(): Promise<void>;
}

export async function startClubProcess(options: Omit<ClubProcessOptions, "controlToken">): Promise<ClubProcess> {
  const controlToken = "bench";
  const script = join(import.meta.dir, "club-process.ts");
  const proc = Bun.spawn([bunExecutable(), ...profileFlags(script), script, JSON.stringify({ ...options, controlToken })], { stdout: "pipe", stderr: "inherit" });
  const { url } = JSON.parse(await firstLine(proc.stdout)) as { url: string };
  return {
    url,
    controlToken,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** The delaying proxy (delay-proxy.ts) in a process of its own, in front of the club. */
async function startDelayProxyProcess(options: DelayProxyOptions): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "delay-proxy.ts"), JSON.stringify(options)], { stdout: "pipe", stderr: "inherit" });
  const { port } = JSON.parse(await firstLine(proc.stdout)) as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** The first line a process prints (it says where it listens). */
async function firstLine(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the process ended before it said where it listens");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.slice(0, text.indexOf("\n"));
}

// ── one run ──────────────────────────────────────────────────────────────

/** What a contender is told: the same for every contender of a case. */
export interface RunSetup {
  clubUrl: string;
  plan: ReleasePlan;
  /** The club's true offset, only to put the contender's own send times on the club's clock. */
  clubOffsetMs: number;
  members: BenchMember[];
  /** Members using the app while the release fires (Teebox only): open sockets, and refreshes in the second around the instant. */
  load?: { sockets: number; refreshers: number };
}

/** What a contender says back about itself; the club says the rest. */
export interface ContenderReport {
  /** Per member email, when each booking post left, on the contender's host clock (true time). */
  sentHostMs: Record<string, number[]>;
  /** Peak resident memory of the contender's processes (summed when it runs several). */
  peakRssMb: number;
  /** The club clock's offset as the contender measured it (Teebox only). */
  clock?: { offsetMs: number; uncertaintyMs: number; sendAheadMs: number; interval?: { lo: number; hi: number } };
  /** What members' reads of the app met around the instant, when it was under load (Teebox only). */
  reads?: { count: number; failed: number; p50Ms: number; p99Ms: number; maxMs: number };
  notes?: string[];
}

export interface Contender {
  name: string;
  /** How long before the instant the contender must be started. */
  leadMs: number;
  run(setup: RunSetup): Promise<ContenderReport>;
}

export interface LatenessSummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface ReleaseFigures {
  contender: string;
  releaseCase: ReleaseCase;
  members: number;
  bookingPosts: number;
  earlyPosts: number;
  /** First post per member that left at or after the instant, on the club's clock (ms after it). */
  leaving: LatenessSummary;
  /** First post per member that reached the club at or after the instant, on its clock: at its front door when it has one. */
  arriving: LatenessSummary;
  /** How long those first posts then waited behind the club's own work (known behind a front door). */
  clubQueue: LatenessSummary | null;
  contest: CourseContest[];
  firstChoices: number;
  /** First choices the fairness rule gives (each free at the instant and claimed first by its member). */
  bestFirstChoices: number;
  /** Of those, the ones the member does not hold at the end. */
  firstChoicesMissed: number;
  withSlot: number;
  /** The most members any engine could leave with a slot (a maximum matching). */
  bestWithSlot: number;
  emptyHandedThoughFree: number;
  /** Members a rival beat to a slot they ranked above what they ended with. */
  beatenByRivals: number;
  /** Every slot the rivals booked that day, asked for or not. */
  rivalBookings: number;
  duplicates: number;
  peakRssMb: number;
  clock: ContenderReport["clock"] | null;
  /** The measured offset minus the true one (ms), when measured. */
  offsetErrorMs: number | null;
  reads: ContenderReport["reads"] | null;
  notes: string[];
}

const summarize = (values: number[]): LatenessSummary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
};

async function control<T>(club: ClubProcess, path: string): Promise<T> {
  const res = await fetch(`${club.url}/__control${path}`, { headers: { [CONTROL_TOKEN_HEADER]: club.controlToken } });
  if (!res.ok) throw new Error(`club control ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/**
 * The club's own account of the release: the sheet's available slots, each member's bookings and
 * the attempt log, read in that order so that a booking made while reading is in the log even if
 * the sheet was read before it (free at the instant stays right; decision 090).
 */
async function readClub(club: ClubProcess, setup: RunSetup) {
  const { playDate } = setup.plan;
  // The sheet as a member sees it, read through the club's pages by a member outside the benchmark.
  const reader = DEMO_CLUB_ACCOUNTS[1];
  const session = createClubClient({ baseUrl: club.url }).forMember({ userId: 0, email: reader.email, password: reader.password });
  const availableAtEnd = new Set<string>();
  for (const course of CLUB_COURSES) {
    if (!isCourseOpenOn(course, playDate)) continue;
    const sheet = await session.fetchTeeSheet(playDate, course.id);
    if (!sheet.released) throw new Error(`the club has not opened ${playDate} yet`);
    for (const slot of sheet.slots) if (slot.status === "AVAILABLE") availableAtEnd.add(slotKey(course.id, slot.time));
  }
  const holdings = new Map<string, string[]>();
  for (const member of setup.members) {
    const { bookings } = await control<{ bookings: SimBooking[] }>(club, `/bookings?email=${encodeURIComponent(member.account.email)}`);
    holdings.set(
      member.account.email,
      bookings.filter((b) => b.date === playDate).map((b) => slotKey(b.courseId, b.time)),
    );
  }
  const attempts = (await control<{ attempts: BookingAttemptRecord[] }>(club, "/attempts")).attempts.filter((a) => a.date === playDate);
  return { attempts, holdings, availableAtEnd };
}

export function figuresOf(input: {
  contender: string;
  releaseCase: ReleaseCase;
  setup: RunSetup;
  report: ContenderReport;
  attempts: BookingAttemptRecord[];
  holdings: Map<string, string[]>;
  availableAtEnd: Set<string>;
}): ReleaseFigures {
  const { setup, report, attempts, holdings } = input;
  const R = setup.plan.releaseAtClub;
  const wishes = wishesOf(setup.members);
  const emails = new Set(wishes.map((w) => w.email));
  const ours = attempts.filter((a) => !a.isRival && emails.has(a.email));
  const asked = new Set(wishes.flatMap((w) => w.wanted));
  const confirmations = attempts.filter((a) => a.outcome === "confirmed").map((a) => ({ key: slotKey(a.course, a.time), arrivedClubMs: a.arrivedClubMs, isRival: a.isRival }));
  // Free "at the instant" means when the date really opened: a late club opens after the announced instant.
  const free = freeAtInstant(asked, input.availableAtEnd, confirmations, R + (input.releaseCase.lateMs ?? 0));
  const byRule = firstChoicesByRule(wishes, free);
  const rivalHeld = attempts.filter((a) => a.isRival && a.outcome === "confirmed").map((a) => slotKey(a.course, a.time));

  const firstArrival = new Map<string, BookingAttemptRecord>();
  for (const a of ours) {
    const first = firstArrival.get(a.email);
    if (a.arrivedClubMs >= R && (!first || a.arrivedClubMs < first.arrivedClubMs)) firstArrival.set(a.email, a);
  }
  const queued = [...firstArrival.values()].flatMap((a) => (a.queuedMs !== undefined ? [a.queuedMs] : []));
  // Across a network a post may rightly leave before the instant, to arrive at it (decision 191):
  // there the first post counts wherever it falls; over loopback posts before the instant are early
  // ones (counted at the club), and the first post is the first at or after it.
  const firstLeaving: number[] = [];
  for (const times of Object.values(report.sentHostMs)) {
    const onClub = times.map((t) => t + setup.clubOffsetMs - R).filter((t) => input.releaseCase.network !== undefined || t >= 0);
    if (onClub.length > 0) firstLeaving.push(Math.min(...onClub));
  }
  return {
    contender: input.contender,
    releaseCase: input.releaseCase,
    members: wishes.length,
    bookingPosts: ours.length,
    earlyPosts: ours.filter((a) => a.arrivedClubMs < R).length,
    leaving: summarize(firstLeaving),
    arriving: summarize([...firstArrival.values()].map((a) => a.arrivedClubMs - R)),
    clubQueue: queued.length > 0 ? summarize(queued) : null,
    contest: contestByCourse(free, [...holdings.values()].flat(), rivalHeld),
    firstChoices: firstChoicesHeld(wishes, holdings),
    bestFirstChoices: byRule.filter(Boolean).length,
    firstChoicesMissed: firstChoicesMissed(wishes, byRule, holdings).length,
    withSlot: [...holdings.values()].filter((keys) => keys.length > 0).length,
    bestWithSlot: maximumMatching(wishes, free).filter((pick) => pick !== null).length,
    emptyHandedThoughFree: emptyHandedThoughFree(wishes, holdings, free),
    beatenByRivals: beatenByRivals(wishes, holdings, rivalHeld),
    rivalBookings: rivalHeld.length,
    duplicates: [...holdings.values()].filter((keys) => keys.length > 1).length,
    peakRssMb: report.peakRssMb,
    clock: report.clock ?? null,
    offsetErrorMs: report.clock ? report.clock.offsetMs - setup.clubOffsetMs : null,
    reads: report.reads ?? null,
    notes: report.notes ?? [],
  };
}

const RIVALS_SETTLE_MS = 2000;

/** Plays one release for one contender against a fresh club process, and reads the outcome from the club. */
export async function playRelease(
  releaseCase: ReleaseCase,
  memberCount: number,
  contender: Contender,
  log: (line: string) => void = console.log,
  load?: RunSetup["load"],
): Promise<ReleaseFigures> {
  const plan = planRelease(releaseCase.clubOffsetMs, contender.leadMs);
  const members = drawMembers(memberCount, plan.playDate);
  const club = await startClubProcess({
    seed: 42,
    clockOffsetMs: releaseCase.clubOffsetMs,
    releaseTime: plan.releaseTime,
    releaseDaysBefore: plan.releaseDaysBefore,
    members: memberCount,
    // Each group takes its share of what the groups before it left: half in all.
    rivals: releaseCase.rivalDelaysMs.map((delayMs) => ({ delayMs, share: 1 - (1 - RIVAL_SHARE) ** (1 / releaseCase.rivalDelaysMs.length) })),
    openLateMs: releaseCase.lateMs ?? 0,
  });
  const proxy = releaseCase.network ? await startDelayProxyProcess({ targetPort: Number(new URL(club.url).port), ...releaseCase.network, seed: 11 }) : null;
  try {
    // The contender talks to the club through the proxy when there is one; the club's account is read directly.
    const setup: RunSetup = { clubUrl: proxy?.url ?? club.url, plan, clubOffsetMs: releaseCase.clubOffsetMs, members, load };
    log(
      `${contender.name}: ${memberCount} members, play date ${plan.playDate}, release ${new Date(plan.releaseAtClub).toISOString()} on the club's clock (${caseLabel(releaseCase)}); ~${Math.round((plan.releaseAtClub - releaseCase.clubOffsetMs - Date.now()) / 1000)} s to wait`,
    );
    const report = await contender.run(setup);
    // A contender may be done before the club has opened (every post early) or before the rivals
    // have acted: the club is read once both are past.
    await sleepUntilHost(plan.releaseAtClub - releaseCase.clubOffsetMs + (releaseCase.lateMs ?? 0) + Math.max(0, ...releaseCase.rivalDelaysMs) + RIVALS_SETTLE_MS);
    const seen = await readClub(club, setup);
    return figuresOf({ contender: contender.name, releaseCase, setup, report, ...seen });
  } finally {
    await proxy?.stop();
    await club.stop();
  }
}

// ── printing ─────────────────────────────────────────────────────────────

const ms = (v: number) => (Number.isFinite(v) ? String(Math.round(v)) : "–");
const lateness = (s: LatenessSummary) => `${ms(s.p50)}/${ms(s.p99)}/${ms(s.max)}`;
const contestText = (f: ReleaseFigures) => f.contest.map((c) => `${c.course} ${c.wonByMembers}/${c.wonByRivals} of ${c.contested}`).join(", ");

/** The figures of one run, one per line. */
export function describeFigures(f: ReleaseFigures): string[] {
  return [
    `booking posts: ${f.bookingPosts}; early posts (reached the club before the instant): ${f.earlyPosts}`,
    `first post leaving ${f.contender}, on the club's clock${f.releaseCase.network ? " (before the instant: sent ahead for the way)" : ""}: p50 ${ms(f.leaving.p50)} ms, p99 ${ms(f.leaving.p99)} ms, max ${ms(f.leaving.max)} ms (${f.leaving.count} members)`,
    `first post arriving at the club${f.clubQueue ? " (at its front door)" : ""}, on its clock: p50 ${ms(f.arriving.p50)} ms, p99 ${ms(f.arriving.p99)} ms, max ${ms(f.arriving.max)} ms (${f.arriving.count} members)`,
    ...(f.clubQueue
      ? [`  then waiting behind the club's own work until its server took them in: p50 ${ms(f.clubQueue.p50)} ms, p99 ${ms(f.clubQueue.p99)} ms, max ${ms(f.clubQueue.max)} ms`]
      : []),
    ...f.contest.map(
      (c) => `contested slots on ${c.course} (asked for by a member, free at the instant): ${c.contested}; won by ${f.contender} ${c.wonByMembers}, by rivals ${c.wonByRivals}`,
    ),
    `rivals' bookings that day on any slot, asked for or not: ${f.rivalBookings}`,
    `members beaten by a rival to a slot they ranked above what they got: ${f.beatenByRivals}`,
    `first choices won: ${f.firstChoices}; the fairness rule gives ${f.bestFirstChoices} (free at the instant, claimed first by their member), of which missed: ${f.firstChoicesMissed}`,
    `members with a slot: ${f.withSlot} of ${f.members} (the most any engine could: ${f.bestWithSlot}, a maximum matching on the free slots)`,
    `members with nothing although a slot on their list was free: ${f.emptyHandedThoughFree}`,
    `duplicates (members holding more than one booking): ${f.duplicates}`,
    `peak memory (${f.contender}, RSS): ${f.peakRssMb.toFixed(1)} MB`,
    ...(f.clock
      ? [
          `club clock offset measured: ${f.clock.offsetMs} ms ± ${f.clock.uncertaintyMs} ms (true ${f.releaseCase.clubOffsetMs} ms, error ${f.offsetErrorMs} ms); first posts sent ${f.clock.sendAheadMs} ms ahead for their way to the club`,
          ...(f.clock.interval
            ? [
                `  to a fraction of a millisecond: between ${f.clock.interval.lo.toFixed(2)} and ${f.clock.interval.hi.toFixed(2)} ms (${(f.clock.interval.hi - f.clock.interval.lo).toFixed(2)} ms wide); the wave is timed by its lower end`,
              ]
            : []),
        ]
      : []),
    ...f.notes,
  ];
}

/** One table: a row per case and contender. */
export function figuresTable(rows: ReleaseFigures[]): string {
  const header = [
    "case",
    "contender",
    "early",
    "leave p50/p99/max",
    "arrive p50/p99/max",
    "contested won (us/rivals of n)",
    "1st choices (rule; missed)",
    "with slot (most)",
    "nothing though free",
    "beaten by rivals",
    "dup",
    "peak MB",
  ];
  const cells = rows.map((f) => [
    caseLabel(f.releaseCase),
    f.contender,
    String(f.earlyPosts),
    lateness(f.leaving),
    lateness(f.arriving),
    contestText(f),
    `${f.firstChoices} (${f.bestFirstChoices}; ${f.firstChoicesMissed})`,
    `${f.withSlot} (${f.bestWithSlot})`,
    String(f.emptyHandedThoughFree),
    String(f.beatenByRivals),
    String(f.duplicates),
    f.peakRssMb.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}
