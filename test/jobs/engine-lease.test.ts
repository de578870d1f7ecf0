/**
 * One engine per libSQL database: two Teebox instances (containers with their jobs) on one
 * database through the libSQL driver, each with a client of its own as on a libSQL server, on one
 * FakeClock. The first holds the engine lease and runs the jobs; the second serves nothing and
 * waits, saying so once; it takes over when the first stops, or when the first's lease runs out
 * (a long pause), and the first then stops its jobs at once and says so. Both may migrate the
 * database at the same moment.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../drizzle/index.ts";
import { migrate } from "../../src/db/migrate.ts";
import { engineLease } from "../../src/db/schema.ts";
import { createEngineLease, type EngineLease } from "../../src/jobs/engine-lease.ts";
import { createEngine, type Engine } from "../../src/jobs/engine.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { createTestApp, TEST_NOW, type TestApp } from "../helpers/api.ts";
import { openLibsqlFile } from "../helpers/test-database.ts";

const TTL_MS = 30_000;
const RENEW_MS = 10_000;
const RETRY_MS = 5_000;
// (The mail job, also run, has nothing to do and shows nowhere without an SMTP server.)
const JOB_NAMES = ["release engine", "bookings sync", "slot watch", "readiness check", "retention", "telemetry"];

interface Instance {
  t: TestApp;
  lease: EngineLease;
  engine: Engine;
  /** Stops waiting for the lease, as SIGTERM does. */
  stopWaiting: AbortController;
}

let dir: string;
let instances: Instance[] = [];

afterEach(async () => {
  for (const { t, engine, stopWaiting } of instances) {
    stopWaiting.abort();
    await engine.stop();
    await t.close();
  }
  instances = [];
  rmSync(dir, { recursive: true, force: true });
});

async function startInstance(name: string, path: string, clock: FakeClock): Promise<Instance> {
  // A client of its own on the one database, as each instance has its own connection to a server.
  const t = await createTestApp({ database: await openLibsqlFile(path), clock });
  const lease = createEngineLease(
    { database: t.deps.database, clock, logger: t.deps.logger, jobs: t.deps.jobs },
    { holder: name, ttlMs: TTL_MS, renewEveryMs: RENEW_MS, retryEveryMs: RETRY_MS },
  );
  const { releaseEngine, bookingsSync, slotWatch, readiness, mailSender, retention, telemetry } = t.deps;
  const engine = createEngine({ jobs: [releaseEngine, bookingsSync, slotWatch, readiness, mailSender, retention, telemetry], lease, logger: t.deps.logger });
  const instance = { t, lease, engine, stopWaiting: new AbortController() };
  instances.push(instance);
  return instance;
}

/** What main.ts does once the database is migrated: wait for the lease, then run the jobs. */
async function run(instance: Instance): Promise<boolean> {
  const isHeld = await instance.lease.acquire(instance.stopWaiting.signal);
  if (isHeld) await instance.engine.start();
  return isHeld;
}

const jobStates = (i: Instance) => JOB_NAMES.map((name) => i.t.deps.jobs.get(name)?.status ?? "never started");
const linesOf = (i: Instance, pattern: RegExp) => i.t.logLines.filter((line) => pattern.test(line));
const WAITING = /serves nothing and waits to take over/;

async function holderOf(i: Instance): Promise<string | null> {
  const rows = await i.t.deps.database.db.select().from(engineLease);
  return rows[0]?.holder ?? null;
}

