/**
 * The queries Teebox runs most often, compiled once per database (decision 205). drizzle builds a
 * query's SQL text again on every call, which costs about ten times what running a small indexed
 * query does (50–100 µs against 5–10 µs on a 2-core machine); a release's instant runs thousands,
 * between the members' reads it delays. A prepared query keeps its SQL and its compiled statement,
 * and takes its values by name (`sql.placeholder`). Only queries whose shape never changes qualify:
 * an `IN (…)` list of a caller's length does not.
 */
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/** `build`'s prepared query for a database, built on its first use there and kept while the database lives. */
export function preparedQuery<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const byDatabase = new WeakMap<Db, Q>();
  return (db) => {
    let query = byDatabase.get(db);
    if (query === undefined) {
      query = build(db);
      byDatabase.set(db, query);
    }
    return query;
  };
}

/**
 * A named value for a prepared update's `set`. drizzle's types take only values there, but it maps
 * a placeholder through the column as it maps a value (JSON, booleans): the type says which.
 */
export const settable = <T>(name: string): T => sql.placeholder(name) as unknown as T;
