/**
 * Teebox as a contender of the release benchmarks: the one place that builds and starts Teebox's
 * release engine for them (the real club adapter, a file database, the members' requests
 * submitted through the bookings service), so that a change of the engine's API is adapted here
 * only. It runs in a process of its own, so its memory is Teebox's alone.
 *
 *   bun scripts/bench/teebox-contender.ts < setup.json   (a RunSetup; prints a ContenderReport line)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inArray } from "drizzle-orm";
import { CART_CHOICES } from "../../src/club-sim/demo-data.ts";
import { createClubClient } from "../../src/club/client.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { seed } from "../../src/db/seed.ts";
import { bookingRequests, requestAttempts, users } from "../../src/db/schema.ts";
import type { AppDeps } from "../../src/deps.ts";
import { createContainer } from "../../src/container.ts";
import { DEFAULT_STORED_SETTINGS } from "../../src/domain/settings.ts";
import { toSessionUser } from "../../src/services/sessions.ts";
import { submitBookingRequest } from "../../src/features/bookings/bookings.service.ts";
import { writeSettings } from "../../src/services/settings.service.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createSecretBox } from "../../src/lib/secret-box.ts";
import { createApp } from "../../src/app.ts";
import { createSession, SESSION_COOKIE, signSessionCookie } from "../../src/services/sessions.ts";
import { startHttpServer, type HttpServer } from "../../src/server.ts";
import type { WebAssets } from "../../src/web-assets.ts";
import type { AppLoadReport, AppLoadSetup } from "./app-load.ts";
import { ownPeakRssMb, readJsonInput, runJsonProcess, type Contender, type ContenderReport, type RunSetup } from "./release-support.ts";

/** The engine signs members in and measures the club clock this long before the release. */
const PREPARE_LEAD_MS = 45_000;
/** Requests still open this long after the instant are left as they are and reported. */
const SETTLE_MS = 45_000;

export const teeboxContender: Contender = {
  name: "Teebox",
  // Setting up the database and submitting the requests happens before the engine's own lead.
  leadMs: PREPARE_LEAD_MS + 15_000,
  run: (setup) => runJsonProcess<ContenderReport>(import.meta.path, setup, setup.plan.releaseAtClub - setup.clubOffsetMs - Date.now() + SETTLE_MS + 30_000),
};

