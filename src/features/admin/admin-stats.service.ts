/**
 * System stats for the monitor: measured figures of the
 * machine and of this process, never invented. CPU percentages are deltas between two samples
 * (the previous poll and this one); a figure that does not exist for a row is null ('-').
 */
import { cpus, freemem, totalmem } from "node:os";
import { dirname } from "node:path";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { findUnreadableClubPasswords } from "../../club/club-passwords.ts";
import type { SlowDownEpisode } from "../../club/budget.ts";
import { users } from "../../db/schema.ts";
import { measureDatabase, type DatabaseSize } from "../../db/size.ts";

export interface UsageFigures {
  used: number;
  total: number;
  percent: number;
}

export interface ProcessRow {
  /** The process id for Teebox itself; null for its jobs, which run inside it. */
  pm_id: number | null;
  name: string;
  status: string;
  cpu: number | null;
  memory: number | null;
  lastError: string | null;
  /** A timer job's last pass (ended), next pass (due) and passes in the last minute. */
  lastPassAt?: number | null;
  nextPassAt?: number | null;
  passesPerMinute?: number | null;
}

export interface SystemStats {
  cpu: { currentLoad: number; cores: number };
  memory: UsageFigures;
  disk?: UsageFigures;
  processes: ProcessRow[];
  /** Members whose stored club password the current key cannot open (also a red row in processes). */
  unreadableClubPasswords: number;
  /** The database's size in bytes, and its write-ahead log's (null: a libSQL server). */
  database: DatabaseSize;
  /** The slot watch's load (active watches, sheet reads in the last minute, the poll interval). */
  watches: { activeWatches: number; pollsPerMinute: number; pollSeconds: number };
  /** Teebox's requests to the club (decision 145) and the club's last "slow down" (decision 146). */
  club?: ClubTrafficStats;
}

export interface ClubTrafficStats {
  requestsLastMinute: number;
  /** Requests per minute over the last hour, oldest first (the minute under way last). */
  perMinute: { atMs: number; requests: number }[];
  totalSinceStart: number;
  sinceMs: number;
  busiestMember: { userId: number; name: string; requests: number; windowMinutes: number } | null;
  /** The budget's sizes and the requests waiting for it now. */
  budget: { clubPerMinute: number; clubBurst: number; memberPerMinute: number; memberBurst: number; waiting: number };
  /** The slow-down under way, else the last one of the past day; null when there was none. */
  slowDown: (Omit<SlowDownEpisode, "endedAt"> & { endedAt: number | null; isActive: boolean }) | null;
}

/** An ended slow-down stays on the monitor this long. */
const SLOW_DOWN_SHOWN_MS = 24 * 60 * 60_000;
const MONITOR_MINUTES = 60;

async function readClubTraffic(deps: Pick<AppDeps, "club" | "clock" | "database">): Promise<ClubTrafficStats | undefined> {
  // A club without counts (a stand-in in a test) has nothing to show.
  const politeness = deps.club?.politeness;
  if (!politeness) return undefined;
  const snapshot = politeness.traffic.snapshot();
  const { current, last } = politeness.budget.episodes();
  const now = deps.clock.now();
  const shown = current ?? (last && last.endedAt !== null && now - last.endedAt < SLOW_DOWN_SHOWN_MS ? last : null);
  let busiestMember: ClubTrafficStats["busiestMember"] = null;
  if (snapshot.busiestMember) {
    const [row] = await deps.database.db.select({ name: users.name, username: users.username }).from(users).where(eq(users.id, snapshot.busiestMember.userId)).limit(1);
    busiestMember = { ...snapshot.busiestMember, name: row?.name || row?.username || `#${snapshot.busiestMember.userId}` };
  }
  return {
    requestsLastMinute: snapshot.lastMinute,
    perMinute: snapshot.perMinute.slice(-MONITOR_MINUTES),
    totalSinceStart: snapshot.total,
    sinceMs: snapshot.sinceMs,
    busiestMember,
    budget: { ...politeness.budget.limits(), waiting: politeness.budget.waiting() },
    slowDown: shown ? { ...shown, isActive: shown === current } : null,
  };
}

