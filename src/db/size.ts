/**
 * How big the database is, for the System Monitor and /metrics: its pages (either driver), and for a
 * file database the write-ahead log beside it, which a busy moment can grow until a checkpoint.
 */
import { statSync } from "node:fs";
import type { AppDatabase } from "./client.ts";

export interface DatabaseSize {
  /** The database's pages, in bytes. */
  bytes: number;
  /** The WAL file's size in bytes; null for a libSQL server (or when there is none). */
  walBytes: number | null;
}

export async function measureDatabase(database: AppDatabase): Promise<DatabaseSize> {
  const [pages] = await database.query<{ page_count: number }>("PRAGMA page_count");
  const [size] = await database.query<{ page_size: number }>("PRAGMA page_size");
  const bytes = Number(pages?.page_count ?? 0) * Number(size?.page_size ?? 0);
  return { bytes, walBytes: database.filePath ? fileSize(`${database.filePath}-wal`) : null };
}

function fileSize(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}
