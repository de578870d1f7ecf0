/**
 * Opens the database named by DATABASE_URL: `file:` → bun:sqlite (embeddable in the binary),
 * libsql://, http(s)://, ws(s):// → @libsql/client/web against a libSQL server.
 * Services only use awaited drizzle calls, so they run unchanged on both.
 */
import { Database } from "bun:sqlite";
import { createClient, type Client as LibsqlClient } from "@libsql/client/web";
import { drizzle as drizzleBun } from "drizzle-orm/bun-sqlite";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql/web";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";
import { createPrivateFile, holdSharedLock, takeServingLock } from "./file-lock.ts";
import { cacheStatements } from "./statement-cache.ts";

export type Schema = typeof schema;
/** The drizzle database both drivers provide (sync for bun:sqlite, async for libSQL). */
export type Db = BaseSQLiteDatabase<"sync" | "async", unknown, Schema>;

export interface Database_ {
  db: Db;
  kind: "file" | "libsql";
  /** Path of the SQLite file, for backups and disk figures; null for a libSQL server. */
  filePath: string | null;
  /** Runs `fn` in one transaction; see `transaction` below for why this is not drizzle's own. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Runs raw SQL statements (migrations, pragmas). */
  execute(statement: string): Promise<void>;
  query<T = Record<string, unknown>>(statement: string): Promise<T[]>;
  close(): Promise<void>;
}
export type { Database_ as AppDatabase };

/** A small FIFO lock: bun:sqlite has one connection, so transactions must not interleave. */
function createLock() {
  let tail = Promise.resolve();
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    const previous = tail;
    let release!: () => void;
    tail = new Promise<void>((r) => (release = r));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  };
}

export interface OpenOptions {
  /**
   * This process serves the database (the server, rotate-key): a file database is then locked
   * against every other server before anything is opened, and a second one is refused at once
   * (file-lock.ts). Others (backup, check-club, a test reading along) only share it.
   */
  serving?: boolean;
}

/** The write-ahead log is cut back to this size after a checkpoint (docs/limits.md). */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

function openFile(url: string, options: OpenOptions): Database_ {
  const path = url.slice("file:".length);
  const isMemory = path === ":memory:" || path === "";
  // Before anything else (the file, its WAL, the migrations): no second server gets this far, a
  // restore sees that this process has the database open, and the file is created readable by the
  // owner only (SQLite gives its WAL and SHM files the same mode).
  const lock = isMemory ? null : options.serving ? takeServingLock(path) : holdSharedLock(path);
  let sqlite: Database;
  try {
    if (!isMemory) createPrivateFile(path);
    sqlite = new Database(path, { create: true, strict: true });
    // The wait first: switching a new file to WAL needs a moment's lock another opener may hold.
    sqlite.exec("PRAGMA busy_timeout = 5000;");
    sqlite.exec("PRAGMA journal_mode = WAL;");
    sqlite.exec("PRAGMA foreign_keys = ON;");
    sqlite.exec("PRAGMA synchronous = NORMAL;");
    // A checkpoint leaves the WAL file at its largest size unless told otherwise: a busy day (a
    // release, a retention pass) must not leave it grown for good.
    sqlite.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES};`);
  } catch (error) {
    lock?.release();
    throw error;
  }
  cacheStatements(sqlite);
  const db = drizzleBun({ client: sqlite, schema }) as unknown as Db;
  const withLock = createLock();
  return {
    db,
    kind: "file",
    filePath: isMemory ? null : path,
    // drizzle's bun:sqlite transaction is synchronous and would commit before an async body
    // finished; an explicit BEGIN/COMMIT under a lock keeps async bodies atomic.
    transaction: (fn) =>
      withLock(async () => {
        sqlite.exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(db);
          sqlite.exec("COMMIT");
          return result;
        } catch (error) {
          sqlite.exec("ROLLBACK");
          throw error;
        }
      }),
    execute: async (statement) => {
      sqlite.exec(statement);
    },
    query: async <T>(statement: string) => sqlite.query(statement).all() as T[],
    close: async () => {
      sqlite.close();
      lock?.release();
    },
  };
}

function openLibsql(url: string): Database_ {
  const parsed = new URL(url);
  const authToken = parsed.searchParams.get("authToken") ?? undefined;
  parsed.searchParams.delete("authToken");
  return libsqlDatabase(createClient({ url: parsed.toString(), authToken }));
}

/**
 * A database over a libSQL client through drizzle's libSQL driver. The server's path gives it the
 * web client; the tests' libSQL pass gives it the native client on a local file, which the
 * driver treats the same way (each transaction on a connection of its own).
 */
export function libsqlDatabase(client: LibsqlClient): Database_ {
  const db = drizzleLibsql({ client, schema }) as unknown as Db;
  return {
    db,
    kind: "libsql",
    filePath: null,
    transaction: (fn) => (db.transaction as unknown as (f: (tx: Db) => Promise<unknown>) => Promise<unknown>)(fn) as never,
    execute: async (statement) => {
      await client.executeMultiple(statement);
    },
    query: async <T>(statement: string) => (await client.execute(statement)).rows as unknown as T[],
    close: async () => client.close(),
  };
}

export function openDatabase(url: string, options: OpenOptions = {}): Database_ {
  return url.startsWith("file:") ? openFile(url, options) : openLibsql(url);
}
