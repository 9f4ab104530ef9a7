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

/** The migration files in the order they apply; a file's SQL is read when asked for (a start with nothing to apply reads none). */
export function migrationFiles(): { name: string; readonly sql: string }[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({
      name,
      get sql() {
        return readFileSync(join(MIGRATIONS_DIR, name), "utf8");
      },
    }));
}

/** A migration file that failed; the transaction of the whole run rolled back, so the schema is as it was. */
export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    options: { cause: unknown },
  ) {
    super(`Migration ${migration} failed: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
    this.name = "MigrationError";
  }
}

/** Returns the names of the files it applied (empty when up to date); throws MigrationError naming a file that fails. */
export async function migrate(database: Database): Promise<string[]> {
  return database.rawTransaction(async (run) => {
    await run(`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
    await run("CREATE TABLE IF NOT EXISTS latchkey_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await run("SELECT name FROM latchkey_migrations")).map((r) => String(r.name)));
    const applied: string[] = [];
    for (const file of migrationFiles()) {
      if (done.has(file.name)) continue;
      try {
        await run(file.sql.replaceAll("--> statement-breakpoint", ""));
      } catch (error) {
        throw new MigrationError(file.name, { cause: error });
      }
      await run(`INSERT INTO latchkey_migrations (name) VALUES ('${file.name.replaceAll("'", "''")}')`);
      applied.push(file.name);
    }
    return applied;
  });
}
