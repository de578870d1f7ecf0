/**
 * GET /healthz for a supervisor: the process answers, the database answers, and every job is alive,
 * with each job's last pass, next pass, passes in the last minute and errors since start.
 * 200 when all is well; 503 when the database does not answer or a job has stopped. A job whose
 * last run failed (the club was down, say) is alive: restarting Teebox would not mend the club, so
 * it is reported with its error but does not fail the check.
 */
import type { AppDatabase } from "../db/client.ts";
import type { JobRegistry } from "../jobs/registry.ts";
import { nextReleaseWithin } from "../lifecycle/request-lifecycle.ts";
import { manilaDate, manilaTimeOfDay } from "../domain/manila-time.ts";

export interface Health {
  status: "ok" | "degraded";
  database: "ok" | "unreachable";
  jobs: Record<string, string>;
  /** The last error of each job whose last run failed. */
  errors: Record<string, string>;
  /** Each job's schedule: a loop that spins shows as many passes a minute, a stuck one as a past next pass. */
  passes: Record<string, { lastPassAt: number | null; nextPassAt: number | null; passesPerMinute: number; errors: number }>;
}

export async function checkHealth(deps: { database: AppDatabase; jobs: JobRegistry }): Promise<Health> {
  let database: Health["database"] = "ok";
  try {
    await deps.database.query("SELECT 1");
  } catch {
    database = "unreachable";
  }
  const list = deps.jobs.list();
  const jobs = Object.fromEntries(list.map((j) => [j.name, j.status]));
  const errors = Object.fromEntries(list.filter((j) => j.status === "errored" && j.lastError).map((j) => [j.name, j.lastError as string]));
  const jobsAlive = list.every((j) => j.status !== "stopped");
  const passes = Object.fromEntries(list.map((j) => [j.name, { lastPassAt: j.lastRunAt, nextPassAt: j.nextRunAt, passesPerMinute: j.passesPerMinute, errors: j.errors }]));
  return { status: database === "ok" && jobsAlive ? "ok" : "degraded", database, jobs, errors, passes };
}

/**
 * GET /readyz for a load balancer or a maintainer's alert: healthy, and fit for what is coming.
 * Not ready while a release is due within READY_RELEASE_WINDOW_MS and the engine is not armed for
 * it, or while the club's sheets are older than the scraper's schedule allows (a start gets one
 * schedule's grace before its first scrape).
 */
export interface Readiness {
  ready: boolean;
  /** Why not, in words a maintainer acts on. */
  reasons: string[];
}

export const READY_RELEASE_WINDOW_MS = 10 * 60_000;
/** The scraper runs every 5 minutes: three missed runs in a row is no longer a hiccup. */
export const READY_SCRAPE_MAX_AGE_MS = 15 * 60_000;

export interface ReadinessDeps {
  database: AppDatabase;
  jobs: JobRegistry;
  clock: { now(): number };
  releaseEngine: { isArmedFor(releaseAt: number): boolean };
}

export async function checkReady(deps: ReadinessDeps): Promise<Readiness> {
  const health = await checkHealth(deps);
  const reasons: string[] = [];
  if (health.database !== "ok") reasons.push("the database does not answer");
  for (const [name, status] of Object.entries(health.jobs)) if (status === "stopped") reasons.push(`the ${name} has stopped`);
  const now = deps.clock.now();
  const due = await nextReleaseWithin(deps.database.db, now, READY_RELEASE_WINDOW_MS);
  if (due !== null && !deps.releaseEngine.isArmedFor(due))
    reasons.push(`a release is due at ${manilaDate(due)} ${manilaTimeOfDay(due)} (Manila) and the release engine is not armed for it`);
  const scraper = deps.jobs.get("scraper");
  if (scraper && scraper.status !== "stopped") {
    const since = scraper.lastRunAt ?? scraper.startedAt ?? now;
    if (now - since > READY_SCRAPE_MAX_AGE_MS) reasons.push(`the club's tee sheets were last read ${Math.round((now - since) / 60_000)} minutes ago`);
  }
  return { ready: reasons.length === 0, reasons };
}
