import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { cacheStatements } from "../../src/db/statement-cache.ts";

const items = sqliteTable("items", { id: integer("id").primaryKey(), name: text("name").notNull() });

function openItems(maxSize?: number) {
  const sqlite = new Database(":memory:");
  sqlite.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  const cache = cacheStatements(sqlite, maxSize);
  return { sqlite, cache, db: drizzle({ client: sqlite }) };
}

describe("the compiled statements kept for drizzle's bun:sqlite driver", () => {
  test("a query run again is not compiled again, and answers with its own values", () => {
    const { db, cache } = openItems();
    db.insert(items)
      .values([{ name: "a" }, { name: "b" }, { name: "c" }])
      .run();
    const names = [1, 2, 3].map((id) => db.select().from(items).where(eq(items.id, id)).get()?.name);
    expect(names).toEqual(["a", "b", "c"]);
    // One insert and one select, each compiled once; the select's second and third runs were kept.
    expect(cache.counts()).toEqual({ hits: 2, compiled: 2 });
  });

  test("the cache keeps at most its bound, dropping the least recently used, and a dropped statement still runs", () => {
    const { db, cache } = openItems(3);
    db.insert(items)
      .values([{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }])
      .run();
    // IN lists of four lengths are four SQL texts.
    const held = db
      .select()
      .from(items)
      .where(inArray(items.id, [1]))
      .prepare();
    for (const ids of [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]]) db.select().from(items).where(inArray(items.id, ids)).all();
    expect(cache.size()).toBe(3);
    expect(held.all().map((row) => row.name)).toEqual(["a"]);
  });

  test("a transaction rolled back leaves the kept statements working", () => {
    const { db, sqlite } = openItems();
    db.insert(items).values({ name: "kept" }).run();
    sqlite.exec("BEGIN");
    db.insert(items).values({ name: "gone" }).run();
    sqlite.exec("ROLLBACK");
    expect(
      db
        .select()
        .from(items)
        .all()
        .map((row) => row.name),
    ).toEqual(["kept"]);
  });
});
