import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { backupDatabase, MaintenanceError, PID_FILE, restoreDatabase, rotateKey } from "../../src/db/maintenance.ts";
import { DatabaseServedError, takeExclusiveLock, takeServingLock } from "../../src/db/file-lock.ts";
import { migrations } from "../../drizzle/index.ts";
import { createSecretBox, keyFromString, loadOrCreateKeyFile } from "../../src/lib/secret-box.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createVapidKeyStore } from "../../src/services/push-keys.ts";

/** A migrated database, open as the server has it (holding the serving lock). */
async function freshDatabase() {
  const dir = mkdtempSync(join(tmpdir(), "teebox-maint-"));
  const url = `file:${join(dir, "teebox.db")}`;
  const database = openDatabase(url, { serving: true });
  await migrate(database, 0);
  return { dir, url, database };
}

function insertUser(path: string, username: string, sealed: string | null) {
  const db = new Database(path);
  db.query("INSERT INTO users (username, password_hash, club_password_sealed, created_at, updated_at) VALUES (?, 'x', ?, 0, 0)").run(username, sealed);
  db.close();
}

describe("backup and restore", () => {
  test("a backup of a live database is consistent and restores over a stopped instance", async () => {
    const { dir, url, database } = await freshDatabase();
    insertUser(join(dir, "teebox.db"), "maria", null);
    const target = join(dir, "backup.db");
    const result = backupDatabase(url, target); // the database is still open: an online copy
    expect(result.bytes).toBeGreaterThan(0);
    const copy = new Database(target, { readonly: true });
    expect(copy.query("SELECT username FROM users").all()).toEqual([{ username: "maria" }]);
    copy.close();
    expect(() => backupDatabase(url, target)).toThrow(MaintenanceError);

    insertUser(join(dir, "teebox.db"), "jose", null);
    await database.close();
    restoreDatabase(url, dir, target);
    const restored = new Database(join(dir, "teebox.db"), { readonly: true });
    expect(restored.query("SELECT username FROM users").all()).toEqual([{ username: "maria" }]);
    restored.close();
  });

  test("restore refuses while a Teebox serves the database, naming its pid, and refuses a damaged backup", async () => {
    const { dir, url, database } = await freshDatabase();
    const target = join(dir, "backup.db");
    backupDatabase(url, target);
    writeFileSync(join(dir, PID_FILE), String(process.ppid)); // the server's pid file (a live process that is not us)
    expect(() => restoreDatabase(url, dir, target)).toThrow(`Teebox is running (pid ${process.ppid}) on this database; stop it before restoring.`);
    await database.close();
    // The lock decides, not the pid file: one left behind by a killed server (its pid since reused
    // by another process) does not stand in the way.
    restoreDatabase(url, dir, target);
    const damaged = join(dir, "damaged.db");
    writeFileSync(damaged, "this is not a database");
    expect(() => restoreDatabase(url, dir, damaged)).toThrow();
  });

  test("libSQL databases are left to the server's own tools", () => {
    expect(() => backupDatabase("libsql://db.example.com", "/tmp/x.db")).toThrow(/file: database/);
  });
});

