/**
 * What each long-running part of Teebox reports about itself, for the System Monitor, /healthz and
 * /metrics: an honest status (online, errored with the last error, or stopped), when it last did
 * its work and when it will next, how often it runs, and how often it failed. Bounded: a record
 * per job, and a fixed ring of recent pass times per job. Whoever must act after work (the memory
 * keeper, decision 216) listens for each unit of work that ended well.
 */
export type JobState = "online" | "errored" | "stopped";

export interface JobStatus {
  name: string;
  status: JobState;
  lastError: string | null;
  lastErrorAt: number | null;
  /** When its last pass (or unit of work) ended. */
  lastRunAt: number | null;
  startedAt: number | null;
  /** When its next pass is due (null: not waiting, or not a timer job). */
  nextRunAt: number | null;
  /** Passes that started in the minute before the reading (at most PASS_RING). */
  passesPerMinute: number;
  /** Since start: passes and failed passes (or failed units of work). */
  passes: number;
  errors: number;
}

export interface JobHandle {
  started(at: number): void;
  /** A unit of work ended well (jobs without a loop of their own, and a loop's healthy pass). */
  ran(at: number): void;
  /** A pass of the job's loop: when it started and ended; `healthy` also marks the job online. */
  passed(startedAt: number, endedAt: number, healthy: boolean): void;
  /** When the next pass is due (null: none). */
  scheduled(at: number | null): void;
  failed(error: unknown, at: number): void;
  stopped(): void;
}

export interface JobRegistry {
  register(name: string): JobHandle;
  list(): JobStatus[];
  get(name: string): JobStatus | undefined;
  /** Calls `listener` after each pass or unit of work of any job that ended well; returns what stops it. */
  afterWork(listener: (name: string, at: number) => void): () => void;
}

/** Pass start times kept per job: enough to count a minute's passes of any sane job. */
const PASS_RING = 120;
const MINUTE_MS = 60_000;

interface JobRecord {
  status: Omit<JobStatus, "passesPerMinute">;
  /** Start times of the latest passes (a ring; `ringNext` is the next slot to write). */
  ring: number[];
  ringNext: number;
}

function passesInMinuteBefore(record: JobRecord, at: number): number {
  return record.ring.filter((t) => at - t < MINUTE_MS).length;
}

/** `now` is the jobs' clock, which passes per minute are counted on. */
export function createJobRegistry(now: () => number): JobRegistry {
  const jobs = new Map<string, JobRecord>();
  const listeners = new Set<(name: string, at: number) => void>();
  const view = (record: JobRecord): JobStatus => ({ ...record.status, passesPerMinute: passesInMinuteBefore(record, now()) });
  return {
    register(name) {
      const record: JobRecord = {
        status: { name, status: "stopped", lastError: null, lastErrorAt: null, lastRunAt: null, startedAt: null, nextRunAt: null, passes: 0, errors: 0 },
        ring: [],
        ringNext: 0,
      };
      const { status } = record;
      jobs.set(name, record);
      const ran = (at: number) => {
        status.lastRunAt = at;
        if (status.status !== "stopped") status.status = "online";
        for (const listener of listeners) {
          try {
            listener(name, at);
          } catch {
            // A listener's fault is its own: the job's bookkeeping and its pass go on.
          }
        }
      };
      return {
        started(at) {
          status.status = "online";
          status.startedAt = at;
        },
        ran,
        passed(startedAt, endedAt, healthy) {
          status.passes++;
          if (record.ring.length < PASS_RING) record.ring.push(startedAt);
          else record.ring[record.ringNext] = startedAt;
          record.ringNext = (record.ringNext + 1) % PASS_RING;
          if (healthy) ran(endedAt);
        },
        scheduled(at) {
          status.nextRunAt = at;
        },
        failed(error, at) {
          status.status = "errored";
          status.errors++;
          status.lastError = error instanceof Error ? error.message : String(error);
          status.lastErrorAt = at;
        },
        stopped() {
          status.status = "stopped";
          status.nextRunAt = null;
        },
      };
    },
    list: () => [...jobs.values()].map(view),
    afterWork(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: (name) => {
      const record = jobs.get(name);
      return record ? view(record) : undefined;
    },
  };
}
