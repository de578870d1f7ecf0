/**
 * A year of a 500-member club's rows, written day by day into a real database file with the daily
 * retention pass after each day (src/jobs/retention.ts): prints per month the rows of each growing
 * table and the file's size, and the longest batch of the pass. Target: the file (with its WAL)
 * stays ≤ 128 MB all year, and no retention transaction holds the database longer than 50 ms.
 *
 * The day's volumes are generous for a club of that size (see DAY below); the audit log is written
 * at 20 rows a member a day, so its count bound is what holds it.
 *
 * Usage: bun scripts/bench/storage.ts [members=500] [days=365]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import {
  auditLog,
  bookingRequests,
  bookings,
  mailOutbox,
  notifications,
  requestAttempts,
  scrapeRuns,
  sessions,
  slotWatches,
  teeTimeSlots,
  users,
  watchAttempts,
} from "../../src/db/schema.ts";
import { addDays, DAY_MS, manilaDate, manilaInstant } from "../../src/domain/manila-time.ts";
import { createJobRegistry } from "../../src/jobs/registry.ts";
import { createRetention } from "../../src/jobs/retention.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";

const members = Number(process.argv[2] ?? 500);
const days = Number(process.argv[3] ?? 365);
const TARGET_MB = 128;
const TARGET_BATCH_MS = 50;

/** What one day brings, per member (a member books about twice a week, and so on). */
const DAY = {
  requests: 0.3,
  attemptsPerRequest: 2,
  clubSiteBookings: 0.04,
  watches: 0.06,
  attemptsPerWatch: 3,
  notifications: 0.6,
  emails: 0.6,
  audit: 20,
  signIns: 0.6,
};
const SCRAPES_A_DAY = 288;
const COURSES = ["masters", "legends", "palms"];
const SLOTS_A_SHEET = 100;

const dir = mkdtempSync(join(tmpdir(), "teebox-storage-"));
const file = join(dir, "teebox.db");
const database = openDatabase(`file:${file}`);
const start = Date.UTC(2026, 0, 1, 0, 0, 0);
const clock = new FakeClock(start);
await migrate(database, start);
const { db } = database;
const logger = createLogger(
  "error",
  () => undefined,
  () => clock.now(),
);
const jobs = createJobRegistry(() => clock.now());

// Each retention transaction's time: the longest is how long a release could have waited for it.
let longestBatchMs = 0;
const longestByRule = new Map<string, number>();
const batchTimes: number[] = [];
const retention = createRetention(
  { database, clock, logger, jobs },
  {
    onBatch: (rule, _rows, ms) => {
      longestBatchMs = Math.max(longestBatchMs, ms);
      batchTimes.push(ms);
      longestByRule.set(rule, Math.max(longestByRule.get(rule) ?? 0, ms));
    },
  },
);

const userIds: number[] = [];
for (let i = 0; i < members; i += 250) {
  const rows = Array.from({ length: Math.min(250, members - i) }, (_, k) => ({
    username: `member${i + k}`,
    passwordHash: "x",
    role: "user" as const,
    status: "active" as const,
    name: `Member ${i + k}`,
    memberId: `SW-${9000 + i + k}`,
    clubEmail: `member${i + k}@club.example`,
    createdAt: start,
    updatedAt: start,
  }));
  userIds.push(...(await db.insert(users).values(rows).returning({ id: users.id })).map((r) => r.id));
}

let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const times = Array.from({ length: 60 }, (_, i) => `${String(5 + Math.floor((i * 8) / 60)).padStart(2, "0")}:${String((i * 8) % 60).padStart(2, "0")}`);
const players = [{ type: "Member", firstName: "", lastName: "Santos", memberId: "SW-1001-S", cart: "Rental Cart - Solo", fee: "Charge to their account" }];
let refs = 0;

async function insertMany<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await insert(rows.slice(i, i + 200));
}

