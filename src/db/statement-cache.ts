/**
 * drizzle's bun:sqlite driver compiles every query's SQL again on each call (`client.prepare`),
 * and compiling is about a third of a small query's time: a member's reload makes a dozen queries,
 * a release's instant hundreds. The statements Teebox runs are few and their text repeats (values
 * are bound, not written into the SQL), so the compiled statements are kept, the most recently used
 * first, up to a bound.
 *
 * A statement dropped from the cache is not finalized: a caller may still hold it, and Bun frees it
 * once nothing does. bun:sqlite runs a statement to its end in one call, so one statement serves
 * every caller in turn.
 */
import type { Database, Statement } from "bun:sqlite";

/** Distinct SQL texts kept compiled (docs/limits.md); `IN (…)` lists of every length count apart. */
export const STATEMENT_CACHE_SIZE = 256;

export interface StatementCache {
  /** How many compiled statements are kept now. */
  size(): number;
  /** How many prepares were answered from the cache, and how many compiled. */
  counts(): { hits: number; compiled: number };
}

/** Makes `sqlite.prepare` answer from a bounded cache of compiled statements. */
export function cacheStatements(sqlite: Database, maxSize = STATEMENT_CACHE_SIZE): StatementCache {
  const compile = sqlite.prepare.bind(sqlite) as (sql: string, ...params: unknown[]) => Statement;
  const kept = new Map<string, Statement>();
  let hits = 0;
  let compiled = 0;
  const prepare = (sql: string, ...rest: unknown[]): Statement => {
    // Bound parameters at prepare time make a statement someone else's: those are not shared.
    if (rest.length > 0 && rest[0] !== undefined) return compile(sql, ...rest);
    const found = kept.get(sql);
    if (found) {
      hits++;
      kept.delete(sql);
      kept.set(sql, found);
      return found;
    }
    compiled++;
    const statement = compile(sql);
    kept.set(sql, statement);
    if (kept.size > maxSize) kept.delete(kept.keys().next().value as string);
    return statement;
  };
  Object.defineProperty(sqlite, "prepare", { value: prepare, configurable: true, writable: true });
  return { size: () => kept.size, counts: () => ({ hits, compiled }) };
}
