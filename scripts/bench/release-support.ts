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
import {
  beatenByRivals,
  contestByCourse,
  emptyHandedThoughFree,
  fairAllocation,
  firstChoicesHeld,
  freeAtInstant,
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
  /** How long after the instant, on the club's clock, the rivals book. */
  rivalDelayMs: number;
}

export const caseLabel = (c: ReleaseCase) =>
  `club ${c.clubOffsetMs === 0 ? "in step" : `${Math.abs(c.clubOffsetMs / 1000)} s ${c.clubOffsetMs > 0 ? "ahead" : "behind"}`}, rivals +${c.rivalDelayMs} ms`;

/** The issue's matrix: four club clocks, two rival delays. */
export const ALL_CASES: ReleaseCase[] = [1300, 500, 0, -400].flatMap((clubOffsetMs) => [150, 50].map((rivalDelayMs) => ({ clubOffsetMs, rivalDelayMs })));

/** `1300:150,-400:50` (club offset ms : rival delay ms), or `all`. */
export function parseCases(text: string): ReleaseCase[] {
  if (text === "all") return ALL_CASES;
  return text.split(",").map((part) => {
    const [offset, delay] = part.split(":").map(Number);
    if (!Number.isFinite(offset) || !Number.isFinite(delay)) throw new Error(`a case is 'offsetMs:rivalDelayMs', got '${part}'`);
    return { clubOffsetMs: offset, rivalDelayMs: delay };
  });
}

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
  const pickFrom = (list: string[]) => list[Math.floor(rand() * list.length)];
  return generateAccounts(count).map((account) => {
    const course = rand() < 2 / 3 ? "masters" : "legends";
    const grid = teeTimesFor(playDate, CLUB_COURSES.find((c) => c.id === course)!);
    const popular = grid.filter((t) => isPopularByDefault(t));
    const wanted = new Set<string>();
    while (wanted.size < Math.min(perMember, grid.length)) wanted.add(rand() < 0.75 && popular.length > 0 ? pickFrom(popular) : pickFrom(grid));
    return { account, course, times: [...wanted] };
  });
}

export const wishesOf = (members: BenchMember[]): MemberWish[] =>
  members.map((m) => ({ email: m.account.email, wanted: m.times.map((t) => slotKey(m.course, t)) }));

// ── processes ────────────────────────────────────────────────────────────

