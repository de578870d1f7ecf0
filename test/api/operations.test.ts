/**
 * Operations: a restore never races a process that has the database open, every file holding
 * members' data is readable by the owner only, and a club password the key cannot open is told
 * as such to the member, the admin and the operator.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { backupDatabase, MaintenanceError, restoreDatabase, writePidFile } from "../../src/db/maintenance.ts";
import { users } from "../../src/db/schema.ts";
import { reportUnreadableClubPasswords } from "../../src/club/club-passwords.ts";
import { createSecretBox } from "../../src/lib/secret-box.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/api.ts";

const modeOf = (path: string) => statSync(path).mode & 0o777;

async function freshDatabase() {
  const dir = mkdtempSync(join(tmpdir(), "teebox-ops-"));
  const path = join(dir, "teebox.db");
  const database = openDatabase(`file:${path}`);
  await migrate(database, 0);
  return { dir, path, url: `file:${path}`, database };
}

describe("restore", () => {
  test("refuses while another process has the database open, with no pid file, from its first instant", async () => {
    const { dir, path, url, database } = await freshDatabase();
    const backup = join(dir, "backup.db");
    backupDatabase(url, backup);
    await database.close();
    // Another process opens the database the way the server does at start-up and says so.
    const script = `import { openDatabase } from ${JSON.stringify(join(import.meta.dir, "../../src/db/client.ts"))};
      const db = openDatabase(${JSON.stringify(url)}); console.log("open"); await Bun.sleep(60_000); await db.close();`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
    try {
      const reader = child.stdout.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain("open");
      expect(() => restoreDatabase(url, dir, backup)).toThrow(MaintenanceError);
      expect(() => restoreDatabase(url, dir, backup)).toThrow(/Another Teebox process has this database open/);
    } finally {
      child.kill();
      await child.exited;
    }
    // The lock dies with its process: nothing stale is left behind.
    restoreDatabase(url, dir, backup);
    expect(modeOf(path)).toBe(0o600);
  });

  test("refuses while this process has it open too (the server in tests)", async () => {
    const { dir, url, database } = await freshDatabase();
    const backup = join(dir, "backup.db");
    backupDatabase(url, backup);
    expect(() => restoreDatabase(url, dir, backup)).toThrow(MaintenanceError);
    await database.close();
    restoreDatabase(url, dir, backup);
  });
});

describe("files are readable by the owner only", () => {
  test("the data folder, the database with its WAL and SHM, the pid file and backups", async () => {
    const root = mkdtempSync(join(tmpdir(), "teebox-modes-"));
    const dataDir = join(root, "data");
    loadConfig({ DATA_DIR: dataDir });
    expect(modeOf(dataDir)).toBe(0o700);
    const path = join(dataDir, "teebox.db");
    const database = openDatabase(`file:${path}`);
    await migrate(database, 0);
    await database.execute("INSERT INTO app_settings (key, value) VALUES ('probe', 'x')");
    for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-lock`]) expect({ file, mode: modeOf(file) }).toEqual({ file, mode: 0o600 });
    const removePid = writePidFile(dataDir);
    expect(modeOf(join(dataDir, "teebox.pid"))).toBe(0o600);
    removePid();
    backupDatabase(`file:${path}`, join(dataDir, "backup.db"));
    expect(modeOf(join(dataDir, "backup.db"))).toBe(0o600);
    await database.close();
  });
});

describe("a club password the key cannot open", () => {
  let t: TestApp;
  afterEach(() => t.close());

  async function withUnreadablePassword() {
    t = await createTestApp();
    const id = await t.createUser({ username: "maria", password: "maria-pass-1" });
    // Sealed under another key: a database restored without its key file, or a changed SECRET_KEY.
    const sealed = createSecretBox(Buffer.alloc(32, 9)).seal("maria-club");
    await t.deps.database.db.update(users).set({ clubPasswordSealed: sealed }).where(eq(users.id, id));
    return id;
  }

  test("the member is told to enter it again, with an errorKey, never the crypto library's words", async () => {
    const id = await withUnreadablePassword();
    const failure = await t.deps.sessions.forMember(id).catch((error: unknown) => error as { status: number; message: string; errorKey: string });
    expect(failure).toMatchObject({ status: 400, message: "Your club password could not be read; enter it again in your profile.", errorKey: "club.password_unreadable" });
    // Changing the club email would check the stored password: the same clear answer.
    const cookie = await t.signIn("maria", "maria-pass-1");
    const profile = {
      name: "Maria",
      memberId: "SW-1",
      southwoods_email: "new@southwoods.demo",
      defaultCartType: "Walking",
      defaultFeeGuest: "Charge my guest",
      defaultFeeMember: "Charge to their account",
    };
    const res = await t.call("PUT", "/v1/my/profile", { cookie, body: profile });
    const body = await res.json();
    expect(body).toEqual({ message: "Your club password could not be read; enter it again in your profile.", errorKey: "club.password_unreadable" });
    expect(JSON.stringify(body)).not.toMatch(/decipher|auth tag|authenticate|crypto|unsupported state/i);
  });

  test("the admin's monitor flags it and start-up logs one clear line", async () => {
    await withUnreadablePassword();
    const admin = await t.signIn("admin", ADMIN_PASSWORD);
    const stats = await (await t.call("GET", "/v1/admin/system-stats", { cookie: admin })).json();
    expect(stats.unreadableClubPasswords).toBe(1);
    expect(stats.processes.find((p: { name: string }) => p.name === "club passwords")).toMatchObject({ status: "unreadable (1)" });
    const before = t.logLines.length;
    await reportUnreadableClubPasswords(t.deps);
    const lines = t.logLines.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("1 stored club password(s) cannot be decrypted with the current key");
    expect(lines[0]).toContain('"level":"error"');
  });
});

test("a readable database is not reported", async () => {
  const t = await createTestApp({ demo: true });
  try {
    const before = t.logLines.length;
    await reportUnreadableClubPasswords(t.deps);
    expect(t.logLines.length).toBe(before);
  } finally {
    await t.close();
  }
});

// Its file locks are what other processes see, so it must not be in WAL mode.
test("the lock file is an ordinary SQLite file with a rollback journal", async () => {
  const { path, database } = await freshDatabase();
  const lock = new Database(`${path}-lock`, { readonly: true });
  expect(lock.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "delete" });
  lock.close();
  await database.close();
});
