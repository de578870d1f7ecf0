import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { backupDatabase, MaintenanceError, PID_FILE, restoreDatabase, rotateKey } from "../../src/db/maintenance.ts";
import { createSecretBox, keyFromString, loadOrCreateKeyFile } from "../../src/lib/secret-box.ts";

async function freshDatabase() {
  const dir = mkdtempSync(join(tmpdir(), "teebox-maint-"));
  const url = `file:${join(dir, "teebox.db")}`;
  const database = openDatabase(url);
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

  test("restore refuses while a Teebox serves the database, and refuses a damaged backup", async () => {
    const { dir, url, database } = await freshDatabase();
    await database.close();
    const target = join(dir, "backup.db");
    backupDatabase(url, target);
    writeFileSync(join(dir, PID_FILE), String(process.ppid)); // a live process that is not us
    expect(() => restoreDatabase(url, dir, target)).toThrow(/is running/);
    writeFileSync(join(dir, PID_FILE), "999999999");
    const damaged = join(dir, "damaged.db");
    writeFileSync(damaged, "this is not a database");
    expect(() => restoreDatabase(url, dir, damaged)).toThrow();
  });

  test("libSQL databases are left to the server's own tools", () => {
    expect(() => backupDatabase("libsql://db.example.com", "/tmp/x.db")).toThrow(/file: database/);
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
