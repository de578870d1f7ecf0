/**
 * The composition root: config → database → club → hub and app → jobs → Bun.serve.
 * SIGTERM/SIGINT stop them in the reverse order.
 */
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { createApp } from "./app.ts";
import { openServedDatabase } from "./db/serving.ts";
import { migrate } from "./db/migrate.ts";
import { seed } from "./db/seed.ts";
import type { AppDeps } from "./deps.ts";
import { hashPassword } from "./services/passwords.ts";
import { readSettings } from "./services/settings.service.ts";
import { budgetLimitsOf } from "./club/budget.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { openSimClock } from "./lib/sim-clock.ts";
import { createLogger } from "./lib/logger.ts";
import { createSecretBox, keyFromString, loadOrCreateKeyFile } from "./lib/secret-box.ts";
import { createTrustPolicy } from "./lib/trust.ts";
import { startHttpServer } from "./server.ts";
import { loadWebAssets } from "./web-assets.ts";
import { runCli } from "./cli.ts";
import { createClubSim } from "./club-sim/index.ts";
import { CLUB_INFO_FILE } from "./club/club-info.ts";
import { reportUnreadableClubPasswords } from "./club/club-passwords.ts";
import { createContainer, jobsOf } from "./container.ts";
import { createJobRegistry } from "./jobs/registry.ts";
import { createEngineLease } from "./jobs/engine-lease.ts";
import { createEngine } from "./jobs/engine.ts";
import { join } from "node:path";
import { writeFileSync } from "node:fs";

export interface Teebox {
  url: string;
  deps: AppDeps;
  stop(): Promise<void>;
  /** Resolves once the engine lease (libSQL) was lost and the jobs have stopped. */
  lost: Promise<string>;
}

/**
 * Starts the server and its jobs; null when `signal` aborts while this instance waits for another
 * to let the engine lease go (libSQL). A second server on a file database stops here at once
 * with one readable line (a ConfigError), before it has opened or written anything.
 */