/** Lets the instances' awaited database calls finish between clock steps. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Bun.sleep(1);
}

async function twoInstances() {
  dir = mkdtempSync(join(tmpdir(), "teebox-lease-"));
  const path = join(dir, "teebox.db");
  const clock = new FakeClock(TEST_NOW);
  const a = await startInstance("A", path, clock);
  const b = await startInstance("B", path, clock);
  expect(await run(a)).toBe(true);
  let bResult: boolean | null = null;
  const bRun = run(b).then((held) => (bResult = held));
  await settle();
  // B waits: no job of its own started, and it said so once.
  expect(jobStates(a)).toEqual(JOB_NAMES.map(() => "online"));
  expect(jobStates(b)).toEqual(JOB_NAMES.map(() => "never started"));
  expect(await holderOf(a)).toBe("A");
  for (let step = 0; step < 6; step++) {
    await clock.advance(RETRY_MS);
    await settle();
  }
  // A minute later A still holds it (renewed every 10 s), B still waits and has said so only once.
  expect(bResult).toBeNull();
  expect(await holderOf(b)).toBe("A");
  expect(linesOf(b, WAITING)).toHaveLength(1);
  expect(linesOf(b, /"level":"warn"/).length).toBe(1);
  expect(jobStates(b)).toEqual(JOB_NAMES.map(() => "never started"));
  return { a, b, clock, bRun: bRun.then(() => bResult) };
}

test("the second instance waits while the first holds the lease, and takes over when the first stops", async () => {
  const { a, b, clock, bRun } = await twoInstances();
  await a.engine.stop();
  expect(jobStates(a)).toEqual(JOB_NAMES.map(() => "stopped"));
  await clock.advance(RETRY_MS);
  expect(await bRun).toBe(true);
  expect(await holderOf(b)).toBe("B");
  expect(jobStates(b)).toEqual(JOB_NAMES.map(() => "online"));
  expect(linesOf(b, /holds the engine lease and runs the jobs/)).toHaveLength(1);
});

test("a holder paused past its lease loses it: the other takes over, and the first stops its jobs at once and says so", async () => {
  const { a, b, clock, bRun } = await twoInstances();
  // Nothing of A's runs for 40 s (a long pause): its lease (30 s) expires meanwhile.
  await clock.advance(40_000);
  expect(await bRun).toBe(true);
  expect(await a.engine.lost).toMatch(/not renewed in time|another instance took it over/);
  expect(jobStates(a)).toEqual(JOB_NAMES.map(() => "stopped"));
  expect(a.t.deps.jobs.get("engine lease")?.status).toBe("stopped");
  expect(linesOf(a, /"level":"error".*Teebox lost the engine lease/)).toHaveLength(1);
  expect(await holderOf(a)).toBe("B");
  expect(jobStates(b)).toEqual(JOB_NAMES.map(() => "online"));
  // A keeps its hands off the lease once lost: B renews it as usual.
  await clock.advance(RENEW_MS);
  await settle();
  expect(await holderOf(b)).toBe("B");
  expect(b.t.deps.jobs.get("engine lease")?.status).toBe("online");
});

test("a holder whose renewal is refused (another took the lease) stops its jobs", async () => {
  const { a, b, clock, bRun } = await twoInstances();
  // Another instance wrote itself in (as after a pause nobody noticed): A's next renewal is refused.
  await a.t.deps.database.db.update(engineLease).set({ holder: "C" });
  await clock.advance(RENEW_MS);
  expect(await a.engine.lost).toMatch(/another instance took it over, or it expired/);
  expect(jobStates(a)).toEqual(JOB_NAMES.map(() => "stopped"));
  // B still waits for C's lease.
  await settle();
  expect(await holderOf(b)).toBe("C");
  b.stopWaiting.abort();
  expect(await bRun).toBe(false);
});

test("an instance asked to stop while it waits stops, having served nothing", async () => {
  const { b, bRun } = await twoInstances();
  b.stopWaiting.abort();
  expect(await bRun).toBe(false);
  expect(jobStates(b)).toEqual(JOB_NAMES.map(() => "never started"));
});

test("two instances starting at once on a new libSQL database both migrate it: the one that loses the race goes on", async () => {
  dir = mkdtempSync(join(tmpdir(), "teebox-lease-"));
  const path = join(dir, "teebox.db");
  const [first, second] = [await openLibsqlFile(path), await openLibsqlFile(path)];
  try {
    const applied = await Promise.all([migrate(first, TEST_NOW), migrate(second, TEST_NOW)]);
    // Every migration applied once, by one or the other.
    expect(applied.flat().sort()).toEqual(migrations.map((m) => m.tag));
    expect(await first.query("SELECT count(*) AS n FROM __teebox_migrations")).toEqual([{ n: migrations.length }]);
  } finally {
    await first.close();
    await second.close();
  }
});
