/**
 * GET /healthz for a supervisor: the process answers, the database answers, and no job has stopped
 * or errored. 200 when all is well, 503 otherwise, with the parts named.
 */
import type { AppDeps } from "../../deps.ts";

export interface Health {
  status: "ok" | "degraded";
  database: "ok" | "unreachable";
  jobs: Record<string, string>;
}

export async function checkHealth(deps: AppDeps): Promise<Health> {
  let database: Health["database"] = "ok";
  try {
    await deps.database.query("SELECT 1");
  } catch {
    database = "unreachable";
  }
  const jobs = Object.fromEntries(deps.jobs.list().map((j) => [j.name, j.status]));
  const jobsAlive = Object.values(jobs).every((s) => s === "online");
  return { status: database === "ok" && jobsAlive ? "ok" : "degraded", database, jobs };
}