interface CpuSample {
  busy: number;
  total: number;
  /** Process CPU time (µs) and wall time (µs) for the process's own percentage. */
  processMicros: number;
  wallMicros: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const percentOf = (part: number, whole: number) => (whole > 0 ? round1((part / whole) * 100) : 0);

function takeSample(): CpuSample {
  let busy = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const { user, nice, sys, irq, idle } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + irq + idle;
  }
  const usage = process.cpuUsage();
  return {
    busy,
    total,
    processMicros: usage.user + usage.system,
    wallMicros: Number(process.hrtime.bigint() / 1000n),
  };
}

/**
 * Disk figures as df shows them: the percentage is used ÷ (used + available to us), so the blocks
 * reserved for root (free but not available) do not make a full disk look less full.
 */
export function diskFigures(fs: { blocks: number; bfree: number; bavail: number; bsize: number }): UsageFigures {
  const total = fs.blocks * fs.bsize;
  const used = (fs.blocks - fs.bfree) * fs.bsize;
  const available = fs.bavail * fs.bsize;
  return { used, total, percent: used + available > 0 ? Math.ceil((used / (used + available)) * 1000) / 10 : 0 };
}

async function measureDisk(filePath: string | null): Promise<UsageFigures | undefined> {
  if (!filePath) return undefined;
  try {
    // Imported here: node:fs/promises is not otherwise loaded, and every start would load it (decision 194).
    const { statfs } = await import("node:fs/promises");
    return diskFigures(await statfs(dirname(filePath)));
  } catch {
    return undefined;
  }
}

/** What the System Monitor's figures use of the app. */
export type StatsDeps = Pick<AppDeps, "database" | "jobs" | "secretBox" | "slotWatch" | "club" | "clock">;

export interface StatsSampler {
  read(deps: StatsDeps): Promise<SystemStats>;
}

/** Keeps the previous CPU sample so each poll reports the load over the interval since the last. */
export function createStatsSampler(): StatsSampler {
  let previous = takeSample();
  return {
    async read(deps) {
      const current = takeSample();
      const cores = cpus().length;
      const currentLoad = percentOf(current.busy - previous.busy, current.total - previous.total);
      const wall = current.wallMicros - previous.wallMicros;
      // Percent of one core, the way process monitors show it.
      const processCpu = wall > 0 ? round1(((current.processMicros - previous.processMicros) / wall) * 100) : 0;
      previous = current;

      const total = totalmem();
      const used = total - freemem();
      const own: ProcessRow = {
        pm_id: process.pid,
        name: "teebox",
        status: "online",
        cpu: processCpu,
        memory: process.memoryUsage().rss,
        lastError: null,
      };
      const jobs: ProcessRow[] = deps.jobs.list().map((job) => ({
        pm_id: null,
        name: job.name,
        status: job.status,
        cpu: null,
        memory: null,
        lastError: job.status === "online" ? null : job.lastError,
        lastPassAt: job.lastRunAt,
        nextPassAt: job.nextRunAt,
        passesPerMinute: job.passesPerMinute,
      }));
      const unreadable = await findUnreadableClubPasswords(deps);
      // Shown as a row the monitor already colours red (anything but online), so an admin sees it.
      const passwords: ProcessRow[] =
        unreadable.length === 0
          ? []
          : [
              {
                pm_id: null,
                name: "club passwords",
                status: `unreadable (${unreadable.length})`,
                cpu: null,
                memory: null,
                lastError: `${unreadable.length} member(s) must enter their club password again: the current key cannot decrypt it`,
              },
            ];
      const stats: SystemStats = {
        cpu: { currentLoad, cores },
        memory: { used, total, percent: percentOf(used, total) },
        processes: [own, ...jobs, ...passwords],
        unreadableClubPasswords: unreadable.length,
        database: await measureDatabase(deps.database),
        watches: await deps.slotWatch.stats(),
        club: await readClubTraffic(deps),
      };
      const disk = await measureDisk(deps.database.filePath);
      if (disk) stats.disk = disk;
      return stats;
    },
  };
}
