/**
 * Applies the embedded migrations (drizzle/index.ts) that the database has not seen yet,
 * each in its own transaction, recording them in `__teebox_migrations`.
 */
import { migrations } from "../../drizzle/index.ts";
import type { AppDatabase } from "./client.ts";

export async function migrate(database: AppDatabase, now: number): Promise<string[]> {
  await database.execute("CREATE TABLE IF NOT EXISTS __teebox_migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const done = new Set((await database.query<{ tag: string }>("SELECT tag FROM __teebox_migrations")).map((r) => r.tag));
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.tag)) continue;
    const statements = migration.sql
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    const script = [
      "BEGIN;",
      ...statements.map((s) => (s.endsWith(";") ? s : `${s};`)),
      `INSERT INTO __teebox_migrations (tag, applied_at) VALUES ('${migration.tag.replace(/'/g, "''")}', ${now});`,
      "COMMIT;",
    ].join("\n");
    try {
      await database.execute(script);
    } catch (error) {
      await database.execute("ROLLBACK;").catch(() => undefined);
      // Two instances starting at once on a libSQL server may both try it: the one that lost the
      // race finds it recorded by the other and goes on.
      if (await isRecorded(database, migration.tag)) continue;
      throw new Error(`migration ${migration.tag} failed: ${(error as Error).message}`);
    }
    applied.push(migration.tag);
  }
  return applied;
}

async function isRecorded(database: AppDatabase, tag: string): Promise<boolean> {
  const rows = await database.query<{ tag: string }>(`SELECT tag FROM __teebox_migrations WHERE tag = '${tag.replace(/'/g, "''")}'`);
  return rows.length > 0;
}