/** Runs a bench script as a process and resolves with the JSON of its last stdout line. */
export async function runJsonProcess<T>(args: string[], timeoutMs: number): Promise<T> {
  const proc = Bun.spawn(["bun", ...args], { stdout: "pipe", stderr: "inherit" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  const text = await new Response(proc.stdout).text();
  await proc.exited;
  clearTimeout(timer);
  const last = text.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${args[0]} ended (${proc.exitCode}) without a report`);
  }
}

export interface ClubProcess {
  url: string;
  controlToken: string;
  stop(): Promise<void>;
}

export async function startClubProcess(options: Omit<ClubProcessOptions, "controlToken">): Promise<ClubProcess> {
  const controlToken = "bench";
  const proc = Bun.spawn(["bun", join(import.meta.dir, "club-process.ts"), JSON.stringify({ ...options, controlToken })], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the club process ended before it started");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { url } = JSON.parse(text.slice(0, text.indexOf("\n"))) as { url: string };
  return {
    url,
    controlToken,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
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
  /** First post per member that reached the club at or after the instant, on its clock. */
  arriving: LatenessSummary;
  contest: CourseContest[];
  firstChoices: number;
  bestFirstChoices: number;
  withSlot: number;
  bestWithSlot: number;
  emptyHandedThoughFree: number;
  /** Members a rival beat to a slot they ranked above what they ended with. */
  beatenByRivals: number;
  /** Every slot the rivals booked that day, asked for or not. */
  rivalBookings: number;
  duplicates: number;
  peakRssMb: number;
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
    holdings.set(member.account.email, bookings.filter((b) => b.date === playDate).map((b) => slotKey(b.courseId, b.time)));
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
  const free = freeAtInstant(asked, input.availableAtEnd, confirmations, R);
  const best = fairAllocation(wishes, free);
  const rivalHeld = attempts.filter((a) => a.isRival && a.outcome === "confirmed").map((a) => slotKey(a.course, a.time));

  const firstArrival = new Map<string, number>();
  for (const a of ours) if (a.arrivedClubMs >= R) firstArrival.set(a.email, Math.min(firstArrival.get(a.email) ?? Infinity, a.arrivedClubMs - R));
  const firstLeaving: number[] = [];
  for (const times of Object.values(report.sentHostMs)) {
    const onClub = times.map((t) => t + setup.clubOffsetMs - R).filter((t) => t >= 0);
    if (onClub.length > 0) firstLeaving.push(Math.min(...onClub));
  }
  return {
    contender: input.contender,
    releaseCase: input.releaseCase,
    members: wishes.length,
    bookingPosts: ours.length,
    earlyPosts: ours.filter((a) => a.arrivedClubMs < R).length,
    leaving: summarize(firstLeaving),
    arriving: summarize([...firstArrival.values()]),
    contest: contestByCourse(free, [...holdings.values()].flat(), rivalHeld),
    firstChoices: firstChoicesHeld(wishes, holdings),
    bestFirstChoices: best.filter((pick, i) => pick !== null && pick === wishes[i].wanted[0]).length,
    withSlot: [...holdings.values()].filter((keys) => keys.length > 0).length,
    bestWithSlot: best.filter((pick) => pick !== null).length,
    emptyHandedThoughFree: emptyHandedThoughFree(wishes, holdings, free),
    beatenByRivals: beatenByRivals(wishes, holdings, rivalHeld),
    rivalBookings: rivalHeld.length,
    duplicates: [...holdings.values()].filter((keys) => keys.length > 1).length,
    peakRssMb: report.peakRssMb,
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
    rivalShare: 0.5,
    rivalDelayMs: releaseCase.rivalDelayMs,
  });
  try {
    const setup: RunSetup = { clubUrl: club.url, plan, clubOffsetMs: releaseCase.clubOffsetMs, members, load };
    log(`${contender.name}: ${memberCount} members, play date ${plan.playDate}, release ${new Date(plan.releaseAtClub).toISOString()} on the club's clock (${caseLabel(releaseCase)}); ~${Math.round((plan.releaseAtClub - releaseCase.clubOffsetMs - Date.now()) / 1000)} s to wait`);
    const report = await contender.run(setup);
    // A contender may be done before the club has opened (every post early) or before the rivals
    // have acted: the club is read once both are past.
    await sleepUntilHost(plan.releaseAtClub - releaseCase.clubOffsetMs + Math.max(0, releaseCase.rivalDelayMs) + RIVALS_SETTLE_MS);
    const seen = await readClub(club, setup);
    return figuresOf({ contender: contender.name, releaseCase, setup, report, ...seen });
  } finally {
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
    `first post leaving ${f.contender}, on the club's clock: p50 ${ms(f.leaving.p50)} ms, p99 ${ms(f.leaving.p99)} ms, max ${ms(f.leaving.max)} ms (${f.leaving.count} members)`,
    `first post arriving at the club, on its clock: p50 ${ms(f.arriving.p50)} ms, p99 ${ms(f.arriving.p99)} ms, max ${ms(f.arriving.max)} ms (${f.arriving.count} members)`,
    ...f.contest.map((c) => `contested slots on ${c.course} (asked for by a member, free at the instant): ${c.contested}; won by ${f.contender} ${c.wonByMembers}, by rivals ${c.wonByRivals}`),
    `rivals' bookings that day on any slot, asked for or not: ${f.rivalBookings}`,
    `members beaten by a rival to a slot they ranked above what they got: ${f.beatenByRivals}`,
    `first choices won: ${f.firstChoices} (best achievable under the fairness rule: ${f.bestFirstChoices})`,
    `members with a slot: ${f.withSlot} of ${f.members} (best achievable: ${f.bestWithSlot})`,
    `members with nothing although a slot on their list was free: ${f.emptyHandedThoughFree}`,
    `duplicates (members holding more than one booking): ${f.duplicates}`,
    `peak memory (${f.contender}, RSS): ${f.peakRssMb.toFixed(1)} MB`,
    ...f.notes,
  ];
}

/** One table: a row per case and contender. */
export function figuresTable(rows: ReleaseFigures[]): string {
  const header = ["case", "contender", "early", "leave p50/p99/max", "arrive p50/p99/max", "contested won (us/rivals of n)", "1st choices (best)", "with slot (best)", "nothing though free", "beaten by rivals", "dup", "peak MB"];
  const cells = rows.map((f) => [
    caseLabel(f.releaseCase),
    f.contender,
    String(f.earlyPosts),
    lateness(f.leaving),
    lateness(f.arriving),
    contestText(f),
    `${f.firstChoices} (${f.bestFirstChoices})`,
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
