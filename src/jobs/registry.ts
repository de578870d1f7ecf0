/**
 * What each long-running part of Teebox reports about itself, for the system monitor and /healthz:
 * an honest status (online, errored with the last error, or stopped) and when it last did its work.
 */
export type JobState = "online" | "errored" | "stopped";

export interface JobStatus {
  name: string;
  status: JobState;
  lastError: string | null;
  lastErrorAt: number | null;
  lastRunAt: number | null;
  startedAt: number | null;
}

export interface JobHandle {
  started(at: number): void;
  ran(at: number): void;
  failed(error: unknown, at: number): void;
  stopped(): void;
}

export interface JobRegistry {
  register(name: string): JobHandle;
  list(): JobStatus[];
  get(name: string): JobStatus | undefined;
}

export function createJobRegistry(): JobRegistry {
  const jobs = new Map<string, JobStatus>();
  return {
    register(name) {
      const status: JobStatus = { name, status: "stopped", lastError: null, lastErrorAt: null, lastRunAt: null, startedAt: null };
      jobs.set(name, status);
      return {
        started(at) {
          status.status = "online";
          status.startedAt = at;
        },
        ran(at) {
          status.lastRunAt = at;
          if (status.status !== "stopped") status.status = "online";
        },
        failed(error, at) {
          status.status = "errored";
          status.lastError = error instanceof Error ? error.message : String(error);
          status.lastErrorAt = at;
        },
        stopped() {
          status.status = "stopped";
        },
      };
    },
    list: () => [...jobs.values()].map((s) => ({ ...s })),
    get: (name) => {
      const s = jobs.get(name);
      return s ? { ...s } : undefined;
    },
  };
}
