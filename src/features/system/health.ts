/**
 * GET /healthz for a supervisor: the process answers, the database answers, and every job is alive,
 * with each job's last pass, next pass, passes in the last minute and errors since start.
 * 200 when all is well; 503 when the database does not answer or a job has stopped. A job whose
 * last run failed (the club was down, say) is alive: restarting Teebox would not mend the club, so
 * it is reported with its error but does not fail the check.
 */
import type { AppDeps } from "../../deps.ts";

export interface Health {
  status: "ok" | "degraded";
  database: "ok" | "unreachable";
  jobs: Record<string, string>;
  /** The last error of each job whose last run failed. */
  errors: Record<string, string>;
  /** Each job's schedule: a loop that spins shows as many passes a minute, a stuck one as a past next pass. */
  passes: Record<string, { lastPassAt: number | null; nextPassAt: number | null; passesPerMinute: number; errors: number }>;
}

export async function checkHealth(deps: AppDeps): Promise<Health> {
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
