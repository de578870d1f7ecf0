/**
 * The scraper: reads the club's tee sheet of every active course for the next
 * `scraper_date_range_days` days, and the club's advisories, with a borrowed club login.
 *
 * - Schedule: one run at start, then one every SCRAPE_INTERVAL_MS (5 minutes) after the previous
 *   run ended, timed with the Clock so tests drive it with a FakeClock. Members can ask for a run
 *   (RUN_SCRAPER), throttled to one per RECENT_RUN_MS.
 * - Never two runs at once: a run asked for while one is going joins it.
 * - Politeness: at most `concurrency` pages in flight (3), and each worker pauses `pauseMs`
 *   (150 ms) between its pages, so a run is a short trickle rather than a burst.
 * - Each run is a row in scrape_runs (start, end, pages, failures, status). What was read is
 *   stored in one transaction with the run's end, so lastScrapeTime and the data always agree.
 *   A page that could not be read keeps its last good data; a run where nothing could be read
 *   stores nothing and is recorded as failed.
 * - After a run that changed anything, every member's socket is told `status: updated`.
 */
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { ClubAdvisory, ClubCallOptions, ClubTeeSheet, MemberClubSession } from "../club/client.ts";
import { isClubError } from "../club/errors.ts";
import type { Db } from "../db/client.ts";
import { advisories, scrapeRuns, teeTimeSlots, users } from "../db/schema.ts";
import type { AppDatabase } from "../db/client.ts";
import type { ClubClient } from "../club/client.ts";
import type { MemberSessions } from "../club/member-sessions.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Notifier } from "../realtime/notifier.ts";
import type { JobRegistry } from "./registry.ts";
import { manilaDate } from "../domain/manila-time.ts";
import type { AppSettings } from "../domain/settings.ts";
import { readLastScrapeTime } from "../services/scrape-freshness.ts";
import { readCourses } from "../services/booking-config.service.ts";
import { forgetKeptAnswers } from "../services/kept-answers.ts";
import { readSettings } from "../services/settings.service.ts";
import { createJobLoop } from "./loop.ts";
import {
  pageName,
  planPages,
  sameAdvisories,
  sameSlots,
  sheetKey,
  slotsOf,
  summariseFailures,
  type PageFailure,
  type PageResult,
  type SheetPage,
  type StoredSlot,
} from "./scraper-pages.ts";
import type { DomainEventOf } from "../domain/events.ts";

export { NAMED_FAILURES, summariseFailures } from "./scraper-pages.ts";
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const SCRAPE_INTERVAL_MS = 5 * 60_000;
/** A member's request within this time of the last run is answered with that run's time. */
export const RECENT_RUN_MS = 30_000;
export const DEFAULT_SCRAPE_CONCURRENCY = 3;
export const DEFAULT_PAGE_PAUSE_MS = 150;

export type ScrapeTrigger = "schedule" | "manual" | "startup";
export type ScrapeStatus = "ok" | "partial" | "failed";

export interface ScrapeSummary {
  runId: number;
  trigger: ScrapeTrigger;
  status: ScrapeStatus;
  startedAt: number;
  finishedAt: number;
  /** Pages asked of the club (tee sheets and the advisories page). */
  pages: number;
  failures: number;
  changed: boolean;
  error: string | null;
  /** The last scrape time after this run (unchanged by a failed run). */
  lastScrapeTime: number | null;
}

export interface RunRequestAnswer {
  /** started: a run began for this request; running: one was going; recent: one just ended. */
  state: "started" | "running" | "recent";
  lastScrapeTime: number | null;
  /** The run this request started or joined; null when answered with a recent run. */
  done: Promise<ScrapeSummary> | null;
}

export interface Scraper {
  start(): void;
  stop(): Promise<void>;
  /** Runs now, or joins the run already going. Never rejects: failures end up in the summary. */
  run(trigger: ScrapeTrigger): Promise<ScrapeSummary>;
  /** A member's request (RUN_SCRAPER): starts a run unless one is going or one ended recently. */
  requestRun(): Promise<RunRequestAnswer>;
  isRunning(): boolean;
}

/** The two things the scraper needs from the club adapter (tests and benchmarks may swap them). */
export interface ScraperClub {
  fetchAdvisories(options?: ClubCallOptions): Promise<ClubAdvisory[]>;
  openSession(userId: number): Promise<Pick<MemberClubSession, "fetchTeeSheet">>;
}

