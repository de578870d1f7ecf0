/**
 * The composition root: config → database → club → hub and app → jobs → Bun.serve.
 * SIGTERM/SIGINT stop them in the reverse order.
 */
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { createApp } from "./app.ts";
import { openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { seed } from "./db/seed.ts";
import type { AppDeps } from "./deps.ts";
import { hashPassword } from "./services/passwords.ts";
import { readSettings } from "./services/settings.service.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { openSimClock } from "./lib/sim-clock.ts";
import { createLogger } from "./lib/logger.ts";
import { createSecretBox, keyFromString, loadOrCreateKeyFile } from "./lib/secret-box.ts";
import { createTrustPolicy } from "./lib/trust.ts";
import { registerPlayersActions } from "./features/players/players.service.ts";
import { registerBookingActions } from "./features/bookings/bookings.actions.ts";
import { createScraper } from "./jobs/scraper.ts";
import { registerScraperActions } from "./features/availability/scraper.actions.ts";
import { startHttpServer } from "./server.ts";
import { loadWebAssets } from "./web-assets.ts";
import { runCli } from "./cli.ts";
import { runningInstancePid, writePidFile } from "./db/maintenance.ts";
import { createHash } from "node:crypto";
import { createClubSim } from "./club-sim/index.ts";
import { CLUB_INFO_FILE } from "./club/club-info.ts";
import { reportUnreadableClubPasswords } from "./club/club-passwords.ts";
import { createContainer } from "./container.ts";
import { createMailTransport } from "./mail/nodemailer-transport.ts";
import { join } from "node:path";
import { writeFileSync } from "node:fs";

export interface Teebox {
  url: string;
  deps: AppDeps;
  stop(): Promise<void>;
}

export async function startTeebox(config: Config, options: { clock?: Clock } = {}): Promise<Teebox> {
  const clock = options.clock ?? systemClock;
  // Log lines carry the time Teebox lives in (a simulated one in a soak, so they line up with its days).
  const logger = createLogger(config.logLevel ?? "info", undefined, () => clock.now());
  const key = config.secretKey ? keyFromString(config.secretKey) : loadOrCreateKeyFile(config.secretKeyFile);
  const secretBox = createSecretBox(key);
  // The cookie key is derived from the same secret so one key file is all an operator keeps.
  const sessionKey = new Uint8Array(createHash("sha256").update(key).update("teebox-session").digest());

  const database = openDatabase(config.databaseUrl);
  await migrate(database, clock.now());
  const demo = !config.clubUrl;
  // With no CLUB_URL the demo club runs in this process on a loopback port of its own.
  // Rivals make the demo honest: popular slots of a newly opened date go within seconds.
  const demoSim = demo ? createClubSim({ clock, rivals: { share: 0.3, delayMs: 1500, cancelEveryMs: 10 * 60_000 } }) : null;
  const demoClub = demoSim ? await demoSim.start(0, "127.0.0.1") : null;
  const clubUrl = config.clubUrl ?? demoClub!.url;
  const deps: AppDeps = createContainer({
    database,
    clock,
    logger,
    secretBox,
    sessionKey,
    publicOrigin: config.publicOrigin,
    trust: createTrustPolicy(config.publicOrigin, { trustedProxies: config.trustedProxies, allowedHosts: config.allowedHosts }),
    clubInfo: { mode: demo ? "demo" : "live", url: clubUrl, numericDateOrder: config.clubDateOrder },
    mail: { transport: config.smtpUrl ? createMailTransport(config.smtpUrl) : null, from: config.mailFrom },
  });
  await seed(database, {
    now: clock.now(),
    adminPassword: config.adminPassword,
    demo,
    secretBox,
    hashPassword: (password) => hashPassword(deps, password),
    announce: (message) => console.log(message),
  });
  await reportUnreadableClubPasswords(deps);
  const settings = await readSettings(database.db);
  if (!config.logLevel) logger.setLevel(settings.log_level);

  registerPlayersActions(deps);
  // Jobs (scraper, release engine, bookings sync) start after the seed and stop before the
  // database closes; each is { start(), stop() } and stop() lets work in flight finish.
  const jobs: { start(): void | Promise<void>; stop(): Promise<void> }[] = [];
  const scraper = createScraper(deps);
  registerScraperActions(deps.hub, scraper);
  jobs.push(scraper);
  registerBookingActions(deps);
  jobs.push(deps.releaseEngine);
  jobs.push(deps.bookingsSync);
  jobs.push(deps.slotWatch);
  jobs.push(deps.readiness);
  jobs.push(deps.mailSender);

  const app = createApp(deps);
  const web = await loadWebAssets();
  const server = startHttpServer({ app, deps, web, port: config.port, host: config.host });
  for (const job of jobs) await job.start();
  logger.info("Teebox is serving", { url: server.url, demo, club: clubUrl, mail: deps.mailSender.describe() ?? "outbox only (no SMTP_URL)" });
  if (demoClub) {
    // Local tools (browser tests, benchmarks) find the demo club and its control token here.
    writeFileSync(join(config.dataDir, CLUB_INFO_FILE), JSON.stringify({ url: demoClub.url, controlToken: demoSim!.controlToken }), { mode: 0o600 });
  }

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop taking requests, let release attempts in flight finish, close sockets, then the rest.
      await server.stopAccepting();
      for (const job of [...jobs].reverse()) await job.stop();
      // Notifications raised by the last work are stored before the database closes.
      await deps.notifier.settled?.();
      await server.closeConnections();
      await demoClub?.stop();
      await database.close();
      logger.info("Teebox stopped");
    })());
  return { url: server.url, deps, stop };
}

async function serve(): Promise<void> {
  const config = loadConfig();
  const pid = runningInstancePid(config.dataDir);
  if (pid) throw new ConfigError(`DATA_DIR ${config.dataDir} is already served by Teebox (pid ${pid})`);
  // Only benchmarks and tests set TEEBOX_SIM_CLOCK: Teebox and the demo club then share simulated time.
  const simClock = config.simClockFile ? openSimClock(config.simClockFile) : null;
  const teebox = await startTeebox(config, { clock: simClock ?? systemClock });
  const removePidFile = writePidFile(config.dataDir);
  console.log(`Teebox is running at ${teebox.url}${simClock ? " on a simulated clock (TEEBOX_SIM_CLOCK, for benchmarks and tests only)" : ""}`);
  const shutdown = () =>
    void teebox.stop().then(() => {
      simClock?.close();
      removePidFile();
      process.exit(0);
    });
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
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