export async function startTeebox(config: Config, options: { clock?: Clock; signal?: AbortSignal } = {}): Promise<Teebox | null> {
  const clock = options.clock ?? systemClock;
  // Log lines carry the time Teebox lives in (a simulated one in a soak, so they line up with its days).
  const logger = createLogger(config.logLevel ?? "info", undefined, () => clock.now());
  // First of all, before the key file and the database are touched: one server per database.
  const { database, removePidFile } = openServedDatabase(config);
  const key = config.secretKey ? keyFromString(config.secretKey) : loadOrCreateKeyFile(config.secretKeyFile);
  const secretBox = createSecretBox(key);
  // The cookie key is derived from the same secret so one key file is all an operator keeps.
  const sessionKey = new Uint8Array(new Bun.CryptoHasher("sha256").update(key).update("teebox-session").digest());

  await migrate(database, clock.now());
  // On a libSQL server, nothing is served and no job runs until this instance holds the engine lease.
  const jobRegistry = createJobRegistry(() => clock.now());
  const lease = database.kind === "libsql" ? createEngineLease({ database, clock, logger, jobs: jobRegistry }) : null;
  if (lease && !(await lease.acquire(options.signal))) {
    await database.close();
    return null;
  }
  const demo = !config.clubUrl;
  // With no CLUB_URL the demo club runs in this process on a loopback port of its own, opening
  // dates as Teebox's release settings say (read now, and followed when an admin saves them).
  // Rivals make the demo honest: popular slots of a newly opened date go within seconds.
  const release = demo ? await readSettings(database.db) : null;
  const demoSim = release
    ? createClubSim({ clock, releaseTime: release.release_time, releaseDaysBefore: release.release_days_before, rivals: { share: 0.3, delayMs: 1500, cancelEveryMs: 10 * 60_000 } })
    : null;
  const demoClub = demoSim ? await demoSim.start(0, "127.0.0.1") : null;
  const clubUrl = config.clubUrl ?? demoClub!.url;
  const deps: AppDeps = createContainer(
    {
      database,
      clock,
      logger,
      secretBox,
      sessionKey,
      publicOrigin: config.publicOrigin,
      trust: createTrustPolicy(config.publicOrigin, { trustedProxies: config.trustedProxies, allowedHosts: config.allowedHosts }),
      clubInfo: { mode: demo ? "demo" : "live", url: clubUrl, numericDateOrder: config.clubDateOrder },
      // The SMTP client is a fifth of the server's code: loaded only where mail is configured.
      mail: { transport: config.smtpUrl ? (await import("./mail/nodemailer-transport.ts")).createMailTransport(config.smtpUrl) : null, from: config.mailFrom },
      push: { subject: config.pushSubject ?? undefined, serviceOrigins: config.pushServiceOrigins },
      telemetry: { heartbeatUrl: config.heartbeatUrl },
      metricsToken: config.metricsToken,
    },
    {
      jobs: jobRegistry,
      ...(demoSim ? { demoClub: { followRelease: (s) => void demoSim.setRelease({ releaseTime: s.release_time, releaseDaysBefore: s.release_days_before }) } } : {}),
    },
  );
  await seed(database, {
    now: clock.now(),
    adminPassword: config.adminPassword,
    demo,
    secretBox,
    hashPassword: (password) => hashPassword(deps, password),
    announce: (message) => console.log(message),
  });
  await reportUnreadableClubPasswords(deps);
  // The push key pair is made (first start) or opened now, so no member's call writes it and the
  // first push does not wait for it (decision 185).
  await deps.pushKeys.get();
  const settings = await readSettings(database.db);
  if (!config.logLevel) logger.setLevel(settings.log_level);
  deps.club.politeness.budget.configure(budgetLimitsOf(settings));

  const app = createApp(deps);
  const web = await loadWebAssets();
  if (demoClub) {
    // Local tools (browser tests, benchmarks) find the demo club and its control token here, from
    // the first answer on (the jobs below start while requests are already being answered).
    writeFileSync(join(config.dataDir, CLUB_INFO_FILE), JSON.stringify({ url: demoClub.url, controlToken: demoSim!.controlToken }), { mode: 0o600 });
  }
  const server = startHttpServer({ app, deps, web, port: config.port, host: config.host });
  // The jobs start after the seed and stop before the database closes.
  const engine = createEngine({ jobs: jobsOf(deps), lease, logger });
  await engine.start();
  logger.info("Teebox is serving", { url: server.url, demo, club: clubUrl, mail: deps.mailSender.describe() ?? "outbox only (no SMTP_URL)" });
  // The binary starts with the JIT reluctant, so code that only runs at start-up is not compiled
  // (scripts/build.ts); from here on the code that runs is what serves, and it is worth compiling.
  Bun.unsafe.setJITPolicy(1);
  // What only the start ran (migrating, seeding, building the routes) is given back once it has settled (decision 209).
  deps.telemetry.settleAfterStart();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop taking requests, let release attempts in flight finish, close sockets, then the rest.
      await server.stopAccepting();
      // Requests waiting for the club budget are not sent: the jobs stop without waiting for tokens.
      deps.club.politeness.budget.cancelWaiting();
      await engine.stop();
      // Notifications raised by the last work are stored before the database closes.
      await deps.notifier.settled?.();
      await server.closeConnections();
      await demoClub?.stop();
      // The pid file goes before the lock, so it never names a server that is gone.
      removePidFile();
      await database.close();
      logger.info("Teebox stopped");
    })());
  return { url: server.url, deps, stop, lost: engine.lost };
}

async function serve(): Promise<void> {
  const config = loadConfig();
  const stopWaiting = new AbortController();
  let teebox: Teebox | null = null;
  const exitAfterStop = (code: number) => void teebox?.stop().then(() => process.exit(code));
  // Installed first: an instance waiting for the engine lease stops when asked, too.
  const shutdown = () => (teebox ? exitAfterStop(0) : stopWaiting.abort());
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  // Only benchmarks and tests set TEEBOX_SIM_CLOCK: Teebox and the demo club then share simulated time.
  const simClock = config.simClockFile ? openSimClock(config.simClockFile) : null;
  teebox = await startTeebox(config, { signal: stopWaiting.signal, clock: simClock ?? systemClock });
  if (!teebox) {
    console.log("Teebox stopped while it waited for the engine lease");
    process.exit(0);
  }
  if (stopWaiting.signal.aborted) return exitAfterStop(0);
  console.log(`Teebox is running at ${teebox.url}${simClock ? " on a simulated clock (TEEBOX_SIM_CLOCK, for benchmarks and tests only)" : ""}`);
  // Its jobs are already stopped: stop serving too, and exit with an error so a supervisor starts
  // it again, as an instance that waits for the lease.
  void teebox.lost.then(() => exitAfterStop(1));
}

/** The process entry: `bun src/main.ts [command]`, and the compiled binary's entry (scripts/build.ts). */
export async function runMain(): Promise<void> {
  try {
    const code = await runCli(process.argv.slice(2), serve);
    if (code !== null) process.exit(code);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Teebox cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

if (import.meta.main) await runMain();