/** A page the club budget cannot pay for now is skipped to the next run (decision 145). */
const SKIP_WHEN_SPENT: ClubCallOptions = { pace: "skip" };

export interface ScraperOptions {
  intervalMs?: number;
  concurrency?: number;
  pauseMs?: number;
  /** Real-time pause between one worker's pages (politeness is about real time, not the Clock). */
  pause?: (ms: number) => Promise<void>;
  club?: ScraperClub;
}

/**
 * The Teebox user whose club login the scraper borrows: the one named by `scraper_username`, else
 * the first active admin (by id) with a club login. Returns the reason when there is none.
 */
export async function findScraperUser(db: Db, settings: Pick<AppSettings, "scraper_username">): Promise<{ userId: number } | { problem: string }> {
  const hasClubLogin = and(sql`${users.clubEmail} <> ''`, sql`${users.clubPasswordSealed} is not null`, eq(users.status, "active"));
  const named = settings.scraper_username.trim();
  if (named) {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.username})`, named.toLowerCase()), hasClubLogin))
      .limit(1);
    return rows[0] ? { userId: rows[0].id } : { problem: `The scraper user '${named}' is not an active user with a club login.` };
  }
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`${users.role} in ('admin', 'superadmin')`, hasClubLogin))
    .orderBy(asc(users.id))
    .limit(1);
  return rows[0] ? { userId: rows[0].id } : { problem: "No club login to read the tee sheet with: set scraper_username or give an admin a club login." };
}

/** What the scraper uses of the app; `createContainer` gives it these. */
export interface ScraperDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  jobs: JobRegistry;
  club: Pick<ClubClient, "fetchAdvisories">;
  sessions: MemberSessions;
  notifier: Notifier;
}

function defaultClub(deps: ScraperDeps): ScraperClub {
  return {
    fetchAdvisories: (options) => deps.club.fetchAdvisories(options),
    openSession: (userId) => deps.sessions.forMember(userId),
  };
}

/** Runs `task` over `items` with at most `limit` at once, pausing between one worker's items. */
async function forEachBounded<T>(items: readonly T[], limit: number, pauseBetween: () => Promise<void>, shouldStop: () => boolean, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !shouldStop()) {
      const item = items[next++];
      await task(item);
      if (next < items.length) await pauseBetween();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

async function readStoredSlots(db: Db, fromDate: string): Promise<Map<string, StoredSlot[]>> {
  const rows = await db.select().from(teeTimeSlots).where(gte(teeTimeSlots.date, fromDate));
  const byDay = new Map<string, StoredSlot[]>();
  for (const row of rows) {
    const key = sheetKey(row.date, row.courseId);
    const list = byDay.get(key) ?? [];
    list.push({ time: row.time, status: row.status, slotId: row.slotId });
    byDay.set(key, list);
  }
  return byDay;
}

export function createScraper(deps: ScraperDeps, options: ScraperOptions = {}): Scraper {
  const { database, clock, logger } = deps;
  const db = database.db;
  const intervalMs = options.intervalMs ?? SCRAPE_INTERVAL_MS;
  const concurrency = options.concurrency ?? DEFAULT_SCRAPE_CONCURRENCY;
  const pauseMs = options.pauseMs ?? DEFAULT_PAGE_PAUSE_MS;
  const pause = options.pause ?? ((ms: number) => Bun.sleep(ms));
  const club = options.club ?? defaultClub(deps);
  const log = logger.child({ job: "scraper" });

  let current: Promise<ScrapeSummary> | null = null;
  let lastFinishedAt: number | null = null;
  let trigger: ScrapeTrigger = "startup";
  // One run at start, then one every interval after the previous run ended; a run a member asked
  // for within RECENT_RUN_MS stands for the scheduled one.
  const loop = createJobLoop(deps, {
    name: "scraper",
    pass: async () => {
      if (!isRecent()) await run(trigger);
      trigger = "schedule";
      return lastFinishedAt === null ? null : lastFinishedAt + intervalMs;
    },
    intervalMs,
    floorMs: Math.min(intervalMs, RECENT_RUN_MS),
    reportsOwnOutcome: true,
    // A member may ask for a run before the jobs start; a scraper never used is not listed.
    listedWhenItWorks: true,
  });
  const job = loop.handle;

  async function readSheets(pages: readonly SheetPage[], session: Pick<MemberClubSession, "fetchTeeSheet">): Promise<PageResult[]> {
    const results: PageResult[] = [];
    const pauseBetween = () => (pauseMs > 0 ? pause(pauseMs) : Promise.resolve());
    await forEachBounded(
      pages,
      concurrency,
      pauseBetween,
      () => loop.signal.aborted,
      async (page) => {
        try {
          results.push({ page, sheet: await session.fetchTeeSheet(page.date, page.course, SKIP_WHEN_SPENT) });
        } catch (error) {
          const clubError = isClubError(error) ? error : null;
          log.warn("scraper could not read a page", {
            page: pageName(page),
            reason: clubError?.kind ?? "error",
            error: errorText(error),
            clubPage: clubError?.page,
            missing: clubError?.missing,
          });
          results.push({ page, failure: { page: pageName(page), reason: clubError?.kind ?? "error", message: errorText(error) } });
        }
      },
    );
    return results;
  }

  async function readAdvisoryPage(): Promise<{ list: ClubAdvisory[] } | { failure: PageFailure }> {
    try {
      return { list: await club.fetchAdvisories(SKIP_WHEN_SPENT) };
    } catch (error) {
      const reason = isClubError(error) ? error.kind : "error";
      log.warn("scraper could not read a page", { page: "advisories", reason, error: errorText(error) });
      return { failure: { page: "advisories", reason, message: errorText(error) } };
    }
  }

  /** Writes what was read and closes the run record, in one transaction. Returns whether anything changed. */
  async function storeRun(
    runId: number,
    today: string,
    sheets: { page: SheetPage; sheet: ClubTeeSheet }[],
    advisoryList: ClubAdvisory[] | null,
    record: Omit<ScrapeSummary, "runId" | "trigger" | "startedAt" | "changed" | "lastScrapeTime">,
  ): Promise<DomainEventOf<"club_read"> | null> {
    return database.transaction(async (tx) => {
      let sheetsChanged = false;
      let advisoriesChanged = false;
      const stored = await readStoredSlots(tx, today);
      for (const { page, sheet } of sheets) {
        const fresh = slotsOf(sheet);
        if (sameSlots(stored.get(sheetKey(page.date, page.course)) ?? [], fresh)) {
          // Unchanged but read now: its read time moves on, so freshness is per sheet and honest.
          await tx
            .update(teeTimeSlots)
            .set({ scrapedAt: record.finishedAt })
            .where(and(eq(teeTimeSlots.date, page.date), eq(teeTimeSlots.courseId, page.course)));
          continue;
        }
        sheetsChanged = true;
        await tx.delete(teeTimeSlots).where(and(eq(teeTimeSlots.date, page.date), eq(teeTimeSlots.courseId, page.course)));
        if (fresh.length > 0) {
          await tx
            .insert(teeTimeSlots)
            .values(fresh.map((s) => ({ date: page.date, courseId: page.course, time: s.time, status: s.status, slotId: s.slotId, scrapedAt: record.finishedAt })));
        }
      }
      await tx.delete(teeTimeSlots).where(lt(teeTimeSlots.date, today));
      if (advisoryList) {
        const old = await tx.select().from(advisories).where(eq(advisories.source, "scraped")).orderBy(asc(advisories.id));
        if (!sameAdvisories(old, advisoryList)) {
          advisoriesChanged = true;
          await tx.delete(advisories).where(eq(advisories.source, "scraped"));
          if (advisoryList.length > 0) {
            await tx.insert(advisories).values(
              advisoryList.map((a) => ({
                source: "scraped" as const,
                title: a.title,
                content: a.content,
                eventDate: a.eventDate,
                isActive: true,
                createdAt: record.finishedAt,
                updatedAt: record.finishedAt,
              })),
            );
          }
        }
      }
      const changed = sheetsChanged || advisoriesChanged;
      await tx
        .update(scrapeRuns)
        .set({ status: record.status, finishedAt: record.finishedAt, pages: record.pages, failures: record.failures, changed, error: record.error })
        .where(eq(scrapeRuns.id, runId));
      // What members' screens reload: the sheets, the advisories, or both.
      return changed ? { type: "club_read", sheets: sheetsChanged, advisories: advisoriesChanged } : null;
    });
  }

  async function finishFailed(runId: number, base: { trigger: ScrapeTrigger; startedAt: number; pages: number; failures: number }, error: string): Promise<ScrapeSummary> {
    const finishedAt = clock.now();
    const message = `Nothing could be read; the last good data was kept. ${error}`.slice(0, 2000);
    await db.update(scrapeRuns).set({ status: "failed", finishedAt, pages: base.pages, failures: base.failures, changed: false, error: message }).where(eq(scrapeRuns.id, runId));
    job.failed(message, finishedAt);
    log.error("scrape run failed", { runId, error: message });
    return { runId, ...base, status: "failed", finishedAt, changed: false, error: message, lastScrapeTime: await readLastScrapeTime(db, manilaDate(finishedAt)) };
  }

  async function performRun(trigger: ScrapeTrigger): Promise<ScrapeSummary> {
    const startedAt = clock.now();
    const [row] = await db.insert(scrapeRuns).values({ trigger, startedAt, status: "running" }).returning({ id: scrapeRuns.id });
    const runId = row.id;
    const base = { trigger, startedAt, pages: 0, failures: 0 };
    try {
      const settings = await readSettings(db);
      const today = manilaDate(startedAt);
      const login = await findScraperUser(db, settings);
      if ("problem" in login) return await finishFailed(runId, base, login.problem);
      const [courseList, stored] = await Promise.all([readCourses(db), readStoredSlots(db, today)]);
      const pages = planPages(today, settings, courseList, stored);
      const session = await club.openSession(login.userId);
      const [results, advisoryResult] = await Promise.all([readSheets(pages, session), readAdvisoryPage()]);

      const sheets = results.flatMap((r) => ("sheet" in r ? [r] : []));
      const failures = [...results.flatMap((r) => ("failure" in r ? [r.failure] : [])), ...("failure" in advisoryResult ? [advisoryResult.failure] : [])];
      const counts = { pages: results.length + 1, failures: failures.length };
      if (counts.failures === counts.pages) return await finishFailed(runId, { ...base, ...counts }, summariseFailures(failures, counts.pages));

      const status: ScrapeStatus = failures.length > 0 ? "partial" : "ok";
      // A partial run says which sheets it kept from before: those are the ones named as failed.
      const error = failures.length > 0 ? `${summariseFailures(failures, counts.pages)}. Their last good data was kept.`.slice(0, 2000) : null;
      const finishedAt = clock.now();
      const read = await storeRun(runId, today, sheets, "list" in advisoryResult ? advisoryResult.list : null, { status, finishedAt, error, ...counts });
      const changed = read !== null;
      forgetKeptAnswers(db);
      deps.notifier.publish(read);
      job.ran(finishedAt);
      if (error) job.failed(error, finishedAt);
      log.info("scrape run finished", { runId, trigger, status, ...counts, changed, ms: finishedAt - startedAt });
      return { runId, trigger, status, startedAt, finishedAt, ...counts, changed, error, lastScrapeTime: await readLastScrapeTime(db, today) };
    } catch (error) {
      return finishFailed(runId, base, errorText(error));
    }
  }

  function run(trigger: ScrapeTrigger): Promise<ScrapeSummary> {
    if (current) return current;
    const started = performRun(trigger)
      .catch(async (error): Promise<ScrapeSummary> => {
        // Only a database failure gets here (the run record itself could not be written).
        const at = clock.now();
        job.failed(error, at);
        log.error("scrape run could not be recorded", { error: errorText(error) });
        return { runId: 0, trigger, status: "failed", startedAt: at, finishedAt: at, pages: 0, failures: 0, changed: false, error: errorText(error), lastScrapeTime: null };
      })
      .finally(() => {
        lastFinishedAt = clock.now();
        current = null;
      });
    current = started;
    return started;
  }

  const isRecent = () => lastFinishedAt !== null && clock.now() - lastFinishedAt < RECENT_RUN_MS;

  return {
    start() {
      trigger = "startup";
      loop.start();
    },
    async stop() {
      await loop.stop();
      await current;
    },
    run,
    async requestRun() {
      const today = () => manilaDate(clock.now());
      if (current) return { state: "running", lastScrapeTime: await readLastScrapeTime(db, today()), done: current };
      if (isRecent()) return { state: "recent", lastScrapeTime: await readLastScrapeTime(db, today()), done: null };
      const done = run("manual");
      return { state: "started", lastScrapeTime: await readLastScrapeTime(db, today()), done };
    },
    isRunning: () => current !== null,
  };
}
