/**
 * Applies the versioned SQL files of ./migrations in name order, once each.
 * A transaction-scoped advisory lock makes concurrent starts of several
 * replicas safe: one migrates, the others wait, then find nothing to do. A
 * failing file rolls back whole, leaving the schema as it was.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./connect.ts";

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");
const LOCK_ID = 720_184_511; // fixed and arbitrary: "latchkey migrations"

export function migrationFiles(): { name: string; sql: string }[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(MIGRATIONS_DIR, name), "utf8") }));
}

/** Returns the names of the files it applied (empty when up to date). */
export async function migrate(database: Database): Promise<string[]> {
  return database.rawTransaction(async (run) => {
    await run(`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
    await run("CREATE TABLE IF NOT EXISTS latchkey_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await run("SELECT name FROM latchkey_migrations")).map((r) => String(r.name)));
    const applied: string[] = [];
    for (const file of migrationFiles()) {
      if (done.has(file.name)) continue;
      await run(file.sql.replaceAll("--> statement-breakpoint", ""));
      await run(`INSERT INTO latchkey_migrations (name) VALUES ('${file.name.replaceAll("'", "''")}')`);
      applied.push(file.name);
    }
    return applied;
  });
}
