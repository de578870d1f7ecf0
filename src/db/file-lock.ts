/**
 * Who has a database file open, and who serves it, told by locks that live exactly as long as
 * their holder: a small SQLite file beside the database (`<db>-lock`, rollback-journal mode) whose
 * three lock levels say three things.
 *
 * - SHARED: this process has the database open (the server, `backup`, `check-club`); many at once.
 * - RESERVED (with SHARED): this process serves the database, or rewrites it (`rotate-key`); one
 *   at a time, and it does not stop a backup from reading.
 * - EXCLUSIVE: a restore is replacing the file; nobody else may have it open.
 *
 * The operating system drops the locks of a process that dies (kill -9 included), so there is
 * nothing stale to clean up; a pid file can be both late and stale, so it only ever names the holder.
 */
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, openSync, statSync } from "node:fs";
import { ConfigError } from "../config.ts";

/** A ConfigError, so start-up stops with its one readable line. */
export class DatabaseInUseError extends ConfigError {}

/** Another process serves this database (or rewrites it): this one must not. */
export class DatabaseServedError extends DatabaseInUseError {
  constructor() {
    super("Another Teebox process serves this database.");
  }
}

export interface FileLock {
  release(): void;
}

const lockPathOf = (databasePath: string) => `${databasePath}-lock`;

/** How often a start waits and looks again while a restore holds the file. */
const RESTORE_POLL_MS = 50;

/**
 * The lock connections this process holds. A Database nothing refers to is closed by the garbage
 * collector, and its locks with it: keeping them here keeps every lock until it is released.
 */
const held = new Set<Database>();

/** Creates a file readable by the owner only (an existing one is tightened), before SQLite opens it. */
export function createPrivateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
  chmodSync(path, 0o600);
}

function openLock(databasePath: string, waitMs: number): Database {
  const path = lockPathOf(databasePath);
  createPrivateFile(path);
  const db = new Database(path, { create: true });
  if (statSync(path).size === 0) giveFirstPage(db);
  // The wait first: even the journal-mode pragma needs a moment's read lock, refused during a restore.
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
  // A rollback journal, not WAL: its file locks are what other processes see.
  db.exec("PRAGMA journal_mode = DELETE");
  return db;
}

/**
 * In an empty file the first write transaction writes the first page, through a journal; a holder
 * killed then would leave that journal behind for the next opener to roll back alone. Written once
 * here, the page makes every later lock a lock only. Another process at it at the same moment does
 * the same, so a failure is let go.
 */
function giveFirstPage(db: Database): void {
  try {
    db.exec("PRAGMA busy_timeout = 100");
    db.exec("PRAGMA user_version = 1");
  } catch {
    // Another process holds the file: it is being given its page, or is in use.
  }
}

const restoringMessage = "The database is being restored; start Teebox again when the restore has finished.";

/**
 * Held by every process that has the database open (backup, check-club): many may hold it at once.
 * Waits up to `waitMs` while a restore runs.
 */
export function holdSharedLock(databasePath: string, waitMs = 5000): FileLock {
  let db: Database | null = null;
  try {
    db = openLock(databasePath, waitMs);
    db.exec("BEGIN");
    // A read inside the transaction takes the SHARED lock and keeps it until release.
    db.query("SELECT count(*) FROM sqlite_master").get();
  } catch {
    db?.close();
    throw new DatabaseInUseError(restoringMessage);
  }
  return lockHeldBy(db);
}

/** Whether a read lock can be had right now: false only while a restore holds (or is taking) the file. */
function canRead(db: Database): boolean {
  try {
    db.exec("BEGIN");
    db.query("SELECT count(*) FROM sqlite_master").get();
    return true;
  } catch {
    return false;
  } finally {
    if (db.inTransaction) db.exec("ROLLBACK");
  }
}

/**
 * Held by the one process that serves the database (and by rotate-key), from before anything opens
 * the database until it closes: refused at once, with a DatabaseServedError, while another holds
 * it; waits up to `waitMs` while a restore runs. Backups still read alongside it; a restore is
 * refused while it is held.
 */
export function takeServingLock(databasePath: string, waitMs = 5000): FileLock {
  let db: Database;
  try {
    db = openLock(databasePath, waitMs);
    db.exec("PRAGMA busy_timeout = 0");
  } catch {
    throw new DatabaseInUseError(restoringMessage);
  }
  for (let waited = 0; ; waited += RESTORE_POLL_MS) {
    try {
      // SHARED and RESERVED at once, or SQLITE_BUSY at once: only one process can hold RESERVED.
      db.exec("BEGIN IMMEDIATE");
      return lockHeldBy(db);
    } catch {
      // Busy: either another server (a read lock is still granted beside it) or a restore.
    }
    if (canRead(db)) {
      db.close();
      throw new DatabaseServedError();
    }
    if (waited >= waitMs) {
      db.close();
      throw new DatabaseInUseError(restoringMessage);
    }
    Bun.sleepSync(RESTORE_POLL_MS);
  }
}

/** Held by a restore: refused at once while any other process has the database open. */
export function takeExclusiveLock(databasePath: string): FileLock {
  let db: Database | null = null;
  try {
    db = openLock(databasePath, 0);
    db.exec("BEGIN EXCLUSIVE");
  } catch {
    db?.close();
    throw new DatabaseInUseError("Another Teebox process has this database open; stop it before restoring.");
  }
  return lockHeldBy(db);
}

/** The lock a transaction of `db` holds: released by ending the transaction and closing. */
function lockHeldBy(db: Database): FileLock {
  held.add(db);
  return {
    release() {
      if (!held.delete(db)) return;
      try {
        db.exec("ROLLBACK");
      } finally {
        db.close();
      }
    },
  };
}
