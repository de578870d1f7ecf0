/**
 * The database a test opens. By default bun:sqlite in memory, as the file driver runs. With
 * TEEBOX_TEST_DB=libsql (the test runner's libSQL pass) a new database file opened through the
 * native @libsql/client and drizzle's libSQL driver: the path a libSQL server takes, which no
 * server can be installed to try here. As on a server, each transaction has a connection of its
 * own, and the rest of the app's statements run beside it on others. The native client is imported
 * only here, never by the server's code (it cannot be compiled into the binary).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client, InStatement, ResultSet, Transaction } from "@libsql/client";
import { libsqlDatabase, openDatabase, type AppDatabase } from "../../src/db/client.ts";

export type TestDriver = "file" | "libsql";

/** Which driver this run's tests use (read here, in the tests: src/config.ts reads the server's environment). */
export const TEST_DRIVER: TestDriver = process.env.TEEBOX_TEST_DB === "libsql" ? "libsql" : "file";

/** A fresh, empty database on this run's driver (not migrated). */
export async function openTestDatabase(): Promise<AppDatabase> {
  if (TEST_DRIVER === "file") return openDatabase("file::memory:");
  // In memory when the machine has such a folder: what is tried is the driver, not the disk.
  const dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "teebox-libsql-"));
  const database = await openLibsqlFile(join(dir, "teebox.db"));
  const withFolder: AppDatabase = {
    ...database,
    close: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  changeCounters.set(withFolder, () => changeCounters.get(database)?.() ?? 0);
  return withFolder;
}

/** A database file through the native libSQL client (several may share one file, as instances share a server). */
export async function openLibsqlFile(path: string): Promise<AppDatabase> {
  const { createClient } = await import("@libsql/client");
  // No waiting inside SQLite (it would block the event loop): a busy lock is waited for below.
  const served = likeAServer(createClient({ url: `file:${path}`, timeout: 0 }));
  // WAL, as a libSQL server keeps its databases: readers beside a writer.
  await served.client.execute("PRAGMA journal_mode = WAL");
  const database = libsqlDatabase(served.client);
  changeCounters.set(database, served.changes);
  return database;
}

/**
 * Rows inserted, changed or deleted so far through `database`, to tell that a call changed nothing.
 * The file driver has one connection, whose total_changes() says it; a libSQL client spreads its
 * statements over connections (and a server over streams), so its statements are counted as they go.
 */
export async function changesSoFar(database: AppDatabase): Promise<number> {
  const counter = changeCounters.get(database);
  if (counter) return counter();
  const [row] = await database.query<{ n: number }>("SELECT total_changes() AS n");
  return Number(row.n);
}

const changeCounters = new WeakMap<AppDatabase, () => number>();

const WRITE = /^\s*(insert|update|delete|replace)\b/i;
/** A libSQL server holds a statement that finds the database locked for up to about this long. */
const LOCK_WAIT_MS = 5000;
const LONG_WAIT_MS = 1000;

const isBusy = (error: unknown) => error instanceof Error && /SQLITE_BUSY|database is locked/.test(`${(error as { code?: string }).code ?? ""} ${error.message}`);

/**
 * A statement (or a transaction's BEGIN) that finds the database locked by another connection
 * waits for it without blocking anything else, as a call to a libSQL server waits for its answer,
 * and is sent again; the native client's own busy timeout would stop the whole process instead,
 * so the transaction holding the lock could never finish.
 */
async function waitingForLocks<T>(run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
    try {
      return await run();
    } catch (error) {
      const waited = performance.now() - started;
      if (!isBusy(error) || waited > LOCK_WAIT_MS) throw error;
      // Transactions here last milliseconds: a long wait is a statement waiting on a transaction
      // that waits on it (a write on the database's own client inside `transaction`), worth a line.
      if (waited < LONG_WAIT_MS && waited + pause >= LONG_WAIT_MS) console.warn(`a statement has waited ${LONG_WAIT_MS} ms for a lock another connection holds`);
      await Bun.sleep(pause);
    }
  }
}

function likeAServer(client: Client): { client: Client; changes: () => number } {
  let changes = 0;
  const count = (statement: InStatement, result: ResultSet) => {
    const sql = typeof statement === "string" ? statement : statement.sql;
    // A statement with RETURNING answers its rows (the native client then reports 0 affected).
    if (WRITE.test(sql)) changes += Math.max(result.rowsAffected, result.rows.length);
    return result;
  };
  // Inside a transaction the lock is already held (drizzle begins them as write transactions).
  const wrap = <T extends Client | Transaction>(target: T, wait: <R>(run: () => Promise<R>) => Promise<R>): T =>
    new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key, object);
        if (key === "execute") {
          return async (statement: InStatement, args?: never) =>
            count(statement, await wait(() => (args === undefined ? object.execute(statement) : object.execute(statement as string, args))));
        }
        if (key === "batch") {
          return async (statements: InStatement[], mode?: never) =>
            (await wait(() => (mode === undefined ? object.batch(statements) : (object as Client).batch(statements, mode)))).map((result, i) => count(statements[i], result));
        }
        if (key === "executeMultiple") return (sql: string) => wait(() => object.executeMultiple(sql));
        if (key === "transaction") return async (mode?: never) => wrap(await wait(() => (object as Client).transaction(mode)), (run) => run());
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  return { client: wrap(client, waitingForLocks), changes: () => changes };
}

/**
 * Calls `onStatement` with the SQL of every statement the database runs from now until the returned
 * function is called, prepared ones included: a test counts reads by what runs, not by what is
 * built. drizzle tells its session's logger of each statement as it runs, on both drivers.
 */
export function watchStatements(db: AppDatabase["db"], onStatement: (sql: string) => void): () => void {
  const { logger } = (db as unknown as { session: { logger: { logQuery(sql: string, params: unknown[]): void } } }).session;
  const original = logger.logQuery;
  logger.logQuery = function (sql, params) {
    onStatement(sql);
    return original.call(this, sql, params);
  };
  return () => {
    logger.logQuery = original;
  };
}