async function writeDay(day: number): Promise<void> {
  const now = start + day * DAY_MS + 9 * 3_600_000;
  await clock.set(now);
  const today = manilaDate(now);
  const playDate = addDays(today, 7);
  await database.transaction(async () => {
    const requestCount = Math.round(members * DAY.requests);
    for (let i = 0; i < requestCount; i++) {
      const r = random();
      const status = r < 0.6 ? "confirmed" : r < 0.85 ? "cancelled" : "failed";
      const userId = pick(userIds);
      const [row] = await db
        .insert(bookingRequests)
        .values({
          userId,
          courseId: pick(COURSES),
          playDate,
          selection: [
            { time: pick(times), slotId: null },
            { time: pick(times), slotId: null },
          ],
          players,
          memberCartType: "Rental Cart - Solo",
          status,
          releaseAt: manilaInstant(today, "07:00"),
          reasonKey: status === "failed" ? "bookings.reason.no_time_available" : null,
          reasonContext: {},
          submittedAt: now,
          updatedAt: now,
        })
        .returning({ id: bookingRequests.id });
      await db.insert(requestAttempts).values(
        Array.from({ length: DAY.attemptsPerRequest }, () => ({
          requestId: row.id,
          time: pick(times),
          slotId: "S-1234",
          state: "answered" as const,
          firedAtClub: now,
          firedAtLocal: now,
          outcome: "slot_taken",
          answer: "This tee time has just been taken.",
          answerKey: "bookings.reason.club_refused",
          answerContext: { message: "This tee time has just been taken." },
          durationMs: 40,
        })),
      );
      if (status === "confirmed")
        await db.insert(bookings).values({ userId, bookingRef: `REF-${++refs}`, courseId: pick(COURSES), playDate, time: pick(times), players, requestId: row.id, createdAt: now });
    }
    await insertMany(
      Array.from({ length: Math.round(members * DAY.clubSiteBookings) }, () => ({
        userId: pick(userIds),
        bookingRef: `REF-${++refs}`,
        courseId: pick(COURSES),
        playDate,
        time: pick(times),
        players,
        requestId: null,
        createdAt: now,
      })),
      (chunk) => db.insert(bookings).values(chunk),
    );
    for (let i = 0; i < Math.round(members * DAY.watches); i++) {
      const userId = pick(userIds);
      const [watch] = await db
        .insert(slotWatches)
        .values({
          userId,
          playDate: addDays(today, 2),
          courseId: null,
          fromTime: "06:00",
          toTime: "09:00",
          players,
          mode: "book",
          status: pick(["booked", "ended", "found"] as const),
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: slotWatches.id });
      await db.insert(watchAttempts).values(
        Array.from({ length: DAY.attemptsPerWatch }, () => ({
          watchId: watch.id,
          userId,
          courseId: pick(COURSES),
          time: pick(times),
          slotId: "S-1",
          state: "answered" as const,
          sentAt: now,
          outcome: "slot_taken",
          answerKey: "watches.outcome.slot_taken",
          answerContext: {},
          durationMs: 40,
        })),
      );
    }
    await insertMany(
      Array.from({ length: Math.round(members * DAY.notifications) }, (_, i) => ({
        userId: pick(userIds),
        kind: "request_confirmed",
        textKey: "notifications.request_confirmed",
        context: { course: "Masters", date: playDate, time: "07:00", bookingId: `REF-${refs}` },
        eventId: `d${day}-${i}`,
        createdAt: now,
      })),
      (chunk) => db.insert(notifications).values(chunk),
    );
    await insertMany(
      Array.from({ length: Math.round(members * DAY.emails) }, (_, i) => ({
        userId: pick(userIds),
        recipient: "member@club.example",
        subject: "Your tee time is booked: Masters, Sat Mar 7 at 07:00",
        body: "Hello,\n\nYour request was booked at the release: Masters on Sat Mar 7, 2026 at 07:00 (booking REF-1234).\n\nSee your bookings: https://teebox.example.com/bookings\n\nTo choose which emails you get, open your profile.\n".repeat(
          2,
        ),
        eventId: `d${day}-${i}`,
        state: "sent" as const,
        attempts: 1,
        nextAttemptAt: now,
        createdAt: now,
        sentAt: now,
      })),
      (chunk) => db.insert(mailOutbox).values(chunk),
    );
    await insertMany(
      Array.from({ length: members * DAY.audit }, () => ({
        at: now,
        actorUserId: pick(userIds),
        action: pick(["club.login", "club.book", "club.cancel"]),
        target: "member@club.example",
        outcome: "ok",
        durationMs: 120,
        detail: "masters 2026-03-07 07:00 slot S-1234 ref REF-1234",
      })),
      (chunk) => db.insert(auditLog).values(chunk),
    );
    await insertMany(
      Array.from({ length: SCRAPES_A_DAY }, (_, i) => ({
        trigger: "schedule" as const,
        startedAt: now + i * 300_000,
        finishedAt: now + i * 300_000 + 4000,
        status: "ok" as const,
        pages: 25,
        failures: 0,
        changed: i % 10 === 0,
      })),
      (chunk) => db.insert(scrapeRuns).values(chunk),
    );
    await insertMany(
      Array.from({ length: Math.round(members * DAY.signIns) }, (_, i) => ({
        id: `s-${day}-${i}-${random()}`,
        userId: pick(userIds),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + 14 * DAY_MS,
      })),
      (chunk) => db.insert(sessions).values(chunk),
    );
    // The scraper's sheets: the next 8 days of every course, replaced as it reads them.
    const sheetDates = Array.from({ length: 8 }, (_, i) => addDays(today, i));
    await insertMany(
      sheetDates.flatMap((date) =>
        COURSES.flatMap((courseId) =>
          Array.from({ length: SLOTS_A_SHEET }, (_, k) => ({
            date,
            courseId,
            time: `${String(5 + Math.floor(k / 8)).padStart(2, "0")}:${String((k % 8) * 7).padStart(2, "0")}`,
            status: "AVAILABLE",
            slotId: `${date}-${courseId}-${k}`,
            scrapedAt: now,
          })),
        ),
      ),
      (chunk) =>
        db
          .insert(teeTimeSlots)
          .values(chunk)
          .onConflictDoUpdate({ target: [teeTimeSlots.date, teeTimeSlots.courseId, teeTimeSlots.time], set: { scrapedAt: now } }),
    );
  });
}

