/**
 * Operator commands on a file database: an online backup, a restore that refuses to touch a running
 * instance's database, and re-encrypting every stored club password under a new key.
 */
import { Database } from "bun:sqlite";
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createPrivateFile, DatabaseInUseError, DatabaseServedError, holdSharedLock, takeExclusiveLock, takeServingLock } from "./file-lock.ts";
import { dirname, join, resolve } from "node:path";
import { randomBytes } from "../lib/random.ts";
import { canOpen, createSecretBox, keyFromString } from "../lib/secret-box.ts";

export const PID_FILE = "teebox.pid";

export class MaintenanceError extends Error {}

function filePathOf(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) {
    throw new MaintenanceError("This command works on a file: database; use the libSQL server's own tools for a libSQL database.");
  }
  return resolve(databaseUrl.slice("file:".length));
}

/**
 * The pid of a live process named by this data folder's pid file. Information only, for messages:
 * the lock file decides who serves (a pid file left by a killed server may name a reused pid).
 */
export function runningInstancePid(dataDir: string): number | null {
  const path = join(dataDir, PID_FILE);
  if (!existsSync(path)) return null;
  const pid = Number(readFileSync(path, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/**
 * The pid of the server that holds the lock: it writes its pid file just after taking the lock,
 * so a start refused in that instant looks again for a moment before naming nobody.
 */
export function servingInstancePid(dataDir: string, waitMs = 1000): number | null {
  for (let waited = 0; ; waited += 25) {
    const pid = runningInstancePid(dataDir);
    if (pid !== null || waited >= waitMs) return pid;
    Bun.sleepSync(25);
  }
}

/** Written by the server once it holds the lock (whole, under another name first); removed before the lock is let go. */
export function writePidFile(dataDir: string): () => void {
  const path = join(dataDir, PID_FILE);
  const staged = `${path}.${process.pid}.new`;
  writeFileSync(staged, String(process.pid), { mode: 0o600 });
  chmodSync(staged, 0o600);
  renameSync(staged, path);
  return () => rmSync(path, { force: true });
}

function integrityOf(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.query("PRAGMA integrity_check").get() as { integrity_check: string } | null;
    return row?.integrity_check ?? "no answer";
  } finally {
    db.close();
  }
}

/** A consistent copy of a live database (VACUUM INTO reads one snapshot), checked afterwards. */
export function backupDatabase(databaseUrl: string, target: string): { path: string; bytes: number } {
  const source = filePathOf(databaseUrl);
  const out = resolve(target);
  if (!existsSync(source)) throw new MaintenanceError(`There is no database at ${source}.`);
  if (existsSync(out)) throw new MaintenanceError(`${out} already exists; choose a new file name.`);
  const lock = holdSharedLock(source);
  const db = new Database(source);
  // The copy holds every member's data: readable by the owner only from its first byte.
  const umask = process.umask(0o077);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(out);
  } finally {
    process.umask(umask);
    db.close();
    lock.release();
  }
  chmodSync(out, 0o600);
  const integrity = integrityOf(out);
  if (integrity !== "ok") throw new MaintenanceError(`The backup failed its integrity check: ${integrity}`);
  return { path: out, bytes: Bun.file(out).size };
}

/**
 * Replaces the database with a backup, unless another process has it open: the lock every Teebox
 * process holds from the instant it opens the database (not a pid file written later) is taken
 * exclusively for the whole restore, so a server cannot start half-way through either.
 */
export function restoreDatabase(databaseUrl: string, dataDir: string, backup: string): void {
  const target = filePathOf(databaseUrl);
  const source = resolve(backup);
  if (!existsSync(source)) throw new MaintenanceError(`There is no backup at ${source}.`);
  const integrity = integrityOf(source);
  if (integrity !== "ok") throw new MaintenanceError(`The backup failed its integrity check: ${integrity}`);
  let lock;
  try {
    lock = takeExclusiveLock(target);
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    const pid = runningInstancePid(dataDir);
    throw new MaintenanceError(pid ? `Teebox is running (pid ${pid}) on this database; stop it before restoring.` : error.message);
  }
  try {
    const staged = join(dirname(target), `.restore-${process.pid}.db`);
    createPrivateFile(staged);
    copyFileSync(source, staged);
    chmodSync(staged, 0o600);
    for (const suffix of ["-wal", "-shm"]) rmSync(target + suffix, { force: true });
    renameSync(staged, target);
  } finally {
    lock.release();
  }
}

/**
 * Re-encrypts every stored club password under a new key in one transaction, then swaps the key
 * file. All or nothing: if any password cannot be opened with the current key, nothing changes.
 */
export function rotateKey(options: { databaseUrl: string; dataDir: string; keyFile: string; currentKey: Buffer; newSecret?: string }): { rotated: number; keyFile: string | null } {
  const path = filePathOf(options.databaseUrl);
  // The server's own lock: no Teebox serves the database while its passwords are re-sealed, and
  // none can start half-way through.
  let lock;
  try {
    lock = takeServingLock(path);
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    const pid = runningInstancePid(options.dataDir);
    throw new MaintenanceError(error instanceof DatabaseServedError ? `Teebox is running${pid ? ` (pid ${pid})` : ""}; stop it before rotating the key.` : error.message);
  }
  try {
    return rotateUnderLock(path, options);
  } finally {
    lock.release();
  }
}

function rotateUnderLock(path: string, options: { keyFile: string; currentKey: Buffer; newSecret?: string }): { rotated: number; keyFile: string | null } {
  const oldBox = createSecretBox(options.currentKey);
  const newSecret = options.newSecret ?? randomBytes(32).toString("hex");
  const newBox = createSecretBox(keyFromString(newSecret));
  const db = new Database(path);
  try {
    const rows = db.query("SELECT id, club_password_sealed AS sealed FROM users WHERE club_password_sealed IS NOT NULL").all() as { id: number; sealed: string }[];
    let resealed: { id: number; sealed: string }[];
    try {
      resealed = rows.map((r) => ({ id: r.id, sealed: newBox.seal(oldBox.open(r.sealed)) }));
    } catch {
      throw new MaintenanceError("A stored club password cannot be opened with the current key; nothing was changed.");
    }
    // The push key (decision 185) is sealed the same way; one the old key cannot open is left as it
    // is, and the server replaces it at start as it would have anyway.
    const hasPushKeys = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'push_keys'").get() !== null;
    const pushKeys = hasPushKeys ? (db.query("SELECT id, private_key_sealed AS sealed FROM push_keys").all() as { id: number; sealed: string }[]) : [];
    const pushResealed = pushKeys.flatMap((r) => (canOpen(oldBox, r.sealed) ? [{ id: r.id, sealed: newBox.seal(oldBox.open(r.sealed)) }] : []));
    const staged = options.newSecret ? null : `${options.keyFile}.new`;
    if (staged) writeFileSync(staged, `${newSecret}\n`, { mode: 0o600 });
    const update = db.query("UPDATE users SET club_password_sealed = ? WHERE id = ?");
    const updatePushKey = db.query("UPDATE push_keys SET private_key_sealed = ? WHERE id = ?");
    db.transaction(() => {
      for (const r of resealed) update.run(r.sealed, r.id);
      for (const r of pushResealed) updatePushKey.run(r.sealed, r.id);
    })();
    if (staged) {
      if (existsSync(options.keyFile)) copyFileSync(options.keyFile, `${options.keyFile}.old`);
      renameSync(staged, options.keyFile);
    }
    return { rotated: resealed.length, keyFile: staged ? options.keyFile : null };
  } finally {
    db.close();
  }
}
