/**
 * The soak: Teebox and the demo club as real processes over real HTTP on the file database, on a
 * shared simulated clock, through days of a club's life (decision 150). The pieces:
 * processes.ts (the processes), members.ts (members and the admin as clients), activity.ts (what
 * they do), day.ts (one simulated day's phases and checks), invariants.ts (what must hold),
 * report.ts (the table and the chart). `bun scripts/bench/soak.ts` runs it; test/load/soak.test.ts
 * runs seven days of it in the test command.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateAccounts } from "../../../src/club-sim/demo-data.ts";
import { createRandom } from "../../../src/club-sim/random.ts";
import { addDays, manilaInstant } from "../../../src/domain/manila-time.ts";
import { createSimClockFile } from "../../../src/lib/sim-clock.ts";
import { startSmtpServer } from "../../../test/helpers/smtp-server.ts";
import { DEFAULT_MIX, noActivity, planOpeningRequests, type ActivityMix, type World } from "./activity.ts";
import { CLUB_OFFSET_MS, livesDay, planRestarts, type DayFigures, type Restart, type Soak } from "./day.ts";
import { newLedger, noSuspects, type Failure, type MemoryBounds } from "./invariants.ts";
import { Client, createMember, inBatches, usernameOf, type Member } from "./members.ts";
import { startClub, startTeeboxProcess } from "./processes.ts";
import { dayLine, monthlyTable, writeChart } from "./report.ts";
import { enrolMembers, MEMBER_PASSWORD } from "./teebox-db.ts";

export interface SoakBounds extends MemoryBounds {
  /** CPU between events, percent of one core. */
  cpuAtRestPercent: number;
  /** The database file and its WAL, MB; null: printed, not checked. */
  databaseMb: number | null;
  /** Teebox's log lines per simulated day; null: printed, not checked. */
  logMbPerDay: number | null;
  /** Requests one member's club session may make in one minute of the club's clock. */
  memberRequestsPerMinute: number;
}

export interface SoakOptions {
  days: number;
  members: number;
  seed: number;
  /** The first simulated day (Manila), a Monday by default so that a 7-day run is one whole week. */
  startDate: string;
  /** Simulated seconds per real second around the release, and in the day's busy quarter-hour. */
  releaseRate: number;
  dayRate: number;
  mix: ActivityMix;
  bounds: SoakBounds;
  /** Weekly kill -9 and SIGTERM restarts at random moments. */
  restarts: boolean;
  /** Restarts at given moments of given days' release phases instead (to reproduce one), by day. */
  forcedRestarts?: Map<number, Restart[]>;
  /** Where the chart is written; null: none. */
  chartFile: string | null;
  /** Aborted: the soak ends after the day it is living, and reports what it lived. */
  signal?: AbortSignal;
  log(line: string): void;
}

export const DEFAULT_BOUNDS: SoakBounds = {
  cpuAtRestPercent: 2,
  rssSlopeMbPerDay: 3,
  rssRiseMb: 30,
  rssSlopeMbPerWeek: 2,
  // The Limits table's bound for a 500-member club over a year holds for 200 members a fortiori.
  databaseMb: 128,
  // The soak's days are compressed (a job runs once per jump, not at every interval), so a real
  // day logs more; 2 MB is far above what a soak day writes (about 0.01–0.1 MB) and still small.
  logMbPerDay: 2,
  memberRequestsPerMinute: 60,
};

export const DEFAULT_OPTIONS: SoakOptions = {
  days: 30,
  members: 200,
  seed: 1,
  startDate: "2027-03-01",
  releaseRate: 20,
  dayRate: 120,
  mix: DEFAULT_MIX,
  bounds: DEFAULT_BOUNDS,
  restarts: true,
  chartFile: "bench-output/soak-chart.svg",
  log: (line) => console.log(line),
};

export interface SoakResult {
  days: DayFigures[];
  failures: (Failure & { day: number; date: string })[];
  surprises: string[];
  table: string;
  chartFile: string | null;
  realMs: number;
}

const ADMIN_PASSWORD = "soak-admin-password";
const SECRET_KEY = "soak-secret-key-0123456789abcdef";
const RELEASE_DAYS_BEFORE = 7;
/** Members who go through the admin's form and the setup wizard over the API (the rest are enrolled). */
const WIZARD_MEMBERS = 3;

