/**
 * Opens the database named by DATABASE_URL: `file:` → bun:sqlite (embeddable in the binary),
 * libsql://, http(s)://, ws(s):// → @libsql/client/web against a libSQL server.
 * Services only use awaited drizzle calls, so they run unchanged on both.
 */
import { Database } from "bun:sqlite";
import { createClient } from "@libsql/client/web";
import { drizzle as drizzleBun } from "drizzle-orm/bun-sqlite";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql/web";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";
import { createPrivateFile, holdSharedLock } from "./file-lock.ts";

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

function openFile(url: string): Database_ {
  const path = url.slice("file:".length);
  const isMemory = path === ":memory:" || path === "";
  // Before anything else: a restore must see that this process has the database open, and the
  // file is created readable by the owner only (SQLite gives its WAL and SHM files the same mode).
  const lock = isMemory ? null : holdSharedLock(path);
  if (!isMemory) createPrivateFile(path);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL;");
  sqlite.exec("PRAGMA busy_timeout = 5000;");
  sqlite.exec("PRAGMA foreign_keys = ON;");
  sqlite.exec("PRAGMA synchronous = NORMAL;");
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
  const client = createClient({ url: parsed.toString(), authToken });
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

export function openDatabase(url: string): Database_ {
  return url.startsWith("file:") ? openFile(url) : openLibsql(url);
}
