/**
 * Who has a database file open, told by a lock that lives exactly as long as its holder: a small
 * SQLite file beside the database (`<db>-lock`) on which every Teebox process that opens the
 * database holds a read lock from the moment it opens it, and a restore takes the write lock.
 * The operating system drops the locks of a process that dies, so there is nothing stale to clean
 * up (a pid file written after start-up can be both late and stale).
 */
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, openSync } from "node:fs";
import { ConfigError } from "../config.ts";

/** A ConfigError, so start-up stops with its one readable line. */
export class DatabaseInUseError extends ConfigError {}

export interface FileLock {
  release(): void;
}

const lockPathOf = (databasePath: string) => `${databasePath}-lock`;

/** Creates a file readable by the owner only (an existing one is tightened), before SQLite opens it. */
export function createPrivateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
  chmodSync(path, 0o600);
}

function openLock(databasePath: string, waitMs: number): Database {
  const path = lockPathOf(databasePath);
  createPrivateFile(path);
  const db = new Database(path, { create: true });
  // A rollback journal, not WAL: its file locks are what other processes see.
  db.exec("PRAGMA journal_mode = DELETE");
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
  return db;
}

/**
 * Held by every process that has the database open (the server from its first instant, backup,
 * rotate-key): many may hold it at once. Waits up to `waitMs` while a restore runs.
 */
export function holdSharedLock(databasePath: string, waitMs = 5000): FileLock {
  const db = openLock(databasePath, waitMs);
  try {
    db.exec("BEGIN");
    // A read inside the transaction takes the SHARED lock and keeps it until release.
    db.query("SELECT count(*) FROM sqlite_master").get();
  } catch {
    db.close();
    throw new DatabaseInUseError("The database is being restored; start Teebox again when the restore has finished.");
  }
  return lockHeldBy(db);
}

/** Held by a restore: refused at once while any other process has the database open. */
export function takeExclusiveLock(databasePath: string): FileLock {
  const db = openLock(databasePath, 0);
  try {
    db.exec("BEGIN EXCLUSIVE");
  } catch {
    db.close();
    throw new DatabaseInUseError("Another Teebox process has this database open; stop it before restoring.");
  }
  return lockHeldBy(db);
}

/** The lock a transaction of `db` holds: released by ending the transaction and closing. */
function lockHeldBy(db: { exec(sql: string): unknown; close(): void }): FileLock {
  return {
    release() {
      try {
        db.exec("ROLLBACK");
      } finally {
        db.close();
      }
    },
  };
}