export async function runSoak(overrides: Partial<SoakOptions> = {}): Promise<SoakResult> {
  const options: SoakOptions = { ...DEFAULT_OPTIONS, ...overrides, bounds: { ...DEFAULT_BOUNDS, ...overrides.bounds }, mix: { ...DEFAULT_MIX, ...overrides.mix } };
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "teebox-soak-"));
  const dataDir = join(dir, "data");
  const rand = createRandom(options.seed);
  const clock = createSimClockFile(join(dir, "clock"), { simMs: manilaInstant(addDays(options.startDate, -1), "16:00"), rate: 1 });
  const smtp = startSmtpServer();
  const cleanups: (() => Promise<void> | void)[] = [() => clock.close(), () => smtp.stop()];
  try {
    const club = await startClub({
      seed: options.seed,
      clockOffsetMs: CLUB_OFFSET_MS,
      releaseTime: "07:00",
      releaseDaysBefore: RELEASE_DAYS_BEFORE,
      members: options.members,
      rivals: [{ share: 0.3, delayMs: 1500, cancelEveryMs: 30 * 60_000 }],
      controlToken: "soak",
      simClockFile: clock.path,
    });
    cleanups.unshift(() => club.stop());
    const env = { CLUB_URL: club.url, TEEBOX_SIM_CLOCK: clock.path, ADMIN_PASSWORD, SECRET_KEY, SMTP_URL: smtp.url, MAIL_FROM: "Teebox <teebox@soak.test>" };
    const teebox = await startTeeboxProcess(env, dataDir, () => clock.now());
    cleanups.unshift(() => teebox.stop());

    // The club's members: a few through the admin's form and the wizard, the rest enrolled while
    // Teebox is stopped (as if they had done the same).
    const accounts = generateAccounts(options.members);
    const baseUrl = () => teebox.url;
    const admin = new Client(baseUrl, "admin", ADMIN_PASSWORD);
    const members: Member[] = [];
    for (let i = 0; i < Math.min(WIZARD_MEMBERS, accounts.length); i++) members.push(await createMember(admin, baseUrl, i, accounts[i]));
    await teebox.stop();
    const rest = accounts.slice(members.length).map((account, k) => ({ username: usernameOf(members.length + k), account }));
    const ids = await enrolMembers(dataDir, SECRET_KEY, rest, clock.now());
    for (const [k, { username, account }] of rest.entries())
      members.push({ index: members.length, userId: ids[k], account, client: new Client(baseUrl, username, MEMBER_PASSWORD) });
    await teebox.start();
    const { settings } = await admin.ok<{ settings: Record<string, unknown> }>("GET", "/v1/admin/app-settings");
    await admin.ok("PUT", "/v1/admin/app-settings", { ...settings, release_time: "07:00", release_days_before: RELEASE_DAYS_BEFORE, scraper_username: usernameOf(0) });

    const world: World = { rand, watchBands: [], members, admin, club, ledger: newLedger(), counts: noActivity(), surprises: [], now: () => clock.now() };
    await inBatches(planOpeningRequests(world, options.mix, options.startDate, RELEASE_DAYS_BEFORE), 4, (task) => task());
    options.log(
      `soak: ${options.members} members, ${world.counts.requests} requests for the first week, ${options.days} days from ${options.startDate} (setup ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );

    const soak: Soak = {
      options,
      dataDir,
      clock,
      club,
      teebox,
      smtp: { server: smtp, isDown: false },
      world,
      emailOf: new Map(members.map((m) => [m.userId, m.account.email])),
      adminState: { disabledUserId: null },
      suspects: noSuspects(),
      lifeRss: [],
      figures: [],
      restarts: options.forcedRestarts ?? (options.restarts ? planRestarts(rand, options.days) : new Map()),
      logBytesAtCheck: teebox.logBytes(),
      endsSeen: teebox.ends().length,
      releaseDaysBefore: RELEASE_DAYS_BEFORE,
    };
    // What a run cut short (a crash of the soak itself, Ctrl-C, a killed shell) has lived is not
    // lost: the chart is rewritten after every day and the month's row printed at its end.
    const soakErrors: (Failure & { day: number; date: string })[] = [];
    let chartFile: string | null = null;
    for (let day = 0; day < options.days && !options.signal?.aborted; day++) {
      const date = addDays(options.startDate, day);
      let figures: DayFigures;
      try {
        figures = await livesDay(soak, day);
      } catch (error) {
        // The soak's own code failed mid-day: said, and the run ends here with what it lived.
        soakErrors.push({ invariant: "the soak itself failed", detail: (error as Error).stack ?? String(error), day, date });
        options.log(`day ${day} ${date}: the soak itself failed: ${(error as Error).stack ?? String(error)}`);
        break;
      }
      soak.figures.push(figures);
      options.log(dayLine(figures));
      if (options.chartFile) chartFile = writeChart(options.chartFile, soak.figures);
      const next = addDays(options.startDate, day + 1);
      if (day === options.days - 1 || options.signal?.aborted || next.slice(0, 7) !== figures.date.slice(0, 7)) {
        options.log(monthlyTable(soak.figures, figures.date.slice(0, 7)));
        if (chartFile) options.log(`chart: ${chartFile} (${soak.figures.length} days)`);
      }
    }
    const table = monthlyTable(soak.figures);
    if (options.chartFile && soak.figures.length > 0) chartFile = writeChart(options.chartFile, soak.figures);
    return {
      days: soak.figures,
      failures: [...soak.figures.flatMap((f) => f.failures.map((failure) => ({ ...failure, day: f.day, date: f.date }))), ...soakErrors],
      surprises: world.surprises,
      table,
      chartFile,
      realMs: performance.now() - started,
    };
  } finally {
    for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
