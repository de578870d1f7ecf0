/**
 * The command line of the teebox binary: serve (default), backup, restore, rotate-key, --version, --help.
 */
import { join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { formatClubCheck } from "./club/check.ts";
import { ConfigError, loadClubCheckLogin, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { runClubCheck } from "./services/club-check.service.ts";
import { type Clock, systemClock } from "./lib/clock.ts";
import { backupDatabase, MaintenanceError, restoreDatabase, rotateKey } from "./db/maintenance.ts";
import { keyFromString, loadOrCreateKeyFile } from "./lib/secret-box.ts";
import pkg from "../package.json" with { type: "json" };

export const VERSION = pkg.version;

export const HELP = `Teebox ${VERSION}: members-only tee-time booking.

Usage:
  teebox                    serve (the demo club when CLUB_URL is unset)
  teebox backup <file>      write a consistent copy of the live database to <file>
  teebox restore <file>     replace the database with <file> (Teebox must be stopped)
  teebox rotate-key         re-encrypt stored club passwords under a new key file
                            (with SECRET_KEY set: teebox rotate-key --new-key <secret>)
  teebox check-club         read the club at CLUB_URL once (sign in, tee sheets, advisories,
                            bookings) and say what was read; books nothing. The login comes
                            from CLUB_EMAIL and CLUB_PASSWORD, or is asked for
  teebox --version          print the version
  teebox --help             print this help

Configuration comes from the environment: PORT, HOST, DATA_DIR, DATABASE_URL, SECRET_KEY,
SECRET_KEY_FILE, CLUB_URL, ADMIN_PASSWORD, PUBLIC_ORIGIN, TRUSTED_PROXIES, ALLOWED_HOSTS, LOG_LEVEL
(see the README).`;

/** Asks on the terminal; a secret is not echoed when the input is a terminal. */
export type Ask = (question: string, isSecret: boolean) => Promise<string>;

const askOnTerminal: Ask = (question, isSecret) =>
  new Promise((resolve) => {
    const stdin = process.stdin;
    const isRaw = isSecret && stdin.isTTY;
    process.stdout.write(question);
    if (isRaw) stdin.setRawMode(true);
    let answer = "";
    const done = () => {
      stdin.off("data", onData);
      if (isRaw) stdin.setRawMode(false);
      stdin.pause();
      if (isRaw) process.stdout.write("\n");
      resolve(answer.trim());
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n" || ch === "\u0003") return done();
        answer = ch === "\u007f" ? answer.slice(0, -1) : answer + ch;
      }
    };
    stdin.on("data", onData);
    stdin.resume();
  });

type Serve = () => Promise<void>;

/** What a command reads from the world: the environment, the terminal and the clock (tests give their own). */
export interface CliWorld {
  env: Record<string, string | undefined>;
  ask: Ask;
  clock: Clock;
}

/** Runs a command and answers its exit code (serve keeps the process alive and answers null). */
export async function runCli(args: string[], serve: Serve, world: Partial<CliWorld> = {}): Promise<number | null> {
  const { env = process.env, ask = askOnTerminal, clock = systemClock } = world;
  const [command, ...rest] = args;
  try {
    switch (command) {
      case undefined:
      case "serve":
        await serve();
        return null;
      case "--version":
      case "-v":
        console.log(VERSION);
        return 0;
      case "--help":
      case "-h":
      case "help":
        console.log(HELP);
        return 0;
      case "backup": {
        if (!rest[0]) return usage("backup needs a target file: teebox backup <file>");
        const config = loadConfig(env);
        const result = backupDatabase(config.databaseUrl, rest[0]);
        console.log(`Backup written to ${result.path} (${result.bytes} bytes, integrity ok)`);
        return 0;
      }
      case "restore": {
        if (!rest[0]) return usage("restore needs a backup file: teebox restore <file>");
        const config = loadConfig(env);
        restoreDatabase(config.databaseUrl, config.dataDir, rest[0]);
        console.log(`Database restored from ${rest[0]}`);
        return 0;
      }
      case "rotate-key": {
        const config = loadConfig(env);
        const newKeyIndex = rest.indexOf("--new-key");
        const newSecret = newKeyIndex >= 0 ? rest[newKeyIndex + 1] : undefined;
        if (config.secretKey && !newSecret) return usage("SECRET_KEY is set: give the new one with --new-key <secret>, then update SECRET_KEY");
        const currentKey = config.secretKey ? keyFromString(config.secretKey) : loadOrCreateKeyFile(config.secretKeyFile);
        const result = rotateKey({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, keyFile: config.secretKeyFile, currentKey, newSecret });
        console.log(
          `Re-encrypted ${result.rotated} club password(s).` +
            (result.keyFile ? ` The new key is in ${result.keyFile} (the old one in ${result.keyFile}.old).` : " Now set SECRET_KEY to the new key.") +
            " Members will need to sign in again.",
        );
        return 0;
      }
      case "check-club":
        return await checkClubCommand({ env, ask, clock });
      default:
        return usage(`Unknown command '${command}'.`);
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Teebox cannot start: ${error.message}`);
      return 1;
    }
    if (error instanceof MaintenanceError) {
      console.error(`teebox: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/** `teebox check-club`: prints what was read of each page and keeps the pages (login and cookies removed). */
async function checkClubCommand({ env, ask, clock }: CliWorld): Promise<number> {
  const config = loadConfig(env);
  if (!config.clubUrl) return usage("check-club needs CLUB_URL, the address of the club's booking site (without it Teebox runs the demo club).");
  const login = loadClubCheckLogin(env);
  const email = login.email ?? (await ask("Club login (email or username): ", false));
  const password = login.password ?? (await ask("Club password: ", true));
  if (!email || !password) return usage("check-club needs a club login: set CLUB_EMAIL and CLUB_PASSWORD or type them when asked.");
  const database = openDatabase(config.databaseUrl);
  try {
    await migrate(database, clock.now());
    const report = await runClubCheck({ db: database.db, clock, clubUrl: config.clubUrl, email, password, numericDateOrder: config.clubDateOrder });
    const folder = join(config.dataDir, `club-check-${new Date(report.startedAt).toISOString().replace(/[:.]/g, "-")}`);
    mkdirSync(folder, { recursive: true });
    report.pages.forEach((page, i) => {
      if (page.html) writeFileSync(join(folder, `${String(i + 1).padStart(2, "0")}-${page.page.replace(/[^a-z0-9]+/gi, "-").replace(/-$/, "")}.html`), page.html, { mode: 0o600 });
    });
    console.log(formatClubCheck(report));
    console.log(`The pages as the club sent them (login, tokens and cookies removed) are in ${folder}`);
    return report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

function usage(message: string): number {
  console.error(`teebox: ${message}\n\n${HELP}`);
  return 2;
}