async function runTeebox(setup: RunSetup): Promise<ContenderReport> {
  const { plan, clubUrl } = setup;
  const instantHostMs = plan.releaseAtClub - setup.clubOffsetMs;
  /** Where the run is, on stderr, so a slow step shows (the report itself is stdout's last line). */
  const phase = (what: string) => console.error(`  Teebox, ${((Date.now() - instantHostMs) / 1000).toFixed(1)} s from the instant: ${what}`);
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
  await writeSettings(database.db, { ...DEFAULT_STORED_SETTINGS, release_time: plan.releaseTime, release_days_before: plan.releaseDaysBefore, ui_date_range_days: plan.releaseDaysBefore + 7 });

  const now = Date.now();
  const rows = await database.db
    .insert(users)
    .values(setup.members.map(({ account }, i) => ({
      username: `bench${i + 1}`,
      passwordHash: "x",
      name: `${account.firstName} ${account.lastName}`,
      memberId: account.membershipNumber,
      clubEmail: account.email,
      clubPasswordSealed: secretBox.seal(account.password),
      createdAt: now,
      updatedAt: now,
    })))
    .returning();
  phase(`${rows.length} members stored`);
  const emailOf = new Map<number, string>();
  // Submitted one after another in the members' order: that order is the fairness rule's.
  for (const [i, row] of rows.entries()) {
    const member = setup.members[i];
    emailOf.set(row.id, member.account.email);
    await submitBookingRequest(deps, toSessionUser(row), {
      course: member.course,
      targetDate: plan.playDate,
      selectionOrder: member.times.map((time) => ({ time, slotId: null })),
      memberCartType: CART_CHOICES[0],
      playerDetails: { players: [] },
    });
  }

  phase("requests submitted");
  // Under load: Teebox serves the app too, and members' browsers (another process) use it at the instant.
  const appLoad = setup.load ? await startAppLoad(deps, setup, rows.map((r) => r.id)) : null;
  await deps.releaseEngine.start();
  const deadline = plan.releaseAtClub - setup.clubOffsetMs + SETTLE_MS;
  for (;;) {
    const open = await database.db.select({ id: bookingRequests.id }).from(bookingRequests).where(inArray(bookingRequests.status, ["pending", "processing"]));
    if ((open.length === 0 && Date.now() > plan.releaseAtClub - setup.clubOffsetMs) || Date.now() > deadline) break;
    await Bun.sleep(100);
  }
  phase("requests settled; stopping the engine");
  await deps.releaseEngine.stop();
  const loadReport = appLoad ? await appLoad.report : null;
  await appLoad?.server.closeConnections();

  const requestUser = new Map((await database.db.select({ id: bookingRequests.id, userId: bookingRequests.userId }).from(bookingRequests)).map((r) => [r.id, r.userId]));
  const sentHostMs: Record<string, number[]> = {};
  for (const attempt of await database.db.select().from(requestAttempts).orderBy(requestAttempts.id)) {
    const email = emailOf.get(requestUser.get(attempt.requestId) ?? -1);
    if (email) (sentHostMs[email] ??= []).push(attempt.firedAtLocal);
  }
  const statuses = await database.db.select({ status: bookingRequests.status }).from(bookingRequests);
  const count = (status: string) => statuses.filter((r) => r.status === status).length;
  const offset = deps.releaseEngine.offset();
  const report: ContenderReport = {
    sentHostMs,
    peakRssMb: await ownPeakRssMb(),
    notes: [
      `club clock offset measured by Teebox: ${offset?.offsetMs} ms ± ${offset?.uncertaintyMs} ms (true ${setup.clubOffsetMs} ms)`,
      `Teebox's requests: ${count("confirmed")} confirmed, ${count("failed")} failed, ${statuses.length - count("confirmed") - count("failed")} other`,
      ...(loadReport ? [describeLoad(loadReport, setup)] : []),
    ],
  };
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  return report;
}

/** A page server is needed for the API, not for the app's files: one empty page stands in for them. */
const NO_WEB: WebAssets = new Map([["/index.html", { body: new TextEncoder().encode("<!doctype html>"), gzip: null, contentType: "text/html; charset=utf-8", isImmutable: false }]]);

async function startAppLoad(deps: AppDeps, setup: RunSetup, userIds: number[]): Promise<{ server: HttpServer; report: Promise<AppLoadReport> }> {
  const load = setup.load ?? { sockets: 0, refreshers: 0 };
  const server = startHttpServer({ app: createApp(deps), deps, web: NO_WEB, port: 0, host: "127.0.0.1" });
  const cookies = await Promise.all(
    userIds.map(async (userId) => {
      const session = await createSession(deps, userId);
      return `${SESSION_COOKIE}=${await signSessionCookie(deps, session.id, session.expiresAt)}`;
    }),
  );
  const appSetup: AppLoadSetup = { url: server.url, cookies, sockets: load.sockets, refreshers: load.refreshers, instantHostMs: setup.plan.releaseAtClub - setup.clubOffsetMs };
  const report = runJsonProcess<AppLoadReport>(join(import.meta.dir, "app-load.ts"), appSetup, appSetup.instantHostMs - Date.now() + 60_000);
  return { server, report };
}

function describeLoad(r: AppLoadReport, setup: RunSetup): string {
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
  return `under load: ${r.socketsOpen} sockets open, ${setup.load?.refreshers ?? 0} members refreshing in the second around the instant: ${r.answered} of ${r.reads} reads answered (${r.failed} failed), p50 ${f(r.p50Ms)} ms, p99 ${f(r.p99Ms)} ms, max ${f(r.maxMs)} ms`;
}

if (import.meta.main) {
  const report = await runTeebox(await readJsonInput<RunSetup>());
  console.log(JSON.stringify(report));
  process.exit(0);
}
