/**
 * Release benchmark: 100 members, each with a request for the same play date due at the same
 * instant, with overlapping preferences. The demo club runs in its own process with its clock
 * 1.3 s ahead of ours and rivals who take popular slots 150 ms after the release. Teebox (the
 * release engine, the real club adapter, a file database) runs in this process.
 *
 * Prints: early attempts (must be 0), lateness of first attempts on the club's clock (p50, p99,
 * max), slots won by Teebox and by rivals, duplicate bookings (must be 0), peak memory.
 *
 *   bun scripts/bench/release.ts [members=100]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inArray } from "drizzle-orm";
import { createClubSim, CONTROL_TOKEN_HEADER, type BookingAttemptRecord } from "../../src/club-sim/index.ts";
import { generateAccounts, CART_CHOICES } from "../../src/club-sim/demo-data.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { seed } from "../../src/db/seed.ts";
import { bookingRequests, requestAttempts, users } from "../../src/db/schema.ts";
import type { AppDeps } from "../../src/deps.ts";
import { addDays, manilaDate, manilaTimeOfDay, weekdayOf } from "../../src/domain/manila-time.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { toSessionUser } from "../../src/services/sessions.ts";
import { submitBookingRequest } from "../../src/features/bookings/bookings.service.ts";
import { createContainer } from "../../src/container.ts";
import { createClubClient } from "../../src/club/client.ts";
import { writeSettings } from "../../src/services/settings.service.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createSecretBox } from "../../src/lib/secret-box.ts";
import { createRandom } from "../../src/club-sim/random.ts";

const CLUB_OFFSET_MS = 1300;
const RIVAL_DELAY_MS = 150;
/** The engine signs members in and measures the club clock this long before the release. */
const PREPARE_LEAD_MS = 20_000;

// ── the club process ─────────────────────────────────────────────────────

if (process.argv[2] === "--club") {
  const [, , , releaseTime, daysBefore, members] = process.argv;
  const sim = createClubSim({
    seed: 42,
    clockOffsetMs: CLUB_OFFSET_MS,
    releaseTime,
    releaseDaysBefore: Number(daysBefore),
    extraAccounts: Number(members),
    rivals: { share: 0.5, delayMs: RIVAL_DELAY_MS },
    controlToken: "bench",
  });
  const running = await sim.start();
  console.log(JSON.stringify({ url: running.url }));
  process.on("SIGTERM", () => void running.stop().then(() => process.exit(0)));
  await new Promise(() => undefined);
}

// ── helpers ──────────────────────────────────────────────────────────────

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];


/** The next whole minute on the club's clock at least `leadMs` away. */
function nextReleaseMinute(leadMs: number): number {
  const clubNow = Date.now() + CLUB_OFFSET_MS;
  return Math.ceil((clubNow + leadMs) / 60_000) * 60_000;
}

/** Masters tee times (club windows 05:04–07:52, 11:00–16:48, every 8 minutes). */
function teeTimes(): string[] {
  const times: string[] = [];
  for (let m = 5 * 60 + 4; m <= 16 * 60 + 48; m += 8) {
    if (m > 7 * 60 + 52 && m < 11 * 60) continue;
    times.push(`${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`);
  }
  return times;
}

// ── the run ──────────────────────────────────────────────────────────────

const MEMBERS = Number(process.argv[2] ?? 100);
const releaseAt = nextReleaseMinute(PREPARE_LEAD_MS + 25_000);
const releaseTime = manilaTimeOfDay(releaseAt).slice(0, 5);
// Masters is closed on Sundays: release a day further ahead when a week ahead is a Sunday.
const releaseDaysBefore = weekdayOf(addDays(manilaDate(releaseAt), 7)) === 7 ? 8 : 7;
const playDate = addDays(manilaDate(releaseAt), releaseDaysBefore);
const course = "masters";

const clubProcess = Bun.spawn(["bun", import.meta.path, "--club", releaseTime, String(releaseDaysBefore), String(MEMBERS)], { stdout: "pipe", stderr: "inherit" });
const clubUrl = await readFirstJsonLine<{ url: string }>(clubProcess.stdout).then((m) => m.url);

async function readFirstJsonLine<T>(stream: ReadableStream<Uint8Array>): Promise<T> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the club process ended before it started");
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return JSON.parse(text.slice(0, text.indexOf("\n"))) as T;
}

const dataDir = mkdtempSync(join(tmpdir(), "teebox-bench-release-"));
const database = openDatabase(`file:${join(dataDir, "teebox.db")}`);
await migrate(database, Date.now());
const logger = createLogger("warn");
const secretBox = createSecretBox(Buffer.alloc(32, 9));
const deps: AppDeps = createContainer(
  { database, clock: systemClock, logger, secretBox, sessionKey: new Uint8Array(32), publicOrigin: null, clubInfo: { mode: "demo", url: clubUrl }, releaseEngine: { prepareLeadMs: PREPARE_LEAD_MS } },
  // BENCH_MAX_CONNECTIONS=n measures the adapter with n connections instead of Teebox's default.
  process.env.BENCH_MAX_CONNECTIONS ? { club: createClubClient({ baseUrl: clubUrl, clock: systemClock, maxConnections: Number(process.env.BENCH_MAX_CONNECTIONS) }) } : {},
);
await seed(database, { now: Date.now(), adminPassword: "bench-admin-password", demo: false, secretBox, hashPassword: async () => "x", announce: () => undefined });
await writeSettings(database.db, { ...DEFAULT_SETTINGS, release_time: releaseTime, release_days_before: releaseDaysBefore, ui_date_range_days: 14 });

