/**
 * The database as the server opens it: one server per database. A file database is locked
 * against every other server before anything is read or written (file-lock.ts), and the pid file
 * is written just after, so a second start is refused with one line naming the first. A libSQL
 * database is guarded by the engine lease instead (src/jobs/engine-lease.ts).
 */
import { relative, isAbsolute } from "node:path";
import { ConfigError } from "../config.ts";
import { openDatabase, type AppDatabase } from "./client.ts";
import { DatabaseServedError } from "./file-lock.ts";
import { servingInstancePid, writePidFile } from "./maintenance.ts";

export interface ServedDatabase {
  database: AppDatabase;
  /** Removes the pid file; called before the database (and so the lock) is closed. */
  removePidFile(): void;
}

export function openServedDatabase(config: { databaseUrl: string; dataDir: string }): ServedDatabase {
  let database: AppDatabase;
  try {
    database = openDatabase(config.databaseUrl, { serving: true });
  } catch (error) {
    if (error instanceof DatabaseServedError) throw new ConfigError(alreadyServed(config));
    throw error;
  }
  if (database.kind !== "file" || database.filePath === null) return { database, removePidFile: () => undefined };
  return { database, removePidFile: writePidFile(config.dataDir) };
}

/** "DATA_DIR /var/lib/teebox is already served by another Teebox (pid 4242)". */
function alreadyServed(config: { databaseUrl: string; dataDir: string }): string {
  const path = config.databaseUrl.slice("file:".length);
  const fromDataDir = relative(config.dataDir, path);
  const isInDataDir = fromDataDir !== "" && !fromDataDir.startsWith("..") && !isAbsolute(fromDataDir);
  const pid = servingInstancePid(config.dataDir);
  const what = isInDataDir ? `DATA_DIR ${config.dataDir}` : `The database ${path}`;
  return `${what} is already served by another Teebox${pid ? ` (pid ${pid})` : ""}`;
}