const sizeMb = () => {
  let bytes = 0;
  for (const name of [file, `${file}-wal`]) {
    try {
      bytes += statSync(name).size;
    } catch {
      // no WAL yet
    }
  }
  return bytes / 1024 / 1024;
};
const rowsOf = async (table: SQLiteTable) => (await db.select({ n: count() }).from(table))[0]!.n;

console.log(`storage: ${members} members, ${days} days, retention after each day (target ≤ ${TARGET_MB} MB, batches ≤ ${TARGET_BATCH_MS} ms)`);
console.log("month | audit   | requests | attempts | bookings | watches | notifs | outbox | runs  | sessions | MB    | longest batch");
let peakMb = 0;
for (let day = 0; day < days; day++) {
  await writeDay(day);
  // The day's writes are checkpointed first, as SQLite would have done while they came in: what is
  // timed is the pass's own work.
  await database.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await retention.runOnce();
  await database.execute("PRAGMA wal_checkpoint(PASSIVE)");
  peakMb = Math.max(peakMb, sizeMb());
  if ((day + 1) % 30 === 0 || day === days - 1) {
    const cells = [
      String(Math.ceil((day + 1) / 30)).padStart(5),
      String(await rowsOf(auditLog)).padStart(7),
      String(await rowsOf(bookingRequests)).padStart(8),
      String(await rowsOf(requestAttempts)).padStart(8),
      String(await rowsOf(bookings)).padStart(8),
      String(await rowsOf(slotWatches)).padStart(7),
      String(await rowsOf(notifications)).padStart(6),
      String(await rowsOf(mailOutbox)).padStart(6),
      String(await rowsOf(scrapeRuns)).padStart(5),
      String(await rowsOf(sessions)).padStart(8),
      sizeMb().toFixed(1).padStart(5),
      `${longestBatchMs.toFixed(1)} ms`,
    ];
    console.log(cells.join(" | "));
  }
}
const sorted = [...batchTimes].sort((a, b) => a - b);
const at = (p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!);
console.log(`retention transactions: ${sorted.length}, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${longestBatchMs.toFixed(1)} ms`);
console.log(`longest transaction per rule: ${[...longestByRule].map(([rule, ms]) => `${rule} ${ms.toFixed(1)} ms`).join(", ")}`);
console.log(
  `peak size ${peakMb.toFixed(1)} MB (target ≤ ${TARGET_MB}): ${peakMb <= TARGET_MB ? "met" : "NOT met"}; longest retention transaction ${longestBatchMs.toFixed(1)} ms (target ≤ ${TARGET_BATCH_MS}): ${longestBatchMs <= TARGET_BATCH_MS ? "met" : "NOT met"}`,
);
await database.close();
rmSync(dir, { recursive: true, force: true });