// 100 members with club logins, each asking for four times: mostly the popular early ones.
const accounts = generateAccounts(MEMBERS);
const times = teeTimes();
const popular = times.filter((t) => t >= "06:00" && t < "08:00");
const rand = createRandom(7);
const now = Date.now();
const userRows = await database.db
  .insert(users)
  .values(accounts.map((a, i) => ({
    username: `bench${i + 1}`,
    passwordHash: "x",
    name: `${a.firstName} ${a.lastName}`,
    memberId: a.membershipNumber,
    clubEmail: a.email,
    clubPasswordSealed: secretBox.seal(a.password),
    createdAt: now,
    updatedAt: now,
  })))
  .returning();
for (const row of userRows) {
  const wanted = new Set<string>();
  while (wanted.size < 4) wanted.add(rand() < 0.75 ? popular[Math.floor(rand() * popular.length)] : times[Math.floor(rand() * times.length)]);
  await submitBookingRequest(deps, toSessionUser(row), {
    course,
    targetDate: playDate,
    selectionOrder: [...wanted].map((time) => ({ time, slotId: null })),
    memberCartType: CART_CHOICES[0],
    playerDetails: { players: [] },
  });
}

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
console.log(`${MEMBERS} requests for ${course} ${playDate}, release ${new Date(releaseAt).toISOString()} on the club's clock (club ${CLUB_OFFSET_MS} ms ahead); waiting ~${Math.round((releaseAt - CLUB_OFFSET_MS - Date.now()) / 1000)} s`);
await deps.releaseEngine.start();

// Wait for every request to end (booked or failed), at most a minute after the release.
const ids = (await database.db.select({ id: bookingRequests.id }).from(bookingRequests)).map((r) => r.id);
const deadline = releaseAt - CLUB_OFFSET_MS + 60_000;
for (;;) {
  const open = await database.db.select({ id: bookingRequests.id }).from(bookingRequests).where(inArray(bookingRequests.status, ["pending", "processing"]));
  if (open.length === 0 || Date.now() > deadline) break;
  await Bun.sleep(100);
}
clearInterval(sampler);
await deps.releaseEngine.stop();

const attempts = ((await (await fetch(`${clubUrl}/__control/attempts`, { headers: { [CONTROL_TOKEN_HEADER]: "bench" } })).json()) as { attempts: BookingAttemptRecord[] }).attempts
  .filter((a) => a.date === playDate);
const ours = attempts.filter((a) => !a.isRival);
const rivals = attempts.filter((a) => a.isRival);
const early = ours.filter((a) => a.arrivedClubMs < releaseAt);
const firstByMember = new Map<string, number>();
for (const a of ours) firstByMember.set(a.email, Math.min(firstByMember.get(a.email) ?? Infinity, a.arrivedClubMs));
const lateness = [...firstByMember.values()].map((t) => t - releaseAt).sort((a, b) => a - b);
const confirmedByMember = new Map<string, number>();
for (const a of ours.filter((x) => x.outcome === "confirmed")) confirmedByMember.set(a.email, (confirmedByMember.get(a.email) ?? 0) + 1);
const duplicates = [...confirmedByMember.values()].filter((n) => n > 1).length;
// When each member's first post left Teebox, on the club's true clock (our clock + the true offset).
const sent = await database.db.select().from(requestAttempts).orderBy(requestAttempts.id);
const firstSent = new Map<number, number>();
for (const a of sent) if (!firstSent.has(a.requestId)) firstSent.set(a.requestId, a.firedAtLocal + CLUB_OFFSET_MS - releaseAt);
const fired = [...firstSent.values()].sort((a, b) => a - b);
// The first wave: posts that left before any answer came back, so none of them waited on another
// member's claim (the fairness rule makes the others wait for an answer first).
const firstAnswer = Math.min(...sent.filter((a) => a.durationMs !== null).map((a) => a.firedAtLocal + (a.durationMs ?? 0) + CLUB_OFFSET_MS - releaseAt));
const wave = fired.filter((t) => t < firstAnswer);
const statuses = await database.db.select({ status: bookingRequests.status }).from(bookingRequests).where(inArray(bookingRequests.id, ids));
const count = (s: string) => statuses.filter((r) => r.status === s).length;
const offset = deps.releaseEngine.offset();

console.log(`club clock offset measured: ${offset?.offsetMs} ms ± ${offset?.uncertaintyMs} ms (true ${CLUB_OFFSET_MS} ms)`);
console.log(`booking posts by Teebox: ${ours.length}; early attempts: ${early.length}`);
console.log(`first posts leaving Teebox, on the club's clock: p50 ${percentile(fired, 50)} ms, p99 ${percentile(fired, 99)} ms, max ${fired.at(-1)} ms, min ${fired[0]} ms`);
console.log(`  of which the first wave (${wave.length} requests with a slot of their own at the instant): p50 ${percentile(wave, 50)} ms, p99 ${percentile(wave, 99)} ms, max ${wave.at(-1)} ms`);
console.log(`lateness of first attempts arriving at the club, on its clock: p50 ${percentile(lateness, 50)} ms, p99 ${percentile(lateness, 99)} ms, max ${lateness.at(-1)} ms, min ${lateness[0]} ms (${lateness.length} members)`);
console.log(`slots won: Teebox ${ours.filter((a) => a.outcome === "confirmed").length}, rivals ${rivals.filter((a) => a.outcome === "confirmed").length}`);
console.log(`requests: ${count("confirmed")} confirmed, ${count("failed")} failed, ${count("pending") + count("processing")} unfinished`);
console.log(`duplicate bookings (members with more than one): ${duplicates}`);
console.log(`peak memory (Teebox process, RSS): ${(peakRss / 1024 / 1024).toFixed(1)} MB`);

clubProcess.kill("SIGTERM");
await clubProcess.exited;
await database.close();
rmSync(dataDir, { recursive: true, force: true });