describe("one server per database", () => {
  test("a second server is refused at once, before it opens anything; backup and check-club share the database with the server", async () => {
    const { dir, url, database } = await freshDatabase();
    expect(() => openDatabase(url, { serving: true })).toThrow(DatabaseServedError);
    // What backup and check-club take: the database stays open to them while it is served.
    const reader = openDatabase(url);
    expect(await reader.query("SELECT count(*) AS n FROM __teebox_migrations")).toEqual([{ n: migrations.length }]);
    await reader.close();
    await database.close();
    // Let go with the close: the next server starts.
    const next = openDatabase(url, { serving: true });
    await next.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a server starting during a restore waits for it, and is not told another server holds the database", () => {
    const dir = mkdtempSync(join(tmpdir(), "teebox-maint-"));
    const path = join(dir, "teebox.db");
    const restore = takeExclusiveLock(path);
    try {
      expect(() => takeServingLock(path, 200)).toThrow("The database is being restored; start Teebox again when the restore has finished.");
    } finally {
      restore.release();
    }
    takeServingLock(path, 200).release();
    rmSync(dir, { recursive: true, force: true });
  });

  test("rotate-key is refused while a server holds the database", async () => {
    const { dir, url, database } = await freshDatabase();
    const keyFile = join(dir, "secret.key");
    const key = loadOrCreateKeyFile(keyFile);
    writeFileSync(join(dir, PID_FILE), String(process.ppid));
    expect(() => rotateKey({ databaseUrl: url, dataDir: dir, keyFile, currentKey: key })).toThrow(`Teebox is running (pid ${process.ppid}); stop it before rotating the key.`);
    await database.close();
    expect(rotateKey({ databaseUrl: url, dataDir: dir, keyFile, currentKey: key }).rotated).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("rotate-key", () => {
  test("re-encrypts every club password under a new key file, all or nothing", async () => {
    const { dir, url, database } = await freshDatabase();
    await database.close();
    const keyFile = join(dir, "secret.key");
    const oldKey = loadOrCreateKeyFile(keyFile);
    const oldBox = createSecretBox(oldKey);
    insertUser(join(dir, "teebox.db"), "maria", oldBox.seal("maria-club"));
    insertUser(join(dir, "teebox.db"), "jose", oldBox.seal("jose-club"));

    const result = rotateKey({ databaseUrl: url, dataDir: dir, keyFile, currentKey: oldKey });
    expect(result.rotated).toBe(2);
    const newBox = createSecretBox(keyFromString(readFileSync(keyFile, "utf8").trim()));
    const db = new Database(join(dir, "teebox.db"), { readonly: true });
    const rows = db.query("SELECT username, club_password_sealed AS sealed FROM users ORDER BY username").all() as { username: string; sealed: string }[];
    db.close();
    expect(rows.map((r) => newBox.open(r.sealed))).toEqual(["jose-club", "maria-club"]);
    expect(existsSync(`${keyFile}.old`)).toBe(true);

    // A password sealed under another key: nothing changes.
    insertUser(join(dir, "teebox.db"), "ana", createSecretBox(keyFromString("some-other-key-entirely")).seal("ana-club"));
    const before = readFileSync(join(dir, "teebox.db"));
    expect(() => rotateKey({ databaseUrl: url, dataDir: dir, keyFile, currentKey: keyFromString(readFileSync(keyFile, "utf8").trim()) })).toThrow(/nothing was changed/);
    expect(readFileSync(join(dir, "teebox.db")).equals(before)).toBe(true);
  });
});

describe("the push keys (made once, kept with the data)", () => {
  /** The server's VAPID key pair as a Teebox started on this database with this key would read it. */
  async function pushKeysOf(url: string, key: Buffer) {
    const database = openDatabase(url, { serving: true });
    try {
      return await createVapidKeyStore({ database, secretBox: createSecretBox(key), clock: new FakeClock(0), logger: createLogger("error") }).get();
    } finally {
      await database.close();
    }
  }

  test("a backup carries them: restored with its key file, Teebox keeps the same pair; rotate-key re-seals them with the passwords", async () => {
    const { dir, url, database } = await freshDatabase();
    await database.close();
    const keyFile = join(dir, "secret.key");
    const key = loadOrCreateKeyFile(keyFile);
    const made = await pushKeysOf(url, key);
    expect(await pushKeysOf(url, key)).toEqual(made);

    const target = join(dir, "backup.db");
    backupDatabase(url, target);
    const copy = new Database(target, { readonly: true });
    expect(copy.query("SELECT public_key AS publicKey FROM push_keys").all()).toEqual([{ publicKey: made.publicKey }]);
    copy.close();

    // Another machine: the backup and the key file restored into a new data folder.
    const elsewhere = mkdtempSync(join(tmpdir(), "teebox-maint-"));
    const restoredUrl = `file:${join(elsewhere, "teebox.db")}`;
    restoreDatabase(restoredUrl, elsewhere, target);
    expect(await pushKeysOf(restoredUrl, key)).toEqual(made);

    const rotatedKeyFile = join(elsewhere, "secret.key");
    writeFileSync(rotatedKeyFile, readFileSync(keyFile));
    rotateKey({ databaseUrl: restoredUrl, dataDir: elsewhere, keyFile: rotatedKeyFile, currentKey: key });
    const newKey = keyFromString(readFileSync(rotatedKeyFile, "utf8").trim());
    expect(newKey.equals(key)).toBe(false);
    expect(await pushKeysOf(restoredUrl, newKey)).toEqual(made);
    rmSync(elsewhere, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
});
