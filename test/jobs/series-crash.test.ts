/**
 * Standing requests and a real crash: Teebox (`bun src/main.ts`) queues the dates of forty series
 * and is killed with SIGKILL as soon as the first ones are stored (mid-pass, as a rule), then
 * started again: every date ends with exactly one occurrence and one request, and no request is
 * left without its occurrence.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { createClubSim } from "../../src/club-sim/index.ts";
import { openDatabase, type AppDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { seed } from "../../src/db/seed.ts";
import { bookingRequests, seriesOccurrences, users } from "../../src/db/schema.ts";
import { offeredDateRange } from "../../src/domain/date-kinds.ts";
import { addDays, manilaDate } from "../../src/domain/manila-time.ts";
import { occurrenceDates } from "../../src/domain/series.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { createSecretBox, keyFromString } from "../../src/lib/secret-box.ts";
import { insertSeries } from "../../src/lifecycle/series-lifecycle.ts";

const ROOT = join(import.meta.dir, "..", "..");
const SECRET_KEY = "series-crash-secret-key-01234567";
const MEMBERS = 40;
const CALENDAR = { weekdays: [1, 3, 5], endDate: null, skipDates: [] as string[] };

let dir: string | null = null;
let child: Subprocess | null = null;
let stopClub: (() => Promise<void>) | null = null;
afterEach(async () => {
  child?.kill("SIGKILL");
  await child?.exited;
  child = null;
  await stopClub?.();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function prepareDatabase(path: string, startDate: string): Promise<void> {
  const database = openDatabase(`file:${path}`);
  try {
    await migrate(database, Date.now());
    await seed(database, {
      now: Date.now(),
      adminPassword: "series-crash-admin",
      demo: false,
      secretBox: createSecretBox(keyFromString(SECRET_KEY)),
      hashPassword: async () => "x",
      announce: () => undefined,
    });
    const now = Date.now();
    for (let i = 0; i < MEMBERS; i++) {
      const [member] = await database.db
        .insert(users)
        .values({
          username: `member${i}`,
          passwordHash: "x",
          name: `Member ${i}`,
          memberId: `SW-8${String(i).padStart(3, "0")}`,
          clubEmail: `member${i}@southwoods.demo`,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await insertSeries(database.db, {
        userId: member.id,
        courseId: "masters",
        times: ["06:00", "06:08"],
        fromTime: null,
        toTime: null,
        players: [],
        memberCartType: "Rental Cart - Solo",
        startDate,
        ...CALENDAR,
        createdAt: now,
        updatedAt: now,
      });
    }
  } finally {
    await database.close();
  }
}

function startTeebox(clubUrl: string): Subprocess<"ignore", "pipe", "ignore"> {
  return Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
    cwd: dir ?? undefined,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dir ?? "", SECRET_KEY, CLUB_URL: clubUrl, ADMIN_PASSWORD: "series-crash-admin", LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "ignore",
  });
}

/** Reads the output to the end: a pipe closed under the child would end it at its next log line. */
async function drain(process: Subprocess<"ignore", "pipe", "ignore">): Promise<void> {
  const reader = process.stdout.getReader();
  while (!(await reader.read()).done);
}

async function readUntil<T>(path: string, read: (db: AppDatabase) => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const database = openDatabase(`file:${path}`);
    try {
      const value = await read(database);
      if (value !== null) return value;
    } finally {
      await database.close();
    }
    if (performance.now() > deadline) throw new Error("the expected state never came");
    await Bun.sleep(10);
  }
}

test("killed with SIGKILL while queueing, started again: one occurrence and one request per series and date", async () => {
  dir = mkdtempSync(join(tmpdir(), "teebox-series-crash-"));
  const path = join(dir, "teebox.db");
  const sim = createClubSim({ seed: 9, prebookedShare: 0, blockedShare: 0 });
  const club = await sim.start();
  stopClub = club.stop;
  // Dates from a week ahead (released later than now), so the engine leaves them waiting.
  const startDate = addDays(manilaDate(Date.now()), 8);
  await prepareDatabase(path, startDate);
  const { maxDate } = offeredDateRange(Date.now(), DEFAULT_SETTINGS);
  const perSeries = occurrenceDates({ ...CALENDAR, startDate }, startDate, maxDate).length;
  const expected = MEMBERS * perSeries;
  expect(expected).toBeGreaterThan(0);

  child = startTeebox(club.url);
  void drain(child as Subprocess<"ignore", "pipe", "ignore">);
  const atKill = await readUntil(path, async (d) => {
    const rows = await d.db.select({ id: seriesOccurrences.id }).from(seriesOccurrences);
    return rows.length > 0 ? rows.length : null;
  });
  child.kill("SIGKILL");
  await child.exited;
  console.log(`killed with ${atKill} of ${expected} dates stored`);

  child = startTeebox(club.url);
  void drain(child as Subprocess<"ignore", "pipe", "ignore">);
  let seen = "";
  await readUntil(path, async (d) => {
    const rows = await d.db.select().from(seriesOccurrences);
    seen = JSON.stringify(rows.filter((r) => r.state !== "queued").slice(0, 3));
    return rows.filter((r) => r.state === "queued").length === expected ? true : null;
  }).catch((error) => {
    throw new Error(`${error}: ${seen}`);
  });
  child.kill("SIGKILL");
  await child.exited;
  child = null;

  const database = openDatabase(`file:${path}`);
  try {
    const occurrences = await database.db.select().from(seriesOccurrences);
    const requests = await database.db.select().from(bookingRequests);
    expect(occurrences).toHaveLength(expected);
    expect(new Set(occurrences.map((o) => `${o.seriesId}|${o.playDate}`)).size).toBe(expected);
    expect(requests).toHaveLength(expected);
    // Every request belongs to exactly one occurrence, and every occurrence has its own.
    const linked = new Set(occurrences.map((o) => o.requestId));
    expect(linked.size).toBe(expected);
    expect(requests.every((r) => linked.has(r.id))).toBe(true);
    expect(new Set(requests.map((r) => `${r.userId}|${r.playDate}`)).size).toBe(expected);
  } finally {
    await database.close();
  }
}, 90_000);
