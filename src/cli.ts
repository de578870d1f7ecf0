/**
 * The command line of the teebox binary: serve (default), backup, restore, rotate-key, --version, --help.
 */
import { ConfigError, loadConfig } from "./config.ts";
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
  teebox --version          print the version
  teebox --help             print this help

Configuration comes from the environment: PORT, HOST, DATA_DIR, DATABASE_URL, SECRET_KEY,
SECRET_KEY_FILE, CLUB_URL, ADMIN_PASSWORD, PUBLIC_ORIGIN, TRUSTED_PROXIES, ALLOWED_HOSTS, LOG_LEVEL
(see the README).`;

type Serve = () => Promise<void>;

/** Runs a command and answers its exit code (serve keeps the process alive and answers null). */
export async function runCli(args: string[], serve: Serve, env = process.env): Promise<number | null> {
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

function usage(message: string): number {
  console.error(`teebox: ${message}\n\n${HELP}`);
  return 2;
}
